-- +goose Up
-- drop index "order_status_updated_at" from table: "orders"
DROP INDEX `order_status_updated_at`;

-- +goose Down
-- reverse: drop index "order_status_updated_at" from table: "orders"
CREATE INDEX `order_status_updated_at` ON `orders` (`status`, `updated_at`);
