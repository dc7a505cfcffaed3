-- +goose Up
-- add column "rsa_lease_holder" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `rsa_lease_holder` text NULL;
-- add column "rsa_lease_expires_at" to table: "orders"
ALTER TABLE `orders` ADD COLUMN `rsa_lease_expires_at` datetime NULL;

-- +goose Down
-- reverse: add column "rsa_lease_expires_at" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `rsa_lease_expires_at`;
-- reverse: add column "rsa_lease_holder" to table: "orders"
ALTER TABLE `orders` DROP COLUMN `rsa_lease_holder`;
