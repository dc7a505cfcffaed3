-- +goose Up
-- modify "line_items" table
ALTER TABLE "line_items" ADD COLUMN "restocked_quantity" bigint NOT NULL DEFAULT 0;

-- +goose Down
-- reverse: modify "line_items" table
ALTER TABLE "line_items" DROP COLUMN "restocked_quantity";
