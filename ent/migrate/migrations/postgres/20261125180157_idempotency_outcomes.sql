-- +goose Up
-- the answers kept so far were HTTP bytes, which nothing reads now: their repeats resume from the ledger
DELETE FROM "idempotency_keys" WHERE "status" = 'done';
-- modify "idempotency_keys" table
ALTER TABLE "idempotency_keys" DROP COLUMN "response_status", DROP COLUMN "response_body", ADD COLUMN "result" text NULL, ADD COLUMN "problem" text NULL;

-- +goose Down
-- reverse: modify "idempotency_keys" table
ALTER TABLE "idempotency_keys" DROP COLUMN "problem", DROP COLUMN "result", ADD COLUMN "response_body" bytea NULL, ADD COLUMN "response_status" bigint NOT NULL DEFAULT 0;
