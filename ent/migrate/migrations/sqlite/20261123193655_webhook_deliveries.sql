-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_webhook_subscriptions" table
CREATE TABLE `new_webhook_subscriptions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `webhook_topic_id` integer NOT NULL, `callback_url` text NOT NULL, `consecutive_failed_deliveries` integer NOT NULL DEFAULT (0), `unhealthy_since` datetime NULL, `last_delivered_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `webhook_subscriptions_shops_webhook_subscriptions` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "new_webhook_subscriptions" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_webhook_subscriptions", 38654705664);
-- copy rows from old table "webhook_subscriptions" to new temporary table "new_webhook_subscriptions"
INSERT INTO `new_webhook_subscriptions` (`id`, `created_at`, `updated_at`, `webhook_topic_id`, `callback_url`, `shop_id`) SELECT `id`, `created_at`, `updated_at`, `webhook_topic_id`, `callback_url`, `shop_id` FROM `webhook_subscriptions`;
-- drop "webhook_subscriptions" table after copying rows
DROP TABLE `webhook_subscriptions`;
-- rename temporary table "new_webhook_subscriptions" to "webhook_subscriptions"
ALTER TABLE `new_webhook_subscriptions` RENAME TO `webhook_subscriptions`;
-- create "new_shops" table
CREATE TABLE `new_shops` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `identifier` text NOT NULL, `name` text NOT NULL DEFAULT (''), `domain` text NOT NULL DEFAULT (''), `platform_type` text NOT NULL DEFAULT ('custom'), `currency` text NOT NULL DEFAULT ('USD'), `shared_secret` text NULL, `jwt_key` blob NOT NULL, `prices_include_tax` bool NOT NULL DEFAULT (false), `abandoned_cart_emails` bool NOT NULL DEFAULT (false), `gift_cards_enabled` bool NOT NULL DEFAULT (false));
-- set sequence for "new_shops" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_shops", 34359738368);
-- copy rows from old table "shops" to new temporary table "new_shops"
INSERT INTO `new_shops` (`id`, `created_at`, `updated_at`, `identifier`, `name`, `domain`, `platform_type`, `currency`, `shared_secret`, `jwt_key`, `prices_include_tax`) SELECT `id`, `created_at`, `updated_at`, `identifier`, `name`, `domain`, `platform_type`, `currency`, `shared_secret`, `jwt_key`, `prices_include_tax` FROM `shops`;
-- drop "shops" table after copying rows
DROP TABLE `shops`;
-- rename temporary table "new_shops" to "shops"
ALTER TABLE `new_shops` RENAME TO `shops`;
-- create index "shops_identifier_key" to table: "shops"
CREATE UNIQUE INDEX `shops_identifier_key` ON `shops` (`identifier`);
-- create "new_orders" table
CREATE TABLE `new_orders` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_order_id` text NOT NULL, `status` text NOT NULL DEFAULT ('open'), `currency` text NOT NULL, `flow_id` text NOT NULL DEFAULT (''), `resumable_link` text NOT NULL DEFAULT (''), `created_via` text NOT NULL DEFAULT ('checkout'), `platform_order_id` text NOT NULL DEFAULT (''), `meta_data` json NOT NULL, `customer` json NULL, `shipping_address` json NULL, `billing_address` json NULL, `selected_shipping` json NULL, `discount_codes` json NULL, `tax_basis` json NULL, `version` integer NOT NULL DEFAULT (1), `processed_at` datetime NULL, `reserved` bool NOT NULL DEFAULT (false), `redeemed_discount_codes` json NULL, `last_activity_at` datetime NULL, `abandoned_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `orders_shops_orders` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "new_orders" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_orders", 47244640256);
-- copy rows from old table "orders" to new temporary table "new_orders"
INSERT INTO `new_orders` (`id`, `created_at`, `updated_at`, `public_order_id`, `status`, `currency`, `flow_id`, `resumable_link`, `created_via`, `platform_order_id`, `meta_data`, `customer`, `shipping_address`, `billing_address`, `selected_shipping`, `discount_codes`, `tax_basis`, `version`, `processed_at`, `reserved`, `redeemed_discount_codes`, `shop_id`) SELECT `id`, `created_at`, `updated_at`, `public_order_id`, `status`, `currency`, `flow_id`, `resumable_link`, `created_via`, `platform_order_id`, `meta_data`, `customer`, `shipping_address`, `billing_address`, `selected_shipping`, `discount_codes`, `tax_basis`, `version`, `processed_at`, `reserved`, `redeemed_discount_codes`, `shop_id` FROM `orders`;
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
-- create index "order_status_last_activity_at" to table: "orders"
CREATE INDEX `order_status_last_activity_at` ON `orders` (`status`, `last_activity_at`);
-- create "webhook_attempts" table
CREATE TABLE `webhook_attempts` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `attempted_at` datetime NOT NULL, `status_code` integer NULL, `latency_ms` integer NOT NULL, `response_body` text NOT NULL DEFAULT (''), `error` text NULL, `replay` bool NOT NULL DEFAULT (false), `delivery_id` integer NOT NULL, CONSTRAINT `webhook_attempts_webhook_deliveries_attempts` FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries` (`id`) ON DELETE CASCADE);
-- set sequence for "webhook_attempts" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("webhook_attempts", 94489280512);
-- create index "webhookattempt_delivery_id_attempted_at" to table: "webhook_attempts"
CREATE INDEX `webhookattempt_delivery_id_attempted_at` ON `webhook_attempts` (`delivery_id`, `attempted_at`);
-- create "webhook_deliveries" table
CREATE TABLE `webhook_deliveries` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `order_id` integer NULL, `topic` text NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `attempt_count` integer NOT NULL DEFAULT (0), `round_attempts` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NULL, `last_status_code` integer NULL, `last_error` text NULL, `delivered_at` datetime NULL, `failed_at` datetime NULL, `event_id` integer NOT NULL, `shop_id` integer NOT NULL, `subscription_id` integer NOT NULL, CONSTRAINT `webhook_deliveries_events_deliveries` FOREIGN KEY (`event_id`) REFERENCES `events` (`id`) ON DELETE CASCADE, CONSTRAINT `webhook_deliveries_shops_webhook_deliveries` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE, CONSTRAINT `webhook_deliveries_webhook_subscriptions_deliveries` FOREIGN KEY (`subscription_id`) REFERENCES `webhook_subscriptions` (`id`) ON DELETE CASCADE);
-- set sequence for "webhook_deliveries" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("webhook_deliveries", 98784247808);
-- create index "webhookdelivery_shop_id_created_at" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_shop_id_created_at` ON `webhook_deliveries` (`shop_id`, `created_at`);
-- create index "webhookdelivery_order_id_status" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_order_id_status` ON `webhook_deliveries` (`order_id`, `status`);
-- create index "webhookdelivery_event_id" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_event_id` ON `webhook_deliveries` (`event_id`);
-- create index "webhookdelivery_status" to table: "webhook_deliveries"
CREATE INDEX `webhookdelivery_status` ON `webhook_deliveries` (`status`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "webhookdelivery_status" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_status`;
-- reverse: create index "webhookdelivery_event_id" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_event_id`;
-- reverse: create index "webhookdelivery_order_id_status" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_order_id_status`;
-- reverse: create index "webhookdelivery_shop_id_created_at" to table: "webhook_deliveries"
DROP INDEX `webhookdelivery_shop_id_created_at`;
-- reverse: set sequence for "webhook_deliveries" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "webhook_deliveries";
-- reverse: create "webhook_deliveries" table
DROP TABLE `webhook_deliveries`;
-- reverse: create index "webhookattempt_delivery_id_attempted_at" to table: "webhook_attempts"
DROP INDEX `webhookattempt_delivery_id_attempted_at`;
-- reverse: set sequence for "webhook_attempts" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "webhook_attempts";
-- reverse: create "webhook_attempts" table
DROP TABLE `webhook_attempts`;
-- reverse: create index "order_status_last_activity_at" to table: "orders"
DROP INDEX `order_status_last_activity_at`;
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
-- reverse: create index "shops_identifier_key" to table: "shops"
DROP INDEX `shops_identifier_key`;
-- reverse: set sequence for "new_shops" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_shops";
-- reverse: create "new_shops" table
DROP TABLE `new_shops`;
-- reverse: set sequence for "new_webhook_subscriptions" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_webhook_subscriptions";
-- reverse: create "new_webhook_subscriptions" table
DROP TABLE `new_webhook_subscriptions`;
