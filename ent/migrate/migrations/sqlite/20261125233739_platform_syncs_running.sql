-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_platform_syncs" table
CREATE TABLE `new_platform_syncs` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `topic` text NOT NULL, `status` text NOT NULL DEFAULT ('running'), `running` bool NULL, `cursor` text NOT NULL DEFAULT (''), `pages` integer NOT NULL DEFAULT (0), `rows` integer NOT NULL DEFAULT (0), `errors` integer NOT NULL DEFAULT (0), `last_error` text NULL, `finished_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `platform_syncs_shops_platform_syncs` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "new_platform_syncs" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_platform_syncs", 128849018880);
-- copy rows from old table "platform_syncs" to new temporary table "new_platform_syncs"
INSERT INTO `new_platform_syncs` (`id`, `created_at`, `updated_at`, `topic`, `status`, `cursor`, `pages`, `rows`, `errors`, `last_error`, `finished_at`, `shop_id`) SELECT `id`, `created_at`, `updated_at`, `topic`, `status`, `cursor`, `pages`, `rows`, `errors`, `last_error`, `finished_at`, `shop_id` FROM `platform_syncs`;
-- drop "platform_syncs" table after copying rows
DROP TABLE `platform_syncs`;
-- rename temporary table "new_platform_syncs" to "platform_syncs"
ALTER TABLE `new_platform_syncs` RENAME TO `platform_syncs`;
-- create index "platformsync_shop_id_topic_running" to table: "platform_syncs"
CREATE UNIQUE INDEX `platformsync_shop_id_topic_running` ON `platform_syncs` (`shop_id`, `topic`, `running`);
-- create index "platformsync_shop_id_created_at" to table: "platform_syncs"
CREATE INDEX `platformsync_shop_id_created_at` ON `platform_syncs` (`shop_id`, `created_at`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "platformsync_shop_id_created_at" to table: "platform_syncs"
DROP INDEX `platformsync_shop_id_created_at`;
-- reverse: create index "platformsync_shop_id_topic_running" to table: "platform_syncs"
DROP INDEX `platformsync_shop_id_topic_running`;
-- reverse: set sequence for "new_platform_syncs" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_platform_syncs";
-- reverse: create "new_platform_syncs" table
DROP TABLE `new_platform_syncs`;
