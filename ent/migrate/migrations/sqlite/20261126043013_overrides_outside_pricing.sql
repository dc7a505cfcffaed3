-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_api_overrides" table
CREATE TABLE `new_api_overrides` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_id` text NOT NULL, `override_type` text NOT NULL, `url` text NOT NULL, `shared_secret` text NOT NULL, `failure_policy` text NOT NULL DEFAULT (''), `timeout_ms` integer NOT NULL DEFAULT (2000), `shop_id` integer NOT NULL, CONSTRAINT `api_overrides_shops_api_overrides` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- copy rows from old table "api_overrides" to new temporary table "new_api_overrides"
INSERT INTO `new_api_overrides` (`id`, `created_at`, `updated_at`, `public_id`, `override_type`, `url`, `shared_secret`, `shop_id`) SELECT `id`, `created_at`, `updated_at`, `public_id`, `override_type`, `url`, `shared_secret`, `shop_id` FROM `api_overrides`;
-- drop "api_overrides" table after copying rows
DROP TABLE `api_overrides`;
-- rename temporary table "new_api_overrides" to "api_overrides"
ALTER TABLE `new_api_overrides` RENAME TO `api_overrides`;
-- create index "api_overrides_public_id_key" to table: "api_overrides"
CREATE UNIQUE INDEX `api_overrides_public_id_key` ON `api_overrides` (`public_id`);
-- create "new_rsa_configs" table
CREATE TABLE `new_rsa_configs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `url` text NOT NULL, `shared_secret` text NOT NULL, `timeout_ms` integer NOT NULL DEFAULT (2000), `shop_id` integer NOT NULL, CONSTRAINT `rsa_configs_shops_rsa_config` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "new_rsa_configs" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_rsa_configs", 30064771072);
-- copy rows from old table "rsa_configs" to new temporary table "new_rsa_configs"
INSERT INTO `new_rsa_configs` (`id`, `created_at`, `updated_at`, `url`, `shared_secret`, `shop_id`) SELECT `id`, `created_at`, `updated_at`, `url`, `shared_secret`, `shop_id` FROM `rsa_configs`;
-- drop "rsa_configs" table after copying rows
DROP TABLE `rsa_configs`;
-- rename temporary table "new_rsa_configs" to "rsa_configs"
ALTER TABLE `new_rsa_configs` RENAME TO `rsa_configs`;
-- create index "rsa_configs_shop_id_key" to table: "rsa_configs"
CREATE UNIQUE INDEX `rsa_configs_shop_id_key` ON `rsa_configs` (`shop_id`);
-- add column "outside_pricing" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `outside_pricing` json NULL;
-- create "order_api_overrides" table
CREATE TABLE `order_api_overrides` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `override_type` text NOT NULL, `url` text NOT NULL, `shared_secret` text NOT NULL, `failure_policy` text NOT NULL DEFAULT (''), `timeout_ms` integer NOT NULL DEFAULT (2000), `order_id` integer NOT NULL, CONSTRAINT `order_api_overrides_orders_api_overrides` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE);
-- set sequence for "order_api_overrides" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("order_api_overrides", 150323855360);
-- create index "orderapioverride_order_id_override_type" to table: "order_api_overrides"
CREATE UNIQUE INDEX `orderapioverride_order_id_override_type` ON `order_api_overrides` (`order_id`, `override_type`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "orderapioverride_order_id_override_type" to table: "order_api_overrides"
DROP INDEX `orderapioverride_order_id_override_type`;
-- reverse: set sequence for "order_api_overrides" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "order_api_overrides";
-- reverse: create "order_api_overrides" table
DROP TABLE `order_api_overrides`;
-- reverse: add column "outside_pricing" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `outside_pricing`;
-- reverse: create index "rsa_configs_shop_id_key" to table: "rsa_configs"
DROP INDEX `rsa_configs_shop_id_key`;
-- reverse: set sequence for "new_rsa_configs" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_rsa_configs";
-- reverse: create "new_rsa_configs" table
DROP TABLE `new_rsa_configs`;
-- reverse: create index "api_overrides_public_id_key" to table: "api_overrides"
DROP INDEX `api_overrides_public_id_key`;
-- reverse: create "new_api_overrides" table
DROP TABLE `new_api_overrides`;
