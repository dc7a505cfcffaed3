-- +goose Up
-- add column "settled_pricing" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `settled_pricing` blob NULL;

-- +goose Down
-- reverse: add column "settled_pricing" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `settled_pricing`;
