-- +goose Up
-- drop index "customer_by_first_name" from table: "customers"
DROP INDEX "customer_by_first_name";
-- create index "customer_deleted_by_first_name" to table: "customers"
CREATE INDEX "customer_deleted_by_first_name" ON "customers" ("shop_id", "first_name", "last_name") WHERE (platform_deleted_at IS NOT NULL);
-- create index "customer_live_by_first_name" to table: "customers"
CREATE INDEX "customer_live_by_first_name" ON "customers" ("shop_id", "first_name", "last_name") WHERE (platform_deleted_at IS NULL);

-- +goose Down
-- reverse: create index "customer_live_by_first_name" to table: "customers"
DROP INDEX "customer_live_by_first_name";
-- reverse: create index "customer_deleted_by_first_name" to table: "customers"
DROP INDEX "customer_deleted_by_first_name";
-- reverse: drop index "customer_by_first_name" from table: "customers"
CREATE INDEX "customer_by_first_name" ON "customers" ("shop_id", "first_name", "last_name");
