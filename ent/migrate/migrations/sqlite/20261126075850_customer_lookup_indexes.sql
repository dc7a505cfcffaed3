-- +goose Up
-- create index "customer_live_by_last_name" to table: "customers"
CREATE INDEX `customer_live_by_last_name` ON `customers` (`shop_id`, `last_name`, `id`) WHERE platform_deleted_at IS NULL;
-- create index "customer_live_by_email" to table: "customers"
CREATE INDEX `customer_live_by_email` ON `customers` (`shop_id`, `email`, `id`) WHERE platform_deleted_at IS NULL;

-- +goose Down
-- reverse: create index "customer_live_by_email" to table: "customers"
DROP INDEX `customer_live_by_email`;
-- reverse: create index "customer_live_by_last_name" to table: "customers"
DROP INDEX `customer_live_by_last_name`;
