-- +goose Up
-- create "connector_attempts" table
CREATE TABLE `connector_attempts` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `attempted_at` datetime NOT NULL, `status_code` integer NULL, `latency_ms` integer NOT NULL, `response_body` text NOT NULL DEFAULT (''), `error` text NULL, `replay` bool NOT NULL DEFAULT (false), `call_id` integer NOT NULL, CONSTRAINT `connector_attempts_connector_calls_attempts` FOREIGN KEY (`call_id`) REFERENCES `connector_calls` (`id`) ON DELETE CASCADE);
-- set sequence for "connector_attempts" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("connector_attempts", 111669149696);
-- create index "connectorattempt_call_id" to table: "connector_attempts"
CREATE INDEX `connectorattempt_call_id` ON `connector_attempts` (`call_id`);
-- create "connector_calls" table
CREATE TABLE `connector_calls` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `destination_id` integer NOT NULL, `order_id` integer NULL, `topic` text NOT NULL, `operation` text NOT NULL, `method` text NOT NULL, `path` text NOT NULL, `idempotency_key` text NOT NULL, `request_body` text NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `attempt_count` integer NOT NULL DEFAULT (0), `round_attempts` integer NOT NULL DEFAULT (0), `next_attempt_at` datetime NULL, `last_status_code` integer NULL, `last_error` text NULL, `response_body` text NOT NULL DEFAULT (''), `succeeded_at` datetime NULL, `failed_at` datetime NULL, `shop_id` integer NOT NULL, CONSTRAINT `connector_calls_shops_connector_calls` FOREIGN KEY (`shop_id`) REFERENCES `shops` (`id`) ON DELETE CASCADE);
-- set sequence for "connector_calls" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("connector_calls", 115964116992);
-- create index "connectorcall_shop_id_created_at" to table: "connector_calls"
CREATE INDEX `connectorcall_shop_id_created_at` ON `connector_calls` (`shop_id`, `created_at`);
-- create index "connectorcall_order_id" to table: "connector_calls"
CREATE INDEX `connectorcall_order_id` ON `connector_calls` (`order_id`);
-- create index "connectorcall_status" to table: "connector_calls"
CREATE INDEX `connectorcall_status` ON `connector_calls` (`status`);

-- +goose Down
-- reverse: create index "connectorcall_status" to table: "connector_calls"
DROP INDEX `connectorcall_status`;
-- reverse: create index "connectorcall_order_id" to table: "connector_calls"
DROP INDEX `connectorcall_order_id`;
-- reverse: create index "connectorcall_shop_id_created_at" to table: "connector_calls"
DROP INDEX `connectorcall_shop_id_created_at`;
-- reverse: set sequence for "connector_calls" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "connector_calls";
-- reverse: create "connector_calls" table
DROP TABLE `connector_calls`;
-- reverse: create index "connectorattempt_call_id" to table: "connector_attempts"
DROP INDEX `connectorattempt_call_id`;
-- reverse: set sequence for "connector_attempts" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "connector_attempts";
-- reverse: create "connector_attempts" table
DROP TABLE `connector_attempts`;
