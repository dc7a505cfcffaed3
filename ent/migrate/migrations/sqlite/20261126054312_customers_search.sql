-- +goose Up
-- create index "customer_live_by_id" to table: "customers"
CREATE INDEX `customer_live_by_id` ON `customers` (`shop_id`, `id`) WHERE platform_deleted_at IS NULL;
-- create index "customer_search" to table: "customers"
CREATE INDEX `customer_search` ON `customers` (`first_name`, `last_name`, `email`, `phone`);

-- +goose Down
-- reverse: create index "customer_search" to table: "customers"
DROP INDEX `customer_search`;
-- reverse: create index "customer_live_by_id" to table: "customers"
DROP INDEX `customer_live_by_id`;
