-- +goose Up
-- create "admin_sessions" table
CREATE TABLE `admin_sessions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `token_hash` text NOT NULL, `csrf_token` text NOT NULL, `created_at` datetime NOT NULL, `last_seen_at` datetime NOT NULL, `flash` text NOT NULL DEFAULT (''), `shop_id` integer NOT NULL, CONSTRAINT `admin_sessions_shops_admin_sessions` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "admin_sessions" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("admin_sessions", 146028888064);
-- create index "admin_sessions_token_hash_key" to table: "admin_sessions"
CREATE UNIQUE INDEX `admin_sessions_token_hash_key` ON `admin_sessions` (`token_hash`);

-- +goose Down
-- reverse: create index "admin_sessions_token_hash_key" to table: "admin_sessions"
DROP INDEX `admin_sessions_token_hash_key`;
-- reverse: set sequence for "admin_sessions" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "admin_sessions";
-- reverse: create "admin_sessions" table
DROP TABLE `admin_sessions`;
