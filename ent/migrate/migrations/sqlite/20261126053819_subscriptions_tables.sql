-- +goose Up
-- create "subscriptions" table
CREATE TABLE `subscriptions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `customer_id` integer NULL, `customer_platform_id` text NOT NULL DEFAULT (''), `customer_first_name` text NOT NULL DEFAULT (''), `customer_last_name` text NOT NULL DEFAULT (''), `customer_phone` text NOT NULL DEFAULT (''), `customer_email` text NOT NULL DEFAULT (''), `customer_notes` text NOT NULL DEFAULT (''), `external_id` text NOT NULL DEFAULT (''), `idempotency_key` text NULL, `note` text NOT NULL DEFAULT (''), `order_note` text NOT NULL DEFAULT (''), `discount_code` text NOT NULL DEFAULT (''), `subscription_status` text NOT NULL DEFAULT ('active'), `next_order_datetime` datetime NULL, `next_payment_datetime` datetime NULL, `next_processing_datetime` datetime NULL, `status_changed_at` datetime NULL, `last_payment_datetime` datetime NULL, `last_order_datetime` datetime NULL, `last_processed_datetime` datetime NULL, `placed_at` datetime NULL, `payment_method_token` text NOT NULL DEFAULT (''), `payment_gateway_public_id` text NOT NULL DEFAULT (''), `payment_details` json NULL, `payment_rrule` text NOT NULL DEFAULT (''), `order_rrule` text NOT NULL, `order_rrule_start` datetime NOT NULL, `payment_rrule_text` text NOT NULL DEFAULT (''), `order_rrule_text` text NOT NULL DEFAULT (''), `current_retries` integer NOT NULL DEFAULT (0), `orders_processed` integer NOT NULL DEFAULT (0), `order_count` integer NOT NULL DEFAULT (0), `percent_discount` integer NOT NULL DEFAULT (0), `charged_currency` text NOT NULL, `base_currency` text NOT NULL, `base_to_charged_exchange_rate` real NOT NULL DEFAULT (1), `shipping_lines` json NULL, `last_failure_code` text NOT NULL DEFAULT (''), `last_failure_reason` text NOT NULL DEFAULT (''), `last_failure_details` json NULL, `retry_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `subscriptions_shops_subscriptions` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "subscriptions" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("subscriptions", 163208757248);
-- create index "subscription_shop_id_idempotency_key" to table: "subscriptions"
CREATE UNIQUE INDEX `subscription_shop_id_idempotency_key` ON `subscriptions` (`shop_id`, `idempotency_key`);
-- create index "subscription_shop_id_id" to table: "subscriptions"
CREATE INDEX `subscription_shop_id_id` ON `subscriptions` (`shop_id`, `id`);
-- create index "subscription_subscription_status_next_order_datetime" to table: "subscriptions"
CREATE INDEX `subscription_subscription_status_next_order_datetime` ON `subscriptions` (`subscription_status`, `next_order_datetime`);
-- create "subscription_addresses" table
CREATE TABLE `subscription_addresses` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `kind` text NOT NULL, `platform_id` text NOT NULL DEFAULT (''), `platform_type` text NOT NULL DEFAULT (''), `platform_customer_id` text NOT NULL DEFAULT (''), `first_name` text NOT NULL DEFAULT (''), `last_name` text NOT NULL DEFAULT (''), `company` text NOT NULL DEFAULT (''), `phone` text NOT NULL DEFAULT (''), `street1` text NOT NULL DEFAULT (''), `street2` text NOT NULL DEFAULT (''), `city` text NOT NULL DEFAULT (''), `province` text NOT NULL DEFAULT (''), `province_code` text NOT NULL DEFAULT (''), `country` text NOT NULL DEFAULT (''), `country_code` text NOT NULL DEFAULT (''), `zip` text NOT NULL DEFAULT (''), `is_default` bool NOT NULL DEFAULT (false), `address_use` text NOT NULL DEFAULT (''), `address_source` text NOT NULL DEFAULT (''), `subscription_id` integer NOT NULL, CONSTRAINT `subscription_addresses_subscriptions_addresses` FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions` (`id`) ON DELETE CASCADE);
-- set sequence for "subscription_addresses" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("subscription_addresses", 167503724544);
-- create index "subscriptionaddress_subscription_id_kind" to table: "subscription_addresses"
CREATE UNIQUE INDEX `subscriptionaddress_subscription_id_kind` ON `subscription_addresses` (`subscription_id`, `kind`);
-- create "subscription_line_items" table
CREATE TABLE `subscription_line_items` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `position` integer NOT NULL DEFAULT (0), `platform_id` text NOT NULL DEFAULT (''), `platform_product_id` text NOT NULL DEFAULT (''), `platform_variant_id` text NOT NULL, `subscription_group_id` integer NULL, `subscription_group_billing_rules_id` integer NULL, `title` text NOT NULL DEFAULT (''), `product_name` text NOT NULL DEFAULT (''), `variant_name` text NOT NULL DEFAULT (''), `sku` text NOT NULL DEFAULT (''), `image` text NOT NULL DEFAULT (''), `quantity` integer NOT NULL, `price` integer NOT NULL, `price_charged` integer NOT NULL, `discounted_price` integer NOT NULL, `discounted_price_charged` integer NOT NULL, `full_price` integer NOT NULL, `full_price_charged` integer NOT NULL, `requires_shipping` bool NOT NULL DEFAULT (true), `taxable` bool NOT NULL DEFAULT (true), `grams` integer NOT NULL DEFAULT (0), `weight` real NOT NULL DEFAULT (0), `weight_unit` text NOT NULL DEFAULT (''), `discounts` json NULL, `prepaid_metadata` json NULL, `line_item_attributes` json NULL, `subscription_id` integer NOT NULL, CONSTRAINT `subscription_line_items_subscriptions_line_items` FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions` (`id`) ON DELETE CASCADE);
-- set sequence for "subscription_line_items" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("subscription_line_items", 171798691840);
-- create "subscription_placements" table
CREATE TABLE `subscription_placements` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `due_at` datetime NOT NULL, `order_id` integer NULL, `public_order_id` text NOT NULL DEFAULT (''), `status` text NOT NULL DEFAULT ('placing'), `attempts` integer NOT NULL DEFAULT (0), `subscription_id` integer NOT NULL, CONSTRAINT `subscription_placements_subscriptions_placements` FOREIGN KEY (`subscription_id`) REFERENCES `subscriptions` (`id`) ON DELETE CASCADE);
-- set sequence for "subscription_placements" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("subscription_placements", 176093659136);
-- create index "subscriptionplacement_subscription_id_due_at" to table: "subscription_placements"
CREATE UNIQUE INDEX `subscriptionplacement_subscription_id_due_at` ON `subscription_placements` (`subscription_id`, `due_at`);

-- +goose Down
-- reverse: create index "subscriptionplacement_subscription_id_due_at" to table: "subscription_placements"
DROP INDEX `subscriptionplacement_subscription_id_due_at`;
-- reverse: set sequence for "subscription_placements" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "subscription_placements";
-- reverse: create "subscription_placements" table
DROP TABLE `subscription_placements`;
-- reverse: set sequence for "subscription_line_items" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "subscription_line_items";
-- reverse: create "subscription_line_items" table
DROP TABLE `subscription_line_items`;
-- reverse: create index "subscriptionaddress_subscription_id_kind" to table: "subscription_addresses"
DROP INDEX `subscriptionaddress_subscription_id_kind`;
-- reverse: set sequence for "subscription_addresses" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "subscription_addresses";
-- reverse: create "subscription_addresses" table
DROP TABLE `subscription_addresses`;
-- reverse: create index "subscription_subscription_status_next_order_datetime" to table: "subscriptions"
DROP INDEX `subscription_subscription_status_next_order_datetime`;
-- reverse: create index "subscription_shop_id_id" to table: "subscriptions"
DROP INDEX `subscription_shop_id_id`;
-- reverse: create index "subscription_shop_id_idempotency_key" to table: "subscriptions"
DROP INDEX `subscription_shop_id_idempotency_key`;
-- reverse: set sequence for "subscriptions" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "subscriptions";
-- reverse: create "subscriptions" table
DROP TABLE `subscriptions`;
