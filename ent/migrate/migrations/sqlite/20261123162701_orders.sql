-- +goose Up
-- create "line_items" table
CREATE TABLE `line_items` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `line_item_key` text NOT NULL, `product_id` text NOT NULL DEFAULT (''), `variant_id` text NOT NULL DEFAULT (''), `sku` text NOT NULL DEFAULT (''), `product_title` text NOT NULL DEFAULT (''), `title` text NOT NULL, `price` integer NOT NULL, `compare_at_price` integer NOT NULL DEFAULT (0), `quantity` integer NOT NULL, `fulfilled_quantity` integer NOT NULL DEFAULT (0), `weight` integer NOT NULL DEFAULT (0), `weight_unit` text NOT NULL DEFAULT ('g'), `requires_shipping` bool NOT NULL DEFAULT (true), `taxable` bool NOT NULL DEFAULT (true), `tags` text NOT NULL DEFAULT (''), `vendor` text NOT NULL DEFAULT (''), `image_url` text NOT NULL DEFAULT (''), `properties` json NULL, `position` integer NOT NULL DEFAULT (0), `order_id` integer NOT NULL, CONSTRAINT `line_items_orders_line_items` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE);
-- set sequence for "line_items" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("line_items", 42949672960);
-- create index "lineitem_order_id_line_item_key" to table: "line_items"
CREATE UNIQUE INDEX `lineitem_order_id_line_item_key` ON `line_items` (`order_id`, `line_item_key`);
-- create "orders" table
CREATE TABLE `orders` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_order_id` text NOT NULL, `status` text NOT NULL DEFAULT ('open'), `currency` text NOT NULL, `flow_id` text NOT NULL DEFAULT (''), `resumable_link` text NOT NULL DEFAULT (''), `created_via` text NOT NULL DEFAULT ('checkout'), `platform_order_id` text NOT NULL DEFAULT (''), `meta_data` json NOT NULL, `version` integer NOT NULL DEFAULT (1), `processed_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `orders_shops_orders` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "orders" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("orders", 47244640256);
-- create index "orders_public_order_id_key" to table: "orders"
CREATE UNIQUE INDEX `orders_public_order_id_key` ON `orders` (`public_order_id`);
-- create index "order_shop_id_created_at" to table: "orders"
CREATE INDEX `order_shop_id_created_at` ON `orders` (`shop_id`, `created_at`);

-- +goose Down
-- reverse: create index "order_shop_id_created_at" to table: "orders"
DROP INDEX `order_shop_id_created_at`;
-- reverse: create index "orders_public_order_id_key" to table: "orders"
DROP INDEX `orders_public_order_id_key`;
-- reverse: set sequence for "orders" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "orders";
-- reverse: create "orders" table
DROP TABLE `orders`;
-- reverse: create index "lineitem_order_id_line_item_key" to table: "line_items"
DROP INDEX `lineitem_order_id_line_item_key`;
-- reverse: set sequence for "line_items" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "line_items";
-- reverse: create "line_items" table
DROP TABLE `line_items`;
