-- +goose Up
-- add column "customer" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `customer` json NULL;
-- add column "shipping_address" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `shipping_address` json NULL;
-- add column "billing_address" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `billing_address` json NULL;

-- +goose Down
-- reverse: add column "billing_address" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `billing_address`;
-- reverse: add column "shipping_address" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `shipping_address`;
-- reverse: add column "customer" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `customer`;
