-- +goose Up
-- create index "product_search" to table: "products"
CREATE INDEX "product_search" ON "products" USING gin ("title" gin_trgm_ops);

-- +goose Down
-- reverse: create index "product_search" to table: "products"
DROP INDEX "product_search";
