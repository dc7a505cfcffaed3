-- +goose Up
-- create index "customer_by_first_name" to table: "customers"
CREATE INDEX `customer_by_first_name` ON `customers` (`shop_id`, `first_name`, `last_name`);
-- create index "customer_deleted_by_last_name" to table: "customers"
CREATE INDEX `customer_deleted_by_last_name` ON `customers` (`shop_id`, `last_name`) WHERE platform_deleted_at IS NOT NULL;

-- +goose Down
-- reverse: create index "customer_deleted_by_last_name" to table: "customers"
DROP INDEX `customer_deleted_by_last_name`;
-- reverse: create index "customer_by_first_name" to table: "customers"
DROP INDEX `customer_by_first_name`;
