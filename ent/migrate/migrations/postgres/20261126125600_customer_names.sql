-- Written by hand: ent does not declare triggers. customer_names is the lexicon of the customer
-- search (service/customers/search.go): every first name (kind 'first') and last name (kind
-- 'last') customers have had, once, kept by the trigger below. customer_name_trigrams holds
-- each of its names under every three characters of the name in lower case (kept by the
-- trigger on customer_names): the names sharing a trigram with a word of a search are read from
-- its primary key alone (an index-only scan, where a trigram index would have PostgreSQL read
-- every candidate's row to check it), and their customers then come from the B-tree indexes
-- customer_by_first_name and customer_live_by_last_name. Names are only added: a name no
-- customer has any more finds no one. The NOT EXISTS spares the sequence a number for each
-- name already there.
-- +goose Up
CREATE TABLE customer_names (id bigserial PRIMARY KEY, kind character varying NOT NULL, name character varying NOT NULL, UNIQUE (name, kind));
CREATE TABLE customer_name_trigrams (trigram character varying NOT NULL, kind character varying NOT NULL, name character varying NOT NULL, PRIMARY KEY (trigram, kind, name));
-- +goose StatementBegin
CREATE FUNCTION customer_names_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_names (kind, name)
    SELECT v.k, v.n FROM (VALUES ('first', NEW.first_name), ('last', NEW.last_name)) AS v (k, n)
    WHERE v.n <> '' AND NOT EXISTS (SELECT 1 FROM customer_names c WHERE c.name = v.n AND c.kind = v.k)
    ON CONFLICT (name, kind) DO NOTHING;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE FUNCTION customer_name_trigrams_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_name_trigrams (trigram, kind, name)
    SELECT DISTINCT substr(lower(NEW.name), i, 3), NEW.kind, NEW.name FROM generate_series(1, char_length(NEW.name) - 2) AS i
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER customer_names_add AFTER INSERT OR UPDATE OF first_name, last_name ON customers
  FOR EACH ROW EXECUTE FUNCTION customer_names_add();
CREATE TRIGGER customer_name_trigrams_add AFTER INSERT ON customer_names
  FOR EACH ROW EXECUTE FUNCTION customer_name_trigrams_add();
INSERT INTO customer_names (kind, name) SELECT k, n FROM (SELECT 'first' AS k, first_name AS n FROM customers UNION SELECT 'last', last_name FROM customers) AS v WHERE n <> '' ORDER BY n, k;

-- +goose Down
DROP TRIGGER customer_name_trigrams_add ON customer_names;
DROP TRIGGER customer_names_add ON customers;
DROP FUNCTION customer_name_trigrams_add();
DROP FUNCTION customer_names_add();
DROP TABLE customer_name_trigrams;
DROP TABLE customer_names;
