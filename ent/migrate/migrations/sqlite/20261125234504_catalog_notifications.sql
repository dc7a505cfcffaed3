-- +goose Up
-- add column "platform_updated_at" to table: "products"
ALTER TABLE `products` ADD COLUMN `platform_updated_at` datetime NULL;
-- add column "category_ids" to table: "products"
ALTER TABLE `products` ADD COLUMN `category_ids` json NULL;
-- add column "platform_data" to table: "products"
ALTER TABLE `products` ADD COLUMN `platform_data` json NULL;
-- create "catalog_tombstones" table
CREATE TABLE `catalog_tombstones` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `shop_id` integer NOT NULL, `kind` text NOT NULL, `platform_id` text NOT NULL, `deleted_at` datetime NOT NULL);
-- set sequence for "catalog_tombstones" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("catalog_tombstones", 133143986176);
-- create index "catalogtombstone_shop_id_kind_platform_id" to table: "catalog_tombstones"
CREATE UNIQUE INDEX `catalogtombstone_shop_id_kind_platform_id` ON `catalog_tombstones` (`shop_id`, `kind`, `platform_id`);
-- create "categories" table
CREATE TABLE `categories` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `platform_id` text NOT NULL, `name` text NOT NULL DEFAULT (''), `image_url` text NOT NULL DEFAULT (''), `platform_updated_at` datetime NOT NULL, `shop_id` integer NOT NULL, CONSTRAINT `categories_shops_categories` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "categories" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("categories", 137438953472);
-- create index "category_shop_id_platform_id" to table: "categories"
CREATE UNIQUE INDEX `category_shop_id_platform_id` ON `categories` (`shop_id`, `platform_id`);

-- +goose Down
-- reverse: create index "category_shop_id_platform_id" to table: "categories"
DROP INDEX `category_shop_id_platform_id`;
-- reverse: set sequence for "categories" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "categories";
-- reverse: create "categories" table
DROP TABLE `categories`;
-- reverse: create index "catalogtombstone_shop_id_kind_platform_id" to table: "catalog_tombstones"
DROP INDEX `catalogtombstone_shop_id_kind_platform_id`;
-- reverse: set sequence for "catalog_tombstones" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "catalog_tombstones";
-- reverse: create "catalog_tombstones" table
DROP TABLE `catalog_tombstones`;
-- reverse: add column "platform_data" to table: "products"
ALTER TABLE `products` DROP COLUMN `platform_data`;
-- reverse: add column "category_ids" to table: "products"
ALTER TABLE `products` DROP COLUMN `category_ids`;
-- reverse: add column "platform_updated_at" to table: "products"
ALTER TABLE `products` DROP COLUMN `platform_updated_at`;
