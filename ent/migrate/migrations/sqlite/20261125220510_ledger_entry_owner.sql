-- +goose Up
-- disable the enforcement of foreign-keys constraints
PRAGMA foreign_keys = off;
-- create "new_payment_transactions" table
CREATE TABLE `new_payment_transactions` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `created_at` datetime NOT NULL, `updated_at` datetime NOT NULL, `shop_id` integer NOT NULL, `public_id` text NOT NULL, `kind` text NOT NULL, `status` text NOT NULL DEFAULT ('pending'), `amount` integer NOT NULL, `currency` text NOT NULL, `gateway_transaction_id` text NOT NULL DEFAULT (''), `reference_transaction_id` text NOT NULL DEFAULT (''), `error_code` text NOT NULL DEFAULT (''), `owner` text NOT NULL DEFAULT (''), `error_message` text NOT NULL DEFAULT (''), `latency_ms` integer NOT NULL DEFAULT (0), `operation_key` text NOT NULL DEFAULT (''), `data` json NULL, `settled_at` datetime NULL, `order_id` integer NOT NULL, `payment_id` integer NOT NULL, CONSTRAINT `payment_transactions_orders_transactions` FOREIGN KEY (`order_id`) REFERENCES `orders` (`id`) ON DELETE CASCADE, CONSTRAINT `payment_transactions_order_payments_transactions` FOREIGN KEY (`payment_id`) REFERENCES `order_payments` (`id`) ON DELETE CASCADE);
-- set sequence for "new_payment_transactions" table
INSERT INTO sqlite_sequence (name, seq) VALUES ("new_payment_transactions", 81604378624);
-- copy rows from old table "payment_transactions" to new temporary table "new_payment_transactions"
INSERT INTO `new_payment_transactions` (`id`, `created_at`, `updated_at`, `shop_id`, `public_id`, `kind`, `status`, `amount`, `currency`, `gateway_transaction_id`, `reference_transaction_id`, `error_code`, `error_message`, `latency_ms`, `operation_key`, `data`, `settled_at`, `order_id`, `payment_id`) SELECT `id`, `created_at`, `updated_at`, `shop_id`, `public_id`, `kind`, `status`, `amount`, `currency`, `gateway_transaction_id`, `reference_transaction_id`, `error_code`, `error_message`, `latency_ms`, `operation_key`, `data`, `settled_at`, `order_id`, `payment_id` FROM `payment_transactions`;
-- drop "payment_transactions" table after copying rows
DROP TABLE `payment_transactions`;
-- rename temporary table "new_payment_transactions" to "payment_transactions"
ALTER TABLE `new_payment_transactions` RENAME TO `payment_transactions`;
-- create index "payment_transactions_public_id_key" to table: "payment_transactions"
CREATE UNIQUE INDEX `payment_transactions_public_id_key` ON `payment_transactions` (`public_id`);
-- create index "paymenttransaction_order_id_created_at" to table: "payment_transactions"
CREATE INDEX `paymenttransaction_order_id_created_at` ON `payment_transactions` (`order_id`, `created_at`);
-- create index "paymenttransaction_status" to table: "payment_transactions"
CREATE INDEX `paymenttransaction_status` ON `payment_transactions` (`status`);
-- create index "paymenttransaction_order_id_operation_key" to table: "payment_transactions"
CREATE INDEX `paymenttransaction_order_id_operation_key` ON `payment_transactions` (`order_id`, `operation_key`);
-- create index "paymenttransaction_payment_id" to table: "payment_transactions"
CREATE INDEX `paymenttransaction_payment_id` ON `payment_transactions` (`payment_id`);
-- enable back the enforcement of foreign-keys constraints
PRAGMA foreign_keys = on;

-- +goose Down
-- reverse: create index "paymenttransaction_payment_id" to table: "payment_transactions"
DROP INDEX `paymenttransaction_payment_id`;
-- reverse: create index "paymenttransaction_order_id_operation_key" to table: "payment_transactions"
DROP INDEX `paymenttransaction_order_id_operation_key`;
-- reverse: create index "paymenttransaction_status" to table: "payment_transactions"
DROP INDEX `paymenttransaction_status`;
-- reverse: create index "paymenttransaction_order_id_created_at" to table: "payment_transactions"
DROP INDEX `paymenttransaction_order_id_created_at`;
-- reverse: create index "payment_transactions_public_id_key" to table: "payment_transactions"
DROP INDEX `payment_transactions_public_id_key`;
-- reverse: set sequence for "new_payment_transactions" table
UPDATE sqlite_sequence SET seq = 0 WHERE name = "new_payment_transactions";
-- reverse: create "new_payment_transactions" table
DROP TABLE `new_payment_transactions`;
