-- Written by hand: ent does not declare virtual tables or triggers. customer_search_fts is the
-- customer search's index on SQLite: FTS5's trigram tokenizer over the searched columns of
-- customers (an external-content table: it keeps only the index, the text stays in customers),
-- kept in step by the triggers below. A later migration that rebuilds customers (SQLite's way
-- to alter a table) drops these triggers with the old table: it must create them again
-- (TestCustomerSearchIndexFollowsEveryChange fails otherwise).
-- +goose Up
CREATE VIRTUAL TABLE `customer_search_fts` USING fts5(`first_name`, `last_name`, `email`, `phone`, content='customers', content_rowid='id', tokenize='trigram');
-- +goose StatementBegin
CREATE TRIGGER `customer_search_fts_insert` AFTER INSERT ON `customers` BEGIN
  INSERT INTO `customer_search_fts` (rowid, `first_name`, `last_name`, `email`, `phone`) VALUES (new.`id`, new.`first_name`, new.`last_name`, new.`email`, new.`phone`);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `customer_search_fts_delete` AFTER DELETE ON `customers` BEGIN
  INSERT INTO `customer_search_fts` (`customer_search_fts`, rowid, `first_name`, `last_name`, `email`, `phone`) VALUES ('delete', old.`id`, old.`first_name`, old.`last_name`, old.`email`, old.`phone`);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `customer_search_fts_update` AFTER UPDATE OF `first_name`, `last_name`, `email`, `phone` ON `customers` BEGIN
  INSERT INTO `customer_search_fts` (`customer_search_fts`, rowid, `first_name`, `last_name`, `email`, `phone`) VALUES ('delete', old.`id`, old.`first_name`, old.`last_name`, old.`email`, old.`phone`);
  INSERT INTO `customer_search_fts` (rowid, `first_name`, `last_name`, `email`, `phone`) VALUES (new.`id`, new.`first_name`, new.`last_name`, new.`email`, new.`phone`);
END;
-- +goose StatementEnd
INSERT INTO `customer_search_fts` (`customer_search_fts`) VALUES ('rebuild');

-- +goose Down
DROP TRIGGER `customer_search_fts_update`;
DROP TRIGGER `customer_search_fts_delete`;
DROP TRIGGER `customer_search_fts_insert`;
DROP TABLE `customer_search_fts`;
