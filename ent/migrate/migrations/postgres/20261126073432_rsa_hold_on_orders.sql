-- +goose Up
-- modify "orders" table
ALTER TABLE "orders" ADD COLUMN "rsa_lease_holder" character varying NULL, ADD COLUMN "rsa_lease_expires_at" timestamptz NULL;

-- +goose Down
-- reverse: modify "orders" table
ALTER TABLE "orders" DROP COLUMN "rsa_lease_expires_at", DROP COLUMN "rsa_lease_holder";
