-- +goose Up
-- modify "orders" table
ALTER TABLE "orders" ADD COLUMN "reserved" boolean NOT NULL DEFAULT false;

-- +goose Down
-- reverse: modify "orders" table
ALTER TABLE "orders" DROP COLUMN "reserved";
