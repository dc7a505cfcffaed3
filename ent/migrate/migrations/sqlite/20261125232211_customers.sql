-- +goose Up
-- create "customers" table
CREATE TABLE `customers` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `platform_id` text NOT NULL, `first_name` text NOT NULL DEFAULT (''), `last_name` text NOT NULL DEFAULT (''), `email` text NOT NULL DEFAULT (''), `phone` text NOT NULL DEFAULT (''), `platform_created_at` datetime NULL, `platform_updated_at` datetime NOT NULL, `platform_deleted_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `customers_shops_customers` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "customers" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("customers", 120259084288);
-- create index "customer_shop_id_platform_id" to table: "customers"
CREATE UNIQUE INDEX `customer_shop_id_platform_id` ON `customers` (`shop_id`, `platform_id`);
-- create index "customer_shop_id_updated_at" to table: "customers"
CREATE INDEX `customer_shop_id_updated_at` ON `customers` (`shop_id`, `updated_at`);
-- create "customer_addresses" table
CREATE TABLE `customer_addresses` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `platform_id` text NOT NULL, `address_type` text NOT NULL DEFAULT (''), `address_use` text NOT NULL DEFAULT (''), `is_default` bool NOT NULL DEFAULT (false), `company` text NOT NULL DEFAULT (''), `first_name` text NOT NULL DEFAULT (''), `last_name` text NOT NULL DEFAULT (''), `phone` text NOT NULL DEFAULT (''), `street_1` text NOT NULL DEFAULT (''), `street_2` text NOT NULL DEFAULT (''), `city` text NOT NULL DEFAULT (''), `province` text NOT NULL DEFAULT (''), `province_code` text NOT NULL DEFAULT (''), `country` text NOT NULL DEFAULT (''), `country_code` text NOT NULL DEFAULT (''), `postal_code` text NOT NULL DEFAULT (''), `customer_id` integer NOT NULL, CONSTRAINT `customer_addresses_customers_addresses` FOREIGN KEY (`customer_id`) REFERENCES `customers` (`id`) ON DELETE CASCADE);
-- set sequence for "customer_addresses" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("customer_addresses", 124554051584);
-- create index "customeraddress_customer_id_platform_id" to table: "customer_addresses"
CREATE UNIQUE INDEX `customeraddress_customer_id_platform_id` ON `customer_addresses` (`customer_id`, `platform_id`);

-- +goose Down
-- reverse: create index "customeraddress_customer_id_platform_id" to table: "customer_addresses"
DROP INDEX `customeraddress_customer_id_platform_id`;
-- reverse: set sequence for "customer_addresses" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "customer_addresses";
-- reverse: create "customer_addresses" table
DROP TABLE `customer_addresses`;
-- reverse: create index "customer_shop_id_updated_at" to table: "customers"
DROP INDEX `customer_shop_id_updated_at`;
-- reverse: create index "customer_shop_id_platform_id" to table: "customers"
DROP INDEX `customer_shop_id_platform_id`;
-- reverse: set sequence for "customers" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "customers";
-- reverse: create "customers" table
DROP TABLE `customers`;
