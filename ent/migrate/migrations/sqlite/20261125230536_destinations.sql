-- +goose Up
-- create "destinations" table
CREATE TABLE `destinations` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `topic` text NOT NULL, `destination` text NOT NULL, `version` text NOT NULL DEFAULT ('v1'), `timeout_ms` integer NOT NULL, `deleted_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `destinations_shops_destinations` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "destinations" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("destinations", 107374182400);
-- create index "destination_shop_id_topic" to table: "destinations"
CREATE UNIQUE INDEX `destination_shop_id_topic` ON `destinations` (`shop_id`, `topic`) WHERE deleted_at IS NULL;

-- +goose Down
-- reverse: create index "destination_shop_id_topic" to table: "destinations"
DROP INDEX `destination_shop_id_topic`;
-- reverse: set sequence for "destinations" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "destinations";
-- reverse: create "destinations" table
DROP TABLE `destinations`;
