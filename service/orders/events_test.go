package orders_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/webhookdelivery"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/webhooks"
)

func TestRetryWaitsDoubleFromTheBaseForTwelveDoublingsAndLastAboutThreeDays(t *testing.T) {
	base := webhooks.DefaultRetryBase
	for retry, want := range map[int]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second,
		13: 40960 * time.Second, 14: 40960 * time.Second, 17: 40960 * time.Second} {
		if got := webhooks.RetryWait(base, retry); got != want {
			t.Errorf("wait before retry %d is %s, want %s", retry, got, want)
		}
	}
	var total time.Duration
	for retry := 1; retry < webhooks.DefaultMaxAttempts; retry++ {
		total += webhooks.RetryWait(base, retry)
	}
	if days := total.Hours() / 24; days < 2.5 || days > 3.5 {
		t.Fatalf("the retries span %.1f days, want about 3", days)
	}
}

// shopWithSubscriptions is a shop with a shared secret, two subscriptions to order/failed and
// one to order/processed, and an open order.
func shopWithSubscriptions(t *testing.T, svc *service.Service) (*orders.OrderSession, []*ent.WebhookSubscription) {
	t.Helper()
	ctx := context.Background()
	created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
	if err != nil {
		t.Fatal(err)
	}
	sh := created.Shop
	if _, err := svc.Shops.ConfigureSharedSecret(ctx, sh, "secret"); err != nil {
		t.Fatal(err)
	}
	var subs []*ent.WebhookSubscription
	for _, topic := range []int{5, 5, 1} {
		sub, err := svc.Webhooks.CreateWebhookSubscription(ctx, sh, topic, "https://hooks.example.com/x")
		if err != nil {
			t.Fatal(err)
		}
		subs = append(subs, sub)
	}
	title, price := "Mug", int64(1000)
	v, err := svc.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price}}})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := svc.Orders.BackendOrderSession(ctx, sh, v.Order.PublicOrderID)
	if err != nil {
		t.Fatal(err)
	}
	return sess, subs
}

// queuedDeliveryJobs reads the delivery ids of the queue's webhook jobs.
func queuedDeliveryJobs(t *testing.T, db *platform.Database) []int {
	t.Helper()
	rows, err := db.SQL.Query(`SELECT args FROM river_job WHERE kind = 'webhook_delivery' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		var args struct {
			DeliveryID int `json:"delivery_id"`
		}
		if err := json.Unmarshal(raw, &args); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, args.DeliveryID)
	}
	return ids
}

func TestAnEventIsWrittenWithOneDeliveryAndOneQueuedJobPerSubscriptionOfItsTopic(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db) // the queue is not worked: what the transaction wrote stays
		sess, subs := shopWithSubscriptions(t, svc)
		if _, err := svc.Checkout.CancelOrder(ctx, sess, checkout.CancelInput{Reason: "test"}, ""); err != nil {
			t.Fatal(err)
		}
		ds, err := db.Client.WebhookDelivery.Query().Order(webhookdelivery.ByID()).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 2 || ds[0].SubscriptionID != subs[0].ID || ds[1].SubscriptionID != subs[1].ID ||
			ds[0].EventID != ds[1].EventID || ds[0].Status != webhookdelivery.StatusPending || *ds[0].OrderID != sess.Order.ID {
			t.Fatalf("deliveries %v", ds)
		}
		jobs := queuedDeliveryJobs(t, db)
		if len(jobs) != 2 || jobs[0] != ds[0].ID || jobs[1] != ds[1].ID {
			t.Fatalf("queued jobs for deliveries %v, want %d and %d", jobs, ds[0].ID, ds[1].ID)
		}
	})
}

func TestASubscriptionMadeOrDeletedAfterAnEventRoutesTheNextOne(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sess, subs := shopWithSubscriptions(t, svc)
		deliveredTo := func() []int {
			t.Helper()
			if err := svc.Orders.RecordOrderEventAlone(ctx, sess, platform.TopicOrderFailed); err != nil {
				t.Fatal(err)
			}
			ids, err := db.Client.WebhookDelivery.Query().Order(webhookdelivery.ByID()).
				Select(webhookdelivery.FieldSubscriptionID).Ints(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Client.WebhookDelivery.Delete().Exec(ctx); err != nil {
				t.Fatal(err)
			}
			return ids
		}
		if got := deliveredTo(); !slices.Equal(got, []int{subs[0].ID, subs[1].ID}) {
			t.Fatalf("first event delivered to %v", got)
		}
		added, err := svc.Webhooks.CreateWebhookSubscription(ctx, sess.Shop, 5, "https://hooks.example.com/y")
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Webhooks.DeleteWebhookSubscription(ctx, sess.Shop, subs[0].ID); err != nil {
			t.Fatal(err)
		}
		if got := deliveredTo(); !slices.Equal(got, []int{subs[1].ID, added.ID}) {
			t.Fatalf("after the changes, delivered to %v, want %d and %d", got, subs[1].ID, added.ID)
		}
	})
}

func TestAnEventWhoseChangeIsRolledBackLeavesNoDeliveryAndNoJob(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sess, _ := shopWithSubscriptions(t, svc)
		if err := svc.Orders.RecordEventAndRollBack(ctx, sess); err == nil {
			t.Fatal("the refused change committed")
		}
		events, _ := db.Client.Event.Query().Count(ctx)
		deliveries, _ := db.Client.WebhookDelivery.Query().Count(ctx)
		if events != 0 || deliveries != 0 || len(queuedDeliveryJobs(t, db)) != 0 {
			t.Fatalf("after the rollback: %d events, %d deliveries, jobs %v", events, deliveries, queuedDeliveryJobs(t, db))
		}
	})
}
