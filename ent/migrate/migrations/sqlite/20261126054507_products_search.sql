-- +goose Up
-- create index "product_search" to table: "products"
CREATE INDEX `product_search` ON `products` (`title`);

-- +goose Down
-- reverse: create index "product_search" to table: "products"
DROP INDEX `product_search`;
