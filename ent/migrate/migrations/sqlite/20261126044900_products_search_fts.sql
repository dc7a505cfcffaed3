-- Written by hand: ent does not declare virtual tables or triggers. product_search_fts is the
-- product list's name search index on SQLite (filtercolumn=name): FTS5's trigram tokenizer over
-- products' titles (an external-content table: it keeps only the index, the text stays in
-- products), kept in step by the triggers below. A later migration that rebuilds products
-- (SQLite's way to alter a table) drops these triggers with the old table: it must create them
-- again (TestProductSearchIndexFollowsEveryChange fails otherwise).
-- +goose Up
CREATE VIRTUAL TABLE `product_search_fts` USING fts5(`title`, content='products', content_rowid='id', tokenize='trigram');
-- +goose StatementBegin
CREATE TRIGGER `product_search_fts_insert` AFTER INSERT ON `products` BEGIN
  INSERT INTO `product_search_fts` (rowid, `title`) VALUES (new.`id`, new.`title`);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `product_search_fts_delete` AFTER DELETE ON `products` BEGIN
  INSERT INTO `product_search_fts` (`product_search_fts`, rowid, `title`) VALUES ('delete', old.`id`, old.`title`);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER `product_search_fts_update` AFTER UPDATE OF `title` ON `products` BEGIN
  INSERT INTO `product_search_fts` (`product_search_fts`, rowid, `title`) VALUES ('delete', old.`id`, old.`title`);
  INSERT INTO `product_search_fts` (rowid, `title`) VALUES (new.`id`, new.`title`);
END;
-- +goose StatementEnd
INSERT INTO `product_search_fts` (`product_search_fts`) VALUES ('rebuild');

-- +goose Down
DROP TRIGGER `product_search_fts_update`;
DROP TRIGGER `product_search_fts_delete`;
DROP TRIGGER `product_search_fts_insert`;
DROP TABLE `product_search_fts`;
