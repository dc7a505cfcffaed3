-- +goose Up
-- create "platform_syncs" table
CREATE TABLE `platform_syncs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `topic` text NOT NULL, `status` text NOT NULL DEFAULT ('running'), `cursor` text NOT NULL DEFAULT (''), `pages` integer NOT NULL DEFAULT (0), `rows` integer NOT NULL DEFAULT (0), `errors` integer NOT NULL DEFAULT (0), `last_error` text NULL, `finished_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `platform_syncs_shops_platform_syncs` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "platform_syncs" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("platform_syncs", 128849018880);
-- create index "platformsync_shop_id_topic" to table: "platform_syncs"
CREATE UNIQUE INDEX `platformsync_shop_id_topic` ON `platform_syncs` (`shop_id`, `topic`) WHERE status = 'running';
-- create index "platformsync_shop_id_created_at" to table: "platform_syncs"
CREATE INDEX `platformsync_shop_id_created_at` ON `platform_syncs` (`shop_id`, `created_at`);

-- +goose Down
-- reverse: create index "platformsync_shop_id_created_at" to table: "platform_syncs"
DROP INDEX `platformsync_shop_id_created_at`;
-- reverse: create index "platformsync_shop_id_topic" to table: "platform_syncs"
DROP INDEX `platformsync_shop_id_topic`;
-- reverse: set sequence for "platform_syncs" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "platform_syncs";
-- reverse: create "platform_syncs" table
DROP TABLE `platform_syncs`;
