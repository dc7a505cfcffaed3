-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_shops" table
CREATE TABLE `new_shops` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `identifier` text NOT NULL, `name` text NOT NULL DEFAULT (''), `domain` text NOT NULL DEFAULT (''), `platform_type` text NOT NULL DEFAULT ('custom'), `currency` text NOT NULL DEFAULT ('USD'), `shared_secret` text NULL, `jwt_key` blob NOT NULL, `prices_include_tax` bool NOT NULL DEFAULT (false));
-- set sequence for "new_shops" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_shops", 34359738368);
-- copy rows from old table "shops" to new temporary table "new_shops"
INSERT INTO `new_shops` (`id`, `created_at`, `updated_at`, `identifier`, `name`, `domain`, `platform_type`, `currency`, `shared_secret`, `jwt_key`) SELECT `id`, `created_at`, `updated_at`, `identifier`, `name`, `domain`, `platform_type`, `currency`, `shared_secret`, `jwt_key` FROM `shops`;
-- drop "shops" table after copying rows
DROP TABLE `shops`;
-- rename temporary table "new_shops" to "shops"
ALTER TABLE `new_shops` RENAME TO `shops`;
-- create index "shops_identifier_key" to table: "shops"
CREATE UNIQUE INDEX `shops_identifier_key` ON `shops` (`identifier`);
-- add column "discount_codes" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `discount_codes` json NULL;
-- add column "tax_basis" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `tax_basis` json NULL;
-- create index "order_status_updated_at" to table: "orders"
CREATE INDEX `order_status_updated_at` ON `orders` (`status`, `updated_at`);
-- create "discount_codes" table
CREATE TABLE `discount_codes` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `code` text NOT NULL, `text` text NOT NULL DEFAULT (''), `kind` text NOT NULL, `value` integer NOT NULL DEFAULT (0), `minimum_subtotal` integer NOT NULL DEFAULT (0), `usage_limit` integer NOT NULL DEFAULT (0), `usage_count` integer NOT NULL DEFAULT (0), `starts_at` datetime NULL, `ends_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `discount_codes_shops_discount_codes` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "discount_codes" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("discount_codes", 68719476736);
-- create index "discountcode_shop_id_code" to table: "discount_codes"
CREATE UNIQUE INDEX `discountcode_shop_id_code` ON `discount_codes` (`shop_id`, `code`);
-- create "events" table
CREATE TABLE `events` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `event_id` text NOT NULL, `topic` text NOT NULL, `payload` json NOT NULL, `created_at` datetime NOT NULL, `order_id` integer NULL, `shop_id` integer NOT NULL, CONSTRAINT `events_orders_events` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE, CONSTRAINT `events_shops_events` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "events" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("events", 73014444032);
-- create index "events_event_id_key" to table: "events"
CREATE UNIQUE INDEX `events_event_id_key` ON `events` (`event_id`);
-- create index "event_shop_id_created_at" to table: "events"
CREATE INDEX `event_shop_id_created_at` ON `events` (`shop_id`, `created_at`);
-- create index "event_order_id" to table: "events"
CREATE INDEX `event_order_id` ON `events` (`order_id`);
-- create "order_payments" table
CREATE TABLE `order_payments` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_id` text NOT NULL, `gateway_public_id` text NOT NULL DEFAULT (''), `tender_type` text NOT NULL DEFAULT ('credit_card'), `display_string` text NOT NULL DEFAULT (''), `token` text NOT NULL DEFAULT (''), `retain` bool NOT NULL DEFAULT (false), `wallet_pay_type` text NOT NULL DEFAULT (''), `payment_parameters` json NULL, `amount` integer NOT NULL, `currency` text NOT NULL, `gift_card_id` integer NULL, `status` text NOT NULL DEFAULT ('added'), `step` text NOT NULL DEFAULT (''), `authorization_id` text NOT NULL DEFAULT (''), `position` integer NOT NULL DEFAULT (0), `order_id` integer NOT NULL, CONSTRAINT `order_payments_orders_payments` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE);
-- set sequence for "order_payments" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("order_payments", 77309411328);
-- create index "order_payments_public_id_key" to table: "order_payments"
CREATE UNIQUE INDEX `order_payments_public_id_key` ON `order_payments` (`public_id`);
-- create index "orderpayment_order_id_position" to table: "order_payments"
CREATE INDEX `orderpayment_order_id_position` ON `order_payments` (`order_id`, `position`);
-- create "payment_transactions" table
CREATE TABLE `payment_transactions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `shop_id` integer NOT NULL, `public_id` text NOT NULL, `kind` text NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `amount` integer NOT NULL, `currency` text NOT NULL, `gateway_transaction_id` text NOT NULL DEFAULT (''), `reference_transaction_id` text NOT NULL DEFAULT (''), `error_code` text NOT NULL DEFAULT (''), `error_message` text NOT NULL DEFAULT (''), `latency_ms` integer NOT NULL DEFAULT (0), `data` json NULL, `settled_at` datetime NULL, `order_id` integer NOT NULL, `payment_id` integer NOT NULL, CONSTRAINT `payment_transactions_orders_transactions` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE, CONSTRAINT `payment_transactions_order_payments_transactions` FOREIGN KEY (`payment_id`) REFERENCES `order_payments` (`id`) ON DELETE CASCADE);
-- set sequence for "payment_transactions" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("payment_transactions", 81604378624);
-- create index "payment_transactions_public_id_key" to table: "payment_transactions"
CREATE UNIQUE INDEX `payment_transactions_public_id_key` ON `payment_transactions` (`public_id`);
-- create index "paymenttransaction_order_id_created_at" to table: "payment_transactions"
CREATE INDEX `paymenttransaction_order_id_created_at` ON `payment_transactions` (`order_id`, `created_at`);
-- create index "paymenttransaction_status" to table: "payment_transactions"
CREATE INDEX `paymenttransaction_status` ON `payment_transactions` (`status`);
-- create "tax_zones" table
CREATE TABLE `tax_zones` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `country_code` text NOT NULL, `province_code` text NOT NULL DEFAULT (''), `rate_ppm` integer NOT NULL, `shipping_taxable` bool NOT NULL DEFAULT (false), `shop_id` integer NOT NULL, CONSTRAINT `tax_zones_shops_tax_zones` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "tax_zones" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("tax_zones", 85899345920);
-- create index "taxzone_shop_id_country_code_province_code" to table: "tax_zones"
CREATE INDEX `taxzone_shop_id_country_code_province_code` ON `tax_zones` (`shop_id`, `country_code`, `province_code`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "taxzone_shop_id_country_code_province_code" to table: "tax_zones"
DROP INDEX `taxzone_shop_id_country_code_province_code`;
-- reverse: set sequence for "tax_zones" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "tax_zones";
-- reverse: create "tax_zones" table
DROP TABLE `tax_zones`;
-- reverse: create index "paymenttransaction_status" to table: "payment_transactions"
DROP INDEX `paymenttransaction_status`;
-- reverse: create index "paymenttransaction_order_id_created_at" to table: "payment_transactions"
DROP INDEX `paymenttransaction_order_id_created_at`;
-- reverse: create index "payment_transactions_public_id_key" to table: "payment_transactions"
DROP INDEX `payment_transactions_public_id_key`;
-- reverse: set sequence for "payment_transactions" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "payment_transactions";
-- reverse: create "payment_transactions" table
DROP TABLE `payment_transactions`;
-- reverse: create index "orderpayment_order_id_position" to table: "order_payments"
DROP INDEX `orderpayment_order_id_position`;
-- reverse: create index "order_payments_public_id_key" to table: "order_payments"
DROP INDEX `order_payments_public_id_key`;
-- reverse: set sequence for "order_payments" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "order_payments";
-- reverse: create "order_payments" table
DROP TABLE `order_payments`;
-- reverse: create index "event_order_id" to table: "events"
DROP INDEX `event_order_id`;
-- reverse: create index "event_shop_id_created_at" to table: "events"
DROP INDEX `event_shop_id_created_at`;
-- reverse: create index "events_event_id_key" to table: "events"
DROP INDEX `events_event_id_key`;
-- reverse: set sequence for "events" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "events";
-- reverse: create "events" table
DROP TABLE `events`;
-- reverse: create index "discountcode_shop_id_code" to table: "discount_codes"
DROP INDEX `discountcode_shop_id_code`;
-- reverse: set sequence for "discount_codes" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "discount_codes";
-- reverse: create "discount_codes" table
DROP TABLE `discount_codes`;
-- reverse: create index "order_status_updated_at" to table: "orders"
DROP INDEX `order_status_updated_at`;
-- reverse: add column "tax_basis" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `tax_basis`;
-- reverse: add column "discount_codes" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `discount_codes`;
-- reverse: create index "shops_identifier_key" to table: "shops"
DROP INDEX `shops_identifier_key`;
-- reverse: set sequence for "new_shops" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_shops";
-- reverse: create "new_shops" table
DROP TABLE `new_shops`;
