-- +goose Up
-- An order's RSA hold moved onto the order's row (orders.rsa_lease_holder, rsa_lease_expires_at).
DROP TABLE IF EXISTS `rsa_order_leases`;

-- +goose Down
-- The holds of the moment are not carried back: a table of none is what they start from.
CREATE TABLE `rsa_order_leases` (`id` integer NOT NULL PRIMARY KEY AUTOINCREMENT, `order_id` bigint NOT NULL, `holder` text NOT NULL, `expires_at` datetime NOT NULL);
CREATE UNIQUE INDEX `rsa_order_leases_order_id_key` ON `rsa_order_leases` (`order_id`);
