-- +goose Up
-- drop index "platformsync_shop_id_topic" from table: "platform_syncs"
DROP INDEX "platformsync_shop_id_topic";
-- modify "platform_syncs" table
ALTER TABLE "platform_syncs" ADD COLUMN "running" boolean NULL;
-- create index "platformsync_shop_id_topic_running" to table: "platform_syncs"
CREATE UNIQUE INDEX "platformsync_shop_id_topic_running" ON "platform_syncs" ("shop_id", "topic", "running");

-- +goose Down
-- reverse: create index "platformsync_shop_id_topic_running" to table: "platform_syncs"
DROP INDEX "platformsync_shop_id_topic_running";
-- reverse: modify "platform_syncs" table
ALTER TABLE "platform_syncs" DROP COLUMN "running";
-- reverse: drop index "platformsync_shop_id_topic" from table: "platform_syncs"
CREATE UNIQUE INDEX "platformsync_shop_id_topic" ON "platform_syncs" ("shop_id", "topic") WHERE ((status)::text = 'running'::text);
