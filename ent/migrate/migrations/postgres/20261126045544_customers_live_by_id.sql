-- +goose Up
-- create index "customer_live_by_id" to table: "customers"
CREATE INDEX "customer_live_by_id" ON "customers" ("shop_id", "id") WHERE (platform_deleted_at IS NULL);

-- +goose Down
-- reverse: create index "customer_live_by_id" to table: "customers"
DROP INDEX "customer_live_by_id";
