-- +goose Up
-- add column "redeemed_discount_codes" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `redeemed_discount_codes` json NULL;

-- +goose Down
-- reverse: add column "redeemed_discount_codes" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `redeemed_discount_codes`;
