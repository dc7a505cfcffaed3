-- Written by hand: ent does not declare extensions. pg_trgm gives the GIN trigram index of the
-- customer search (customer_search, the next migration) and its % operator. It is created in
-- schema public, which the search_path must reach (the default "$user", public does). Processes
-- migrating separate schemas of one database create it once: the lock makes a second creator
-- wait for the first to commit, then find it there.
-- +goose Up
SELECT pg_advisory_xact_lock(hashtext('checkoutd pg_trgm'));
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- +goose Down
-- The extension stays: other schemas of the database may use it.
SELECT 1;
