-- Written by hand: ent does not declare triggers. customer_names is the lexicon of the customer
-- search (service/customers/search.go): every first name (kind 'first') and last name (kind
-- 'last') customers have had, once, kept by the triggers below; checkoutd keeps a copy of it in memory by trigram, which gives the
-- names spelt like a word of a search, whose customers the B-tree indexes
-- customer_by_first_name and customer_live_by_last_name then give. Names are only added (a name no
-- customer has any more finds no one), each with the next id, which is how the copy finds the
-- new ones. A later migration that rebuilds customers (SQLite's way to alter a table) drops the
-- triggers with the old table: it must create them again (TestCustomerSearchIndexFollowsEveryChange
-- fails otherwise).
-- +goose Up
CREATE TABLE `customer_names` (`id` integer NOT NULL PRIMARY KEY, `kind` text NOT NULL, `name` text NOT NULL, UNIQUE (`name`, `kind`));
-- +goose StatementBegin
CREATE TRIGGER `customer_names_insert` AFTER INSERT ON `customers` BEGIN
  INSERT OR IGNORE INTO `customer_names` (`kind`, `name`) SELECT 'first', new.`first_name` WHERE new.`first_name` <> '' UNION ALL SELECT 'last', new.`last_name` WHERE new.`last_name` <> '';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `customer_names_update` AFTER UPDATE OF `first_name`, `last_name` ON `customers` BEGIN
  INSERT OR IGNORE INTO `customer_names` (`kind`, `name`) SELECT 'first', new.`first_name` WHERE new.`first_name` <> '' UNION ALL SELECT 'last', new.`last_name` WHERE new.`last_name` <> '';
END;
-- +goose StatementEnd
INSERT OR IGNORE INTO `customer_names` (`kind`, `name`) SELECT 'first', `first_name` FROM `customers` WHERE `first_name` <> '' UNION SELECT 'last', `last_name` FROM `customers` WHERE `last_name` <> '';

-- +goose Down
DROP TRIGGER `customer_names_update`;
DROP TRIGGER `customer_names_insert`;
DROP TABLE `customer_names`;
