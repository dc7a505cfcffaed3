-- +goose Up
-- create "remote_exchanges" table
CREATE TABLE `remote_exchanges` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `shop_id` integer NOT NULL, `kind` text NOT NULL, `call` text NOT NULL, `public_order_id` text NOT NULL DEFAULT (''), `url` text NOT NULL, `at` datetime NOT NULL, `request_body` text NOT NULL DEFAULT (''), `request_size` integer NOT NULL DEFAULT (0), `status_code` integer NULL, `response_body` text NOT NULL DEFAULT (''), `response_size` integer NOT NULL DEFAULT (0), `latency_ms` integer NOT NULL, `outcome` text NOT NULL, `error` text NULL);
-- set sequence for "remote_exchanges" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("remote_exchanges", 158913789952);
-- create index "remoteexchange_shop_id_at" to table: "remote_exchanges"
CREATE INDEX `remoteexchange_shop_id_at` ON `remote_exchanges` (`shop_id`, `at`);
-- create index "remoteexchange_shop_id_public_order_id" to table: "remote_exchanges"
CREATE INDEX `remoteexchange_shop_id_public_order_id` ON `remote_exchanges` (`shop_id`, `public_order_id`);

-- +goose Down
-- reverse: create index "remoteexchange_shop_id_public_order_id" to table: "remote_exchanges"
DROP INDEX `remoteexchange_shop_id_public_order_id`;
-- reverse: create index "remoteexchange_shop_id_at" to table: "remote_exchanges"
DROP INDEX `remoteexchange_shop_id_at`;
-- reverse: set sequence for "remote_exchanges" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "remote_exchanges";
-- reverse: create "remote_exchanges" table
DROP TABLE `remote_exchanges`;
