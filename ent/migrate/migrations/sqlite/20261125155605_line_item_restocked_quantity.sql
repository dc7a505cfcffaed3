-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_line_items" table
CREATE TABLE `new_line_items` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `line_item_key` text NOT NULL, `product_id` text NOT NULL DEFAULT (''), `variant_id` text NOT NULL DEFAULT (''), `sku` text NOT NULL DEFAULT (''), `product_title` text NOT NULL DEFAULT (''), `title` text NOT NULL, `price` integer NOT NULL, `compare_at_price` integer NOT NULL DEFAULT (0), `quantity` integer NOT NULL, `fulfilled_quantity` integer NOT NULL DEFAULT (0), `restocked_quantity` integer NOT NULL DEFAULT (0), `weight` integer NOT NULL DEFAULT (0), `weight_unit` text NOT NULL DEFAULT ('g'), `requires_shipping` bool NOT NULL DEFAULT (true), `taxable` bool NOT NULL DEFAULT (true), `tags` text NOT NULL DEFAULT (''), `vendor` text NOT NULL DEFAULT (''), `image_url` text NOT NULL DEFAULT (''), `properties` json NULL, `position` integer NOT NULL DEFAULT (0), `order_id` integer NOT NULL, CONSTRAINT `line_items_orders_line_items` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE);
-- set sequence for "new_line_items" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_line_items", 42949672960);
-- copy rows from old table "line_items" to new temporary table "new_line_items"
INSERT INTO `new_line_items` (`id`, `created_at`, `updated_at`, `line_item_key`, `product_id`, `variant_id`, `sku`, `product_title`, `title`, `price`, `compare_at_price`, `quantity`, `fulfilled_quantity`, `weight`, `weight_unit`, `requires_shipping`, `taxable`, `tags`, `vendor`, `image_url`, `properties`, `position`, `order_id`) SELECT `id`, `created_at`, `updated_at`, `line_item_key`, `product_id`, `variant_id`, `sku`, `product_title`, `title`, `price`, `compare_at_price`, `quantity`, `fulfilled_quantity`, `weight`, `weight_unit`, `requires_shipping`, `taxable`, `tags`, `vendor`, `image_url`, `properties`, `position`, `order_id` FROM `line_items`;
-- drop "line_items" table after copying rows
DROP TABLE `line_items`;
-- rename temporary table "new_line_items" to "line_items"
ALTER TABLE `new_line_items` RENAME TO `line_items`;
-- create index "lineitem_order_id_line_item_key" to table: "line_items"
CREATE UNIQUE INDEX `lineitem_order_id_line_item_key` ON `line_items` (`order_id`, `line_item_key`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "lineitem_order_id_line_item_key" to table: "line_items"
DROP INDEX `lineitem_order_id_line_item_key`;
-- reverse: set sequence for "new_line_items" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_line_items";
-- reverse: create "new_line_items" table
DROP TABLE `new_line_items`;
