-- +goose Up
-- add column "rsa_state" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `rsa_state` blob NULL;
-- create "rsa_order_leases" table
CREATE TABLE `rsa_order_leases` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `order_id` integer NOT NULL, `holder` text NOT NULL, `expires_at` datetime NOT NULL);
-- set sequence for "rsa_order_leases" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("rsa_order_leases", 154618822656);
-- create index "rsa_order_leases_order_id_key" to table: "rsa_order_leases"
CREATE UNIQUE INDEX `rsa_order_leases_order_id_key` ON `rsa_order_leases` (`order_id`);

-- +goose Down
-- reverse: create index "rsa_order_leases_order_id_key" to table: "rsa_order_leases"
DROP INDEX `rsa_order_leases_order_id_key`;
-- reverse: set sequence for "rsa_order_leases" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "rsa_order_leases";
-- reverse: create "rsa_order_leases" table
DROP TABLE `rsa_order_leases`;
-- reverse: add column "rsa_state" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `rsa_state`;
