-- Written by hand: ent does not declare triggers. customer_names is the lexicon of the customer
-- search (service/customers/search.go): every first name (kind 'first') and last name (kind
-- 'last') customers have had, once, kept by the trigger below; its GIN trigram index gives the names sharing a trigram with a
-- word of a search (lower(name) LIKE '%joh%': the trigrams of ILIKE, and a cheaper check of each
-- candidate), whose customers the B-tree indexes customer_by_first_name and
-- customer_live_by_last_name then give. Names are only added: a name no customer has any more finds
-- no one. The NOT EXISTS spares the sequence a number for each name already there. The index
-- is built after the names there are copied, and without GIN's pending list (fastupdate), which
-- every search would read whole: new names are few once a shop's customers are in.
-- +goose Up
CREATE TABLE customer_names (id bigserial PRIMARY KEY, kind character varying NOT NULL, name character varying NOT NULL, UNIQUE (name, kind));
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
CREATE TRIGGER customer_names_add AFTER INSERT OR UPDATE OF first_name, last_name ON customers
  FOR EACH ROW EXECUTE FUNCTION customer_names_add();
INSERT INTO customer_names (kind, name) SELECT k, n FROM (SELECT 'first' AS k, first_name AS n FROM customers UNION SELECT 'last', last_name FROM customers) AS v WHERE n <> '' ORDER BY n, k;
CREATE INDEX customer_names_trigrams ON customer_names USING gin (lower(name) gin_trgm_ops) WITH (fastupdate = off);

-- +goose Down
DROP TRIGGER customer_names_add ON customers;
DROP FUNCTION customer_names_add();
DROP TABLE customer_names;
