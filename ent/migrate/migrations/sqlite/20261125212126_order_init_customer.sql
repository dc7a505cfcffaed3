-- +goose Up
-- add column "init_customer" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `init_customer` json NULL;

-- +goose Down
-- reverse: add column "init_customer" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `init_customer`;
