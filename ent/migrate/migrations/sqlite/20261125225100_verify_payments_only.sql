-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_shops" table
CREATE TABLE `new_shops` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `identifier` text NOT NULL, `name` text NOT NULL DEFAULT (''), `domain` text NOT NULL DEFAULT (''), `platform_type` text NOT NULL DEFAULT ('custom'), `currency` text NOT NULL DEFAULT ('USD'), `shared_secret` text NULL, `jwt_key` blob NOT NULL, `prices_include_tax` bool NOT NULL DEFAULT (false), `abandoned_cart_emails` bool NOT NULL DEFAULT (false), `gift_cards_enabled` bool NOT NULL DEFAULT (false), `require_business_name` bool NOT NULL DEFAULT (false), `require_phone_number` bool NOT NULL DEFAULT (false), `verify_payments_only` bool NOT NULL DEFAULT (false));
-- set sequence for "new_shops" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_shops", 34359738368);
-- copy rows from old table "shops" to new temporary table "new_shops"
INSERT INTO `new_shops` (`id`, `created_at`, `updated_at`, `identifier`, `name`, `domain`, `platform_type`, `currency`, `shared_secret`, `jwt_key`, `prices_include_tax`, `abandoned_cart_emails`, `gift_cards_enabled`, `require_business_name`, `require_phone_number`) SELECT `id`, `created_at`, `updated_at`, `identifier`, `name`, `domain`, `platform_type`, `currency`, `shared_secret`, `jwt_key`, `prices_include_tax`, `abandoned_cart_emails`, `gift_cards_enabled`, `require_business_name`, `require_phone_number` FROM `shops`;
-- drop "shops" table after copying rows
DROP TABLE `shops`;
-- rename temporary table "new_shops" to "shops"
ALTER TABLE `new_shops` RENAME TO `shops`;
-- create index "shops_identifier_key" to table: "shops"
CREATE UNIQUE INDEX `shops_identifier_key` ON `shops` (`identifier`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "shops_identifier_key" to table: "shops"
DROP INDEX `shops_identifier_key`;
-- reverse: set sequence for "new_shops" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_shops";
-- reverse: create "new_shops" table
DROP TABLE `new_shops`;
