-- Written by hand: ent does not declare triggers. The customer search now reads the names
-- alike from each process's copy of customer_names in memory, on PostgreSQL as on SQLite
-- (service/customers/lexicon.go): customer_name_trigrams, its copy by trigram, and the trigger
-- that kept it are no longer read.
-- +goose Up
DROP TRIGGER customer_name_trigrams_add ON customer_names;
DROP FUNCTION customer_name_trigrams_add();
DROP TABLE customer_name_trigrams;

-- +goose Down
CREATE TABLE customer_name_trigrams (trigram character varying NOT NULL, kind character varying NOT NULL, name character varying NOT NULL, PRIMARY KEY (trigram, kind, name));
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
CREATE TRIGGER customer_name_trigrams_add AFTER INSERT ON customer_names
  FOR EACH ROW EXECUTE FUNCTION customer_name_trigrams_add();
INSERT INTO customer_name_trigrams (trigram, kind, name)
  SELECT DISTINCT substr(lower(c.name), i, 3), c.kind, c.name FROM customer_names AS c, generate_series(1, char_length(c.name) - 2) AS i
  ON CONFLICT DO NOTHING;
