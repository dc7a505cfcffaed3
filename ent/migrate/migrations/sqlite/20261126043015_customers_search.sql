-- +goose Up
-- create index "customer_search" to table: "customers"
CREATE INDEX `customer_search` ON `customers` (`first_name`, `last_name`, `email`, `phone`);

-- +goose Down
-- reverse: create index "customer_search" to table: "customers"
DROP INDEX `customer_search`;
