-- +goose Up
-- create index "paymenttransaction_payment_id" to table: "payment_transactions"
CREATE INDEX `paymenttransaction_payment_id` ON `payment_transactions` (`payment_id`);

-- +goose Down
-- reverse: create index "paymenttransaction_payment_id" to table: "payment_transactions"
DROP INDEX `paymenttransaction_payment_id`;
