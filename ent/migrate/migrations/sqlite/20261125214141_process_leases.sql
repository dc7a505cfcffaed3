-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_idempotency_keys" table
CREATE TABLE `new_idempotency_keys` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `key` text NOT NULL, `request_hash` text NOT NULL, `status` text NOT NULL DEFAULT ('running'), `result` text NULL, `problem` text NULL, `created_at` datetime NOT NULL, `expires_at` datetime NOT NULL, `owner` text NOT NULL DEFAULT (''), `shop_id` integer NOT NULL, CONSTRAINT `idempotency_keys_shops_idempotency_keys` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "new_idempotency_keys" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_idempotency_keys", 90194313216);
-- copy rows from old table "idempotency_keys" to new temporary table "new_idempotency_keys"
INSERT INTO `new_idempotency_keys` (`id`, `key`, `request_hash`, `status`, `result`, `problem`, `created_at`, `expires_at`, `shop_id`) SELECT `id`, `key`, `request_hash`, `status`, `result`, `problem`, `created_at`, `expires_at`, `shop_id` FROM `idempotency_keys`;
-- drop "idempotency_keys" table after copying rows
DROP TABLE `idempotency_keys`;
-- rename temporary table "new_idempotency_keys" to "idempotency_keys"
ALTER TABLE `new_idempotency_keys` RENAME TO `idempotency_keys`;
-- create index "idempotencykey_shop_id_key" to table: "idempotency_keys"
CREATE UNIQUE INDEX `idempotencykey_shop_id_key` ON `idempotency_keys` (`shop_id`, `key`);
-- create index "idempotencykey_expires_at" to table: "idempotency_keys"
CREATE INDEX `idempotencykey_expires_at` ON `idempotency_keys` (`expires_at`);
-- create "process_leases" table
CREATE TABLE `process_leases` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `process` text NOT NULL, `renewed_at` datetime NOT NULL);
-- set sequence for "process_leases" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("process_leases", 103079215104);
-- create index "process_leases_process_key" to table: "process_leases"
CREATE UNIQUE INDEX `process_leases_process_key` ON `process_leases` (`process`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "process_leases_process_key" to table: "process_leases"
DROP INDEX `process_leases_process_key`;
-- reverse: set sequence for "process_leases" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "process_leases";
-- reverse: create "process_leases" table
DROP TABLE `process_leases`;
-- reverse: create index "idempotencykey_expires_at" to table: "idempotency_keys"
DROP INDEX `idempotencykey_expires_at`;
-- reverse: create index "idempotencykey_shop_id_key" to table: "idempotency_keys"
DROP INDEX `idempotencykey_shop_id_key`;
-- reverse: set sequence for "new_idempotency_keys" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_idempotency_keys";
-- reverse: create "new_idempotency_keys" table
DROP TABLE `new_idempotency_keys`;
