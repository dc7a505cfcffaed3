-- +goose Up
-- create "api_overrides" table
CREATE TABLE `api_overrides` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_id` text NOT NULL, `override_type` text NOT NULL, `url` text NOT NULL, `shared_secret` text NOT NULL, `shop_id` integer NOT NULL, CONSTRAINT `api_overrides_shops_api_overrides` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- create index "api_overrides_public_id_key" to table: "api_overrides"
CREATE UNIQUE INDEX `api_overrides_public_id_key` ON `api_overrides` (`public_id`);
-- create "access_tokens" table
CREATE TABLE `access_tokens` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `token_hash` text NOT NULL, `shop_id` integer NOT NULL, CONSTRAINT `access_tokens_shops_access_tokens` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "access_tokens" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("access_tokens", 4294967296);
-- create index "access_tokens_token_hash_key" to table: "access_tokens"
CREATE UNIQUE INDEX `access_tokens_token_hash_key` ON `access_tokens` (`token_hash`);
-- create "cors_domains" table
CREATE TABLE `cors_domains` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `domain` text NOT NULL, `shop_id` integer NOT NULL, CONSTRAINT `cors_domains_shops_cors_domains` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "cors_domains" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("cors_domains", 8589934592);
-- create index "corsdomain_shop_id_domain" to table: "cors_domains"
CREATE UNIQUE INDEX `corsdomain_shop_id_domain` ON `cors_domains` (`shop_id`, `domain`);
-- create "external_payment_gateways" table
CREATE TABLE `external_payment_gateways` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_id` text NOT NULL, `name` text NOT NULL, `base_url` text NOT NULL, `iframe_url` text NULL, `location` text NOT NULL DEFAULT (''), `http_headers` json NULL, `api_token` text NULL, `partial_capture` bool NOT NULL, `additional_order_details` bool NOT NULL, `provider_id` text NOT NULL, `currency` text NOT NULL, `is_test` bool NOT NULL DEFAULT (false), `shop_id` integer NOT NULL, CONSTRAINT `external_payment_gateways_shops_external_payment_gateways` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "external_payment_gateways" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("external_payment_gateways", 12884901888);
-- create index "external_payment_gateways_public_id_key" to table: "external_payment_gateways"
CREATE UNIQUE INDEX `external_payment_gateways_public_id_key` ON `external_payment_gateways` (`public_id`);
-- create "flows" table
CREATE TABLE `flows` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `flow_id` text NOT NULL, `flow_name` text NOT NULL, `flow_type` text NOT NULL DEFAULT ('custom'), `enabled` bool NOT NULL DEFAULT (false), `shop_id` integer NOT NULL, CONSTRAINT `flows_shops_flows` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "flows" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("flows", 17179869184);
-- create index "flow_shop_id_flow_id" to table: "flows"
CREATE UNIQUE INDEX `flow_shop_id_flow_id` ON `flows` (`shop_id`, `flow_id`);
-- create "gift_cards" table
CREATE TABLE `gift_cards` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_payment_method_id` text NOT NULL, `card_token` text NOT NULL, `pin_hash` text NOT NULL, `currency` text NOT NULL, `amount` integer NOT NULL, `balance` integer NOT NULL, `recipient_name` text NOT NULL DEFAULT (''), `message` text NOT NULL DEFAULT (''), `expiry_date` datetime NULL, `customer_name` text NOT NULL DEFAULT (''), `customer_email` text NOT NULL DEFAULT (''), `shop_id` integer NOT NULL, CONSTRAINT `gift_cards_shops_gift_cards` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "gift_cards" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("gift_cards", 21474836480);
-- create index "gift_cards_public_payment_method_id_key" to table: "gift_cards"
CREATE UNIQUE INDEX `gift_cards_public_payment_method_id_key` ON `gift_cards` (`public_payment_method_id`);
-- create index "giftcard_shop_id_card_token" to table: "gift_cards"
CREATE UNIQUE INDEX `giftcard_shop_id_card_token` ON `gift_cards` (`shop_id`, `card_token`);
-- create "life_elements" table
CREATE TABLE `life_elements` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `public_id` text NOT NULL, `location` text NOT NULL, `input_type` text NOT NULL, `input_default` text NULL, `input_label` text NULL, `input_placeholder` text NULL, `input_required` bool NULL, `input_regex` text NULL, `meta_data_field` text NOT NULL, `order_asc` integer NOT NULL, `shop_id` integer NOT NULL, CONSTRAINT `life_elements_shops_life_elements` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "life_elements" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("life_elements", 25769803776);
-- create index "life_elements_public_id_key" to table: "life_elements"
CREATE UNIQUE INDEX `life_elements_public_id_key` ON `life_elements` (`public_id`);
-- create "rsa_configs" table
CREATE TABLE `rsa_configs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `url` text NOT NULL, `shared_secret` text NOT NULL, `shop_id` integer NOT NULL, CONSTRAINT `rsa_configs_shops_rsa_config` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "rsa_configs" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("rsa_configs", 30064771072);
-- create index "rsa_configs_shop_id_key" to table: "rsa_configs"
CREATE UNIQUE INDEX `rsa_configs_shop_id_key` ON `rsa_configs` (`shop_id`);
-- create "shops" table
CREATE TABLE `shops` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `identifier` text NOT NULL, `name` text NOT NULL DEFAULT (''), `domain` text NOT NULL DEFAULT (''), `platform_type` text NOT NULL DEFAULT ('custom'), `currency` text NOT NULL DEFAULT ('USD'), `shared_secret` text NULL, `jwt_key` blob NOT NULL);
-- set sequence for "shops" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("shops", 34359738368);
-- create index "shops_identifier_key" to table: "shops"
CREATE UNIQUE INDEX `shops_identifier_key` ON `shops` (`identifier`);
-- create "webhook_subscriptions" table
CREATE TABLE `webhook_subscriptions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `webhook_topic_id` integer NOT NULL, `callback_url` text NOT NULL, `shop_id` integer NOT NULL, CONSTRAINT `webhook_subscriptions_shops_webhook_subscriptions` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "webhook_subscriptions" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("webhook_subscriptions", 38654705664);

-- +goose Down
-- reverse: set sequence for "webhook_subscriptions" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "webhook_subscriptions";
-- reverse: create "webhook_subscriptions" table
DROP TABLE `webhook_subscriptions`;
-- reverse: create index "shops_identifier_key" to table: "shops"
DROP INDEX `shops_identifier_key`;
-- reverse: set sequence for "shops" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "shops";
-- reverse: create "shops" table
DROP TABLE `shops`;
-- reverse: create index "rsa_configs_shop_id_key" to table: "rsa_configs"
DROP INDEX `rsa_configs_shop_id_key`;
-- reverse: set sequence for "rsa_configs" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "rsa_configs";
-- reverse: create "rsa_configs" table
DROP TABLE `rsa_configs`;
-- reverse: create index "life_elements_public_id_key" to table: "life_elements"
DROP INDEX `life_elements_public_id_key`;
-- reverse: set sequence for "life_elements" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "life_elements";
-- reverse: create "life_elements" table
DROP TABLE `life_elements`;
-- reverse: create index "giftcard_shop_id_card_token" to table: "gift_cards"
DROP INDEX `giftcard_shop_id_card_token`;
-- reverse: create index "gift_cards_public_payment_method_id_key" to table: "gift_cards"
DROP INDEX `gift_cards_public_payment_method_id_key`;
-- reverse: set sequence for "gift_cards" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "gift_cards";
-- reverse: create "gift_cards" table
DROP TABLE `gift_cards`;
-- reverse: create index "flow_shop_id_flow_id" to table: "flows"
DROP INDEX `flow_shop_id_flow_id`;
-- reverse: set sequence for "flows" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "flows";
-- reverse: create "flows" table
DROP TABLE `flows`;
-- reverse: create index "external_payment_gateways_public_id_key" to table: "external_payment_gateways"
DROP INDEX `external_payment_gateways_public_id_key`;
-- reverse: set sequence for "external_payment_gateways" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "external_payment_gateways";
-- reverse: create "external_payment_gateways" table
DROP TABLE `external_payment_gateways`;
-- reverse: create index "corsdomain_shop_id_domain" to table: "cors_domains"
DROP INDEX `corsdomain_shop_id_domain`;
-- reverse: set sequence for "cors_domains" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "cors_domains";
-- reverse: create "cors_domains" table
DROP TABLE `cors_domains`;
-- reverse: create index "access_tokens_token_hash_key" to table: "access_tokens"
DROP INDEX `access_tokens_token_hash_key`;
-- reverse: set sequence for "access_tokens" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "access_tokens";
-- reverse: create "access_tokens" table
DROP TABLE `access_tokens`;
-- reverse: create index "api_overrides_public_id_key" to table: "api_overrides"
DROP INDEX `api_overrides_public_id_key`;
-- reverse: create "api_overrides" table
DROP TABLE `api_overrides`;
