-- +goose Up
-- modify "shops" table
ALTER TABLE "shops" ADD COLUMN "verify_payments_only" boolean NOT NULL DEFAULT false;

-- +goose Down
-- reverse: modify "shops" table
ALTER TABLE "shops" DROP COLUMN "verify_payments_only";
