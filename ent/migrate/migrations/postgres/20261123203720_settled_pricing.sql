-- +goose Up
-- modify "orders" table
ALTER TABLE "orders" ADD COLUMN "settled_pricing" bytea NULL;

-- +goose Down
-- reverse: modify "orders" table
ALTER TABLE "orders" DROP COLUMN "settled_pricing";
