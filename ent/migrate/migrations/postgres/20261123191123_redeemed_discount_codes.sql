-- +goose Up
-- modify "orders" table
ALTER TABLE "orders" ADD COLUMN "redeemed_discount_codes" jsonb NULL;

-- +goose Down
-- reverse: modify "orders" table
ALTER TABLE "orders" DROP COLUMN "redeemed_discount_codes";
