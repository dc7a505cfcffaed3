-- Written by hand: ent does not declare virtual tables or triggers. customer_names is the lexicon
-- of the customer search (service/customers/search.go): every first and last name customers
-- have had, once, kept by the triggers below; customer_names_fts is its FTS5 trigram index,
-- which gives the names sharing a trigram with a word of a search, whose customers the B-tree
-- indexes customer_by_first_name and customer_by_last_name then give. Names are only added: a
-- name no customer has any more finds no one. A later migration that rebuilds customers
-- (SQLite's way to alter a table) drops the triggers on customers with the old table: it must
-- create them again (TestCustomerSearchIndexFollowsEveryChange fails otherwise).
-- +goose Up
CREATE TABLE `customer_names` (`id` integer NOT NULL PRIMARY KEY, `name` text NOT NULL UNIQUE);
CREATE VIRTUAL TABLE `customer_names_fts` USING fts5(`name`, content='customer_names', content_rowid='id', tokenize='trigram');
-- +goose StatementBegin
CREATE TRIGGER `customer_names_fts_insert` AFTER INSERT ON `customer_names` BEGIN
  INSERT INTO `customer_names_fts` (rowid, `name`) VALUES (new.`id`, new.`name`);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `customer_names_insert` AFTER INSERT ON `customers` BEGIN
  INSERT OR IGNORE INTO `customer_names` (`name`) SELECT new.`first_name` WHERE new.`first_name` <> '' UNION ALL SELECT new.`last_name` WHERE new.`last_name` <> '';
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `customer_names_update` AFTER UPDATE OF `first_name`, `last_name` ON `customers` BEGIN
  INSERT OR IGNORE INTO `customer_names` (`name`) SELECT new.`first_name` WHERE new.`first_name` <> '' UNION ALL SELECT new.`last_name` WHERE new.`last_name` <> '';
END;
-- +goose StatementEnd
INSERT OR IGNORE INTO `customer_names` (`name`) SELECT `first_name` FROM `customers` WHERE `first_name` <> '' UNION SELECT `last_name` FROM `customers` WHERE `last_name` <> '';

-- +goose Down
DROP TRIGGER `customer_names_update`;
DROP TRIGGER `customer_names_insert`;
DROP TRIGGER `customer_names_fts_insert`;
DROP TABLE `customer_names_fts`;
DROP TABLE `customer_names`;
