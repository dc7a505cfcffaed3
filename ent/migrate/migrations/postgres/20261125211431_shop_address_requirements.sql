-- +goose Up
-- modify "shops" table
ALTER TABLE "shops" ADD COLUMN "require_business_name" boolean NOT NULL DEFAULT false, ADD COLUMN "require_phone_number" boolean NOT NULL DEFAULT false;

-- +goose Down
-- reverse: modify "shops" table
ALTER TABLE "shops" DROP COLUMN "require_phone_number", DROP COLUMN "require_business_name";
