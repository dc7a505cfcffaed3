package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/ent/idempotencykey"
	"github.com/checkoutd/checkoutd/ent/webhookdelivery"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// retentionFixture writes, for one shop, a finished and a pending webhook delivery and
// connector call made at each of the given times, and an idempotency record made at each.
func retentionFixture(t *testing.T, svc *service.Service, sh *ent.Shop, made ...time.Time) {
	t.Helper()
	ctx := context.Background()
	c := svc.Client()
	sub := c.WebhookSubscription.Create().SetShopID(sh.ID).SetWebhookTopicID(1).SetCallbackURL("https://example.com/hook").SaveX(ctx)
	dest := c.Destination.Create().SetShopID(sh.ID).SetTopic("orders").SetDestination("https://example.com/connector").SetTimeoutMs(5000).SaveX(ctx)
	for i, at := range made {
		ev := c.Event.Create().SetShopID(sh.ID).SetEventID(platform.NewPublicID()).SetTopic("order/created").SetPayload(map[string]any{}).SetCreatedAt(at).SaveX(ctx)
		for _, status := range []webhookdelivery.Status{webhookdelivery.StatusSucceeded, webhookdelivery.StatusPending} {
			d := c.WebhookDelivery.Create().SetShopID(sh.ID).SetSubscriptionID(sub.ID).SetEventID(ev.ID).SetTopic("order/created").
				SetStatus(status).SetCreatedAt(at).SaveX(ctx)
			c.WebhookAttempt.Create().SetDeliveryID(d.ID).SetAttemptedAt(at).SetLatencyMs(1).SaveX(ctx)
		}
		for _, status := range []connectorcall.Status{connectorcall.StatusFailed, connectorcall.StatusPending} {
			call := c.ConnectorCall.Create().SetShopID(sh.ID).SetDestinationID(dest.ID).SetTopic("orders").SetOperation("create_order").
				SetMethod("POST").SetPath("/orders").SetIdempotencyKey(platform.NewPublicID()).SetRequestBody("{}").SetStatus(status).SetCreatedAt(at).SaveX(ctx)
			c.ConnectorAttempt.Create().SetCallID(call.ID).SetAttemptedAt(at).SetLatencyMs(1).SaveX(ctx)
		}
		c.IdempotencyKey.Create().SetShopID(sh.ID).SetKey("key-" + at.Format(time.RFC3339Nano) + string(rune('a'+i))).SetRequestHash("h").
			SetStatus(idempotencykey.StatusDone).SetCreatedAt(at).SetExpiresAt(at.Add(24 * time.Hour)).SaveX(ctx)
	}
}

func TestRetentionDeletesFinishedRecordsOlderThanTheyAreKeptAndKeepsPendingOnes(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		now := time.Now()
		svc := service.New(db, service.WithClock(func() time.Time { return now }))
		sh := newShop(t, svc)
		old, recent := now.Add(-31*24*time.Hour), now.Add(-time.Hour)
		retentionFixture(t, svc, sh, old, old.Add(time.Minute), recent)
		deleted, err := svc.PruneOldRecords(context.Background(), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if deleted["webhook_deliveries"] != 2 || deleted["connector_calls"] != 2 || deleted["idempotency_records"] != 2 {
			t.Fatalf("deleted %v, want the two old finished deliveries and calls and the two old records", deleted)
		}
		ctx := context.Background()
		c := svc.Client()
		// Left: the old pending ones, and every recent one, each with its attempt.
		if n := c.WebhookDelivery.Query().CountX(ctx); n != 4 {
			t.Fatalf("%d deliveries left, want 4", n)
		}
		if n := c.WebhookAttempt.Query().CountX(ctx); n != 4 {
			t.Fatalf("%d delivery attempts left, want 4", n)
		}
		if n := c.ConnectorCall.Query().CountX(ctx); n != 4 {
			t.Fatalf("%d connector calls left, want 4", n)
		}
		if n := c.ConnectorAttempt.Query().CountX(ctx); n != 4 {
			t.Fatalf("%d connector attempts left, want 4", n)
		}
		if n := c.IdempotencyKey.Query().CountX(ctx); n != 1 {
			t.Fatalf("%d idempotency records left, want 1", n)
		}
	})
}

func TestRetentionIsConfiguredPerKindOfRecordWithinItsMinimum(t *testing.T) {
	t.Parallel()
	svc := service.New(servicetest.SQLite(t))
	if err := svc.SetRetention("idempotency_records", time.Hour); err == nil {
		t.Fatal("an idempotency record kept for less than the 24 hours it replays was accepted")
	}
	if err := svc.SetRetention("no_such_records", time.Hour); err == nil {
		t.Fatal("a setting for no kind of record was accepted")
	}
	if err := svc.SetRetention("webhook_deliveries", 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	kept := map[string]time.Duration{}
	for _, r := range svc.RetentionRules() {
		kept[r.Name] = r.Keep
	}
	if kept["webhook_deliveries"] != 2*time.Hour || kept["connector_calls"] != 30*24*time.Hour || kept["idempotency_records"] != 48*time.Hour {
		t.Fatalf("kept %v", kept)
	}
}

func TestRetentionDeletesABacklogBatchAfterBatch(t *testing.T) {
	t.Parallel()
	db := servicetest.SQLite(t)
	now := time.Now()
	svc := service.New(db, service.WithClock(func() time.Time { return now }))
	sh := newShop(t, svc)
	ctx := context.Background()
	c := svc.Client()
	sub := c.WebhookSubscription.Create().SetShopID(sh.ID).SetWebhookTopicID(1).SetCallbackURL("https://example.com/hook").SaveX(ctx)
	ev := c.Event.Create().SetShopID(sh.ID).SetEventID("ev").SetTopic("order/created").SetPayload(map[string]any{}).SetCreatedAt(now).SaveX(ctx)
	builders := make([]*ent.WebhookDeliveryCreate, 0, platform.RetentionBatch*2+10)
	for range cap(builders) {
		builders = append(builders, c.WebhookDelivery.Create().SetShopID(sh.ID).SetSubscriptionID(sub.ID).SetEventID(ev.ID).
			SetTopic("order/created").SetStatus(webhookdelivery.StatusSucceeded).SetCreatedAt(now.Add(-40*24*time.Hour)))
	}
	c.WebhookDelivery.CreateBulk(builders...).ExecX(ctx)
	deleted, err := svc.PruneOldRecords(ctx, time.Minute)
	if err != nil || deleted["webhook_deliveries"] != len(builders) {
		t.Fatalf("deleted %v, %v; want all %d, batch after batch", deleted, err, len(builders))
	}
}
