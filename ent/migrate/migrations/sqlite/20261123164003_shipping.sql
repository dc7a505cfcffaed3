-- +goose Up
-- add column "selected_shipping" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `selected_shipping` json NULL;
-- create "shipping_rates" table
CREATE TABLE `shipping_rates` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `code` text NOT NULL, `kind` text NOT NULL DEFAULT ('flat'), `amount` integer NOT NULL, `min` integer NOT NULL DEFAULT (0), `max` integer NOT NULL DEFAULT (0), `free_above` integer NOT NULL DEFAULT (0), `zone_id` integer NOT NULL, CONSTRAINT `shipping_rates_shipping_zones_rates` FOREIGN KEY (`zone_id`) REFERENCES `shipping_zones` (`id`) ON DELETE CASCADE);
-- set sequence for "shipping_rates" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("shipping_rates", 60129542144);
-- create "shipping_zones" table
CREATE TABLE `shipping_zones` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `name` text NOT NULL, `country_codes` json NULL, `shop_id` integer NOT NULL, CONSTRAINT `shipping_zones_shops_shipping_zones` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "shipping_zones" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("shipping_zones", 64424509440);

-- +goose Down
-- reverse: set sequence for "shipping_zones" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "shipping_zones";
-- reverse: create "shipping_zones" table
DROP TABLE `shipping_zones`;
-- reverse: set sequence for "shipping_rates" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "shipping_rates";
-- reverse: create "shipping_rates" table
DROP TABLE `shipping_rates`;
-- reverse: add column "selected_shipping" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `selected_shipping`;
