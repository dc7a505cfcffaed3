-- +goose Up
-- create "platform_orders" table
CREATE TABLE `platform_orders` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `platform_id` text NOT NULL, `order_number` text NOT NULL DEFAULT (''), `platform_customer_id` text NOT NULL DEFAULT (''), `currency` text NOT NULL DEFAULT (''), `total` text NOT NULL DEFAULT (''), `order_status` text NOT NULL DEFAULT (''), `financial_status` text NOT NULL DEFAULT (''), `fulfillment_status` text NOT NULL DEFAULT (''), `placed_at` datetime NULL, `data` json NULL, `platform_updated_at` datetime NOT NULL, `platform_deleted_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `platform_orders_shops_platform_orders` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "platform_orders" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("platform_orders", 141733920768);
-- create index "platformorder_shop_id_platform_id" to table: "platform_orders"
CREATE UNIQUE INDEX `platformorder_shop_id_platform_id` ON `platform_orders` (`shop_id`, `platform_id`);
-- create index "platformorder_shop_id_created_at" to table: "platform_orders"
CREATE INDEX `platformorder_shop_id_created_at` ON `platform_orders` (`shop_id`, `created_at`);

-- +goose Down
-- reverse: create index "platformorder_shop_id_created_at" to table: "platform_orders"
DROP INDEX `platformorder_shop_id_created_at`;
-- reverse: create index "platformorder_shop_id_platform_id" to table: "platform_orders"
DROP INDEX `platformorder_shop_id_platform_id`;
-- reverse: set sequence for "platform_orders" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "platform_orders";
-- reverse: create "platform_orders" table
DROP TABLE `platform_orders`;
