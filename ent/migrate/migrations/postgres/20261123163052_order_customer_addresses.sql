-- +goose Up
-- modify "orders" table
ALTER TABLE "orders" ADD COLUMN "customer" jsonb NULL, ADD COLUMN "shipping_address" jsonb NULL, ADD COLUMN "billing_address" jsonb NULL;

-- +goose Down
-- reverse: modify "orders" table
ALTER TABLE "orders" DROP COLUMN "billing_address", DROP COLUMN "shipping_address", DROP COLUMN "customer";
