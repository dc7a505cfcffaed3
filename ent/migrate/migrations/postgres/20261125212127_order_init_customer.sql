-- +goose Up
-- modify "orders" table
ALTER TABLE "orders" ADD COLUMN "init_customer" jsonb NULL;

-- +goose Down
-- reverse: modify "orders" table
ALTER TABLE "orders" DROP COLUMN "init_customer";
