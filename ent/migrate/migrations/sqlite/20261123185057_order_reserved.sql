-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_orders" table
CREATE TABLE `new_orders` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_order_id` text NOT NULL, `status` text NOT NULL DEFAULT ('open'), `currency` text NOT NULL, `flow_id` text NOT NULL DEFAULT (''), `resumable_link` text NOT NULL DEFAULT (''), `created_via` text NOT NULL DEFAULT ('checkout'), `platform_order_id` text NOT NULL DEFAULT (''), `meta_data` json NOT NULL, `customer` json NULL, `shipping_address` json NULL, `billing_address` json NULL, `selected_shipping` json NULL, `discount_codes` json NULL, `tax_basis` json NULL, `version` integer NOT NULL DEFAULT (1), `processed_at` datetime NULL, `reserved` bool NOT NULL DEFAULT (false), `shop_id` integer NOT NULL, CONSTRAINT `orders_shops_orders` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "new_orders" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_orders", 47244640256);
-- copy rows from old table "orders" to new temporary table "new_orders"
INSERT INTO `new_orders` (`id`, `created_at`, `updated_at`, `public_order_id`, `status`, `currency`, `flow_id`, `resumable_link`, `created_via`, `platform_order_id`, `meta_data`, `customer`, `shipping_address`, `billing_address`, `selected_shipping`, `discount_codes`, `tax_basis`, `version`, `processed_at`, `shop_id`) SELECT `id`, `created_at`, `updated_at`, `public_order_id`, `status`, `currency`, `flow_id`, `resumable_link`, `created_via`, `platform_order_id`, `meta_data`, `customer`, `shipping_address`, `billing_address`, `selected_shipping`, `discount_codes`, `tax_basis`, `version`, `processed_at`, `shop_id` FROM `orders`;
-- drop "orders" table after copying rows
DROP TABLE `orders`;
-- rename temporary table "new_orders" to "orders"
ALTER TABLE `new_orders` RENAME TO `orders`;
-- create index "orders_public_order_id_key" to table: "orders"
CREATE UNIQUE INDEX `orders_public_order_id_key` ON `orders` (`public_order_id`);
-- create index "order_shop_id_created_at" to table: "orders"
CREATE INDEX `order_shop_id_created_at` ON `orders` (`shop_id`, `created_at`);
-- create index "order_status_updated_at" to table: "orders"
CREATE INDEX `order_status_updated_at` ON `orders` (`status`, `updated_at`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "order_status_updated_at" to table: "orders"
DROP INDEX `order_status_updated_at`;
-- reverse: create index "order_shop_id_created_at" to table: "orders"
DROP INDEX `order_shop_id_created_at`;
-- reverse: create index "orders_public_order_id_key" to table: "orders"
DROP INDEX `orders_public_order_id_key`;
-- reverse: set sequence for "new_orders" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_orders";
-- reverse: create "new_orders" table
DROP TABLE `new_orders`;
