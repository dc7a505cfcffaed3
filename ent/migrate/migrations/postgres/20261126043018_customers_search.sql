-- +goose Up
-- create index "customer_search" to table: "customers"
CREATE INDEX "customer_search" ON "customers" USING gin ("first_name" gin_trgm_ops, "last_name" gin_trgm_ops, "email" gin_trgm_ops, "phone" gin_trgm_ops);

-- +goose Down
-- reverse: create index "customer_search" to table: "customers"
DROP INDEX "customer_search";
