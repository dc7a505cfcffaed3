-- +goose Up
-- create "products" table
CREATE TABLE `products` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `platform_id` text NOT NULL, `title` text NOT NULL, `description` text NOT NULL DEFAULT (''), `vendor` text NOT NULL DEFAULT (''), `tags` text NOT NULL DEFAULT (''), `image_url` text NOT NULL DEFAULT (''), `gift_card` bool NOT NULL DEFAULT (false), `shop_id` integer NOT NULL, CONSTRAINT `products_shops_products` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "products" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("products", 51539607552);
-- create index "product_shop_id_platform_id" to table: "products"
CREATE UNIQUE INDEX `product_shop_id_platform_id` ON `products` (`shop_id`, `platform_id`);
-- create "variants" table
CREATE TABLE `variants` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `shop_id` integer NOT NULL, `platform_id` text NOT NULL, `sku` text NOT NULL DEFAULT (''), `title` text NOT NULL DEFAULT (''), `price` integer NOT NULL, `compare_at_price` integer NOT NULL DEFAULT (0), `weight` integer NOT NULL DEFAULT (0), `weight_unit` text NOT NULL DEFAULT ('g'), `requires_shipping` bool NOT NULL DEFAULT (true), `taxable` bool NOT NULL DEFAULT (true), `inventory_tracked` bool NOT NULL DEFAULT (false), `inventory_quantity` integer NOT NULL DEFAULT (0), `image_url` text NOT NULL DEFAULT (''), `product_id` integer NOT NULL, CONSTRAINT `variants_products_variants` FOREIGN KEY (`product_id`) REFERENCES `products` (`id`) ON DELETE CASCADE);
-- set sequence for "variants" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("variants", 55834574848);
-- create index "variant_shop_id_platform_id" to table: "variants"
CREATE UNIQUE INDEX `variant_shop_id_platform_id` ON `variants` (`shop_id`, `platform_id`);
-- create index "variant_shop_id_sku" to table: "variants"
CREATE INDEX `variant_shop_id_sku` ON `variants` (`shop_id`, `sku`);

-- +goose Down
-- reverse: create index "variant_shop_id_sku" to table: "variants"
DROP INDEX `variant_shop_id_sku`;
-- reverse: create index "variant_shop_id_platform_id" to table: "variants"
DROP INDEX `variant_shop_id_platform_id`;
-- reverse: set sequence for "variants" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "variants";
-- reverse: create "variants" table
DROP TABLE `variants`;
-- reverse: create index "product_shop_id_platform_id" to table: "products"
DROP INDEX `product_shop_id_platform_id`;
-- reverse: set sequence for "products" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "products";
-- reverse: create "products" table
DROP TABLE `products`;
