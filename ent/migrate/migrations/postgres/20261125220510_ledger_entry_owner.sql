-- +goose Up
-- modify "payment_transactions" table
ALTER TABLE "payment_transactions" ADD COLUMN "owner" character varying NOT NULL DEFAULT '';

-- +goose Down
-- reverse: modify "payment_transactions" table
ALTER TABLE "payment_transactions" DROP COLUMN "owner";
