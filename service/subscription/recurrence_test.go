package subscription_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/event"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/subscriptionplacement"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/subscription"
)

func (f *shopWithCatalog) sweep(t *testing.T) int {
	t.Helper()
	n, err := f.svc.Subscriptions.PlaceDueOrders(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *shopWithCatalog) get(t *testing.T, id int) *subscription.View {
	t.Helper()
	v, err := f.svc.Subscriptions.Subscription(context.Background(), f.shop, id, false)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func processedOrders(t *testing.T, db *platform.Database) int {
	t.Helper()
	n, err := db.Client.Order.Query().Where(order.StatusEQ(order.StatusProcessed)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A FREQ=WEEKLY subscription places exactly one order a week through a simulated month: none
// before its date, one within a minute of it, none more until the next week; each is priced
// and charged as a shopper's order and counted in orders_processed.
func TestAWeeklySubscriptionPlacesExactlyOneOrderPerWeek(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		v := f.create(t, f.weekly(start, gatewaytest.TokenOK, ""))
		due := start
		for week := 1; week <= 5; week++ {
			f.clock.Set(due.Add(-time.Second))
			if n := f.sweep(t); n != 0 {
				t.Fatalf("week %d: %d orders placed before the date", week, n)
			}
			f.clock.Set(due.Add(subscription.DefaultSweepInterval))
			if n := f.sweep(t); n != 1 {
				t.Fatalf("week %d: %d orders placed at the date, want 1", week, n)
			}
			for _, later := range []time.Duration{time.Minute, 3 * 24 * time.Hour, 7*24*time.Hour - time.Second} {
				f.clock.Set(due.Add(later))
				if n := f.sweep(t); n != 0 {
					t.Fatalf("week %d: %d more orders %v after the date", week, n, later)
				}
			}
			got := f.get(t, v.ID)
			due = due.AddDate(0, 0, 7)
			if got.OrdersProcessed != week || !got.NextOrderDatetime.Equal(due) || got.SubscriptionStatus != "active" {
				t.Fatalf("week %d: processed %d, next %v, status %s", week, got.OrdersProcessed, got.NextOrderDatetime, got.SubscriptionStatus)
			}
		}
		if n := processedOrders(t, db); n != 5 {
			t.Fatalf("%d orders processed in the month, want 5", n)
		}
		auths := f.gateway.Auths()
		// Two lamps and the shop's shipping rate, as checkout prices them.
		if len(auths) != 5 || auths[0].Amount != 11000 || auths[0].Token != gatewaytest.TokenOK {
			t.Fatalf("authorizations %+v, want 5 of 110.00", auths)
		}
		created, _ := db.Client.Event.Query().Where(event.Topic(platform.TopicOrderCreated)).Count(context.Background())
		if created != 5 {
			t.Fatalf("%d order/created events, want 5", created)
		}
	})
}

// After downtime, a subscription that fell due (several times over) is placed once, and its
// next date is the rule's next after now.
func TestAfterDowntimeADueSubscriptionIsPlacedOnceNotOncePerMissedPeriod(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		v := f.create(t, f.weekly(start, gatewaytest.TokenOK, ""))
		f.clock.Set(start.AddDate(0, 0, 22)) // three weeks and a day down
		if n := f.sweep(t); n != 1 {
			t.Fatalf("%d orders placed after downtime, want 1", n)
		}
		if n := f.sweep(t); n != 0 {
			t.Fatalf("%d more orders", n)
		}
		if got := f.get(t, v.ID); !got.NextOrderDatetime.Equal(start.AddDate(0, 0, 28)) {
			t.Fatalf("next %v, want the rule's next after now", got.NextOrderDatetime)
		}
	})
}

// A charge the gateway declines is recorded (current_retries, last_failure_code/reason/details)
// and tried again after its backoff; a success then resets the retries.
func TestAFailedChargeIsRetriedAndRecorded(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		v := f.create(t, f.weekly(start, gatewaytest.TokenOK, ""))
		f.gateway.SetMode("/auth", "decline")
		f.clock.Set(start.Add(subscription.DefaultSweepInterval))
		if n := f.sweep(t); n != 0 {
			t.Fatalf("%d orders placed with a declined card", n)
		}
		got := f.get(t, v.ID)
		if got.CurrentRetries != 1 || got.LastFailureCode == "" || got.LastFailureReason == "" || got.LastFailureDetails["message"] == nil ||
			got.SubscriptionStatus != "active" || got.OrdersProcessed != 0 {
			t.Fatalf("after a declined charge: %+v", got)
		}
		f.gateway.SetMode("/auth", "")
		f.clock.Add(subscription.RetryBackoff[0] - time.Minute)
		if n := f.sweep(t); n != 0 {
			t.Fatalf("retried %d before the backoff", n)
		}
		f.clock.Add(time.Minute)
		if n := f.sweep(t); n != 1 {
			t.Fatalf("%d orders placed at the retry, want 1", n)
		}
		got = f.get(t, v.ID)
		if got.CurrentRetries != 0 || got.OrdersProcessed != 1 || !got.NextOrderDatetime.Equal(start.AddDate(0, 0, 7)) {
			t.Fatalf("after the retry: %+v", got)
		}
		if n, _ := db.Client.Order.Query().Count(context.Background()); n != 1 {
			t.Fatalf("%d orders, want the one order of the due date", n)
		}
	})
}

// After its last retry fails, the subscription is paused, the due date given up and
// order/failed fired on its order.
func TestAfterTheLastRetryTheSubscriptionIsPausedAndOrderFailedFired(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		v := f.create(t, f.weekly(start, gatewaytest.TokenDecline, ""))
		f.clock.Set(start.Add(subscription.DefaultSweepInterval))
		f.sweep(t)
		for _, wait := range subscription.RetryBackoff {
			f.clock.Add(wait)
			f.sweep(t)
		}
		got := f.get(t, v.ID)
		if got.SubscriptionStatus != "paused" || got.CurrentRetries != subscription.MaxRetries+1 || got.LastFailureCode == "" {
			t.Fatalf("after the last retry: %+v", got)
		}
		// Checkout fires order/failed at each refused authorization, as for a shopper's order; the
		// subscription's own, with its id and status, comes when it gives up.
		failed, _ := db.Client.Event.Query().Where(event.Topic(platform.TopicOrderFailed)).Order(ent.Asc(event.FieldID)).All(context.Background())
		if len(failed) != subscription.MaxRetries+2 || failed[len(failed)-1].Payload["subscription_status"] != "paused" {
			t.Fatalf("%d order/failed events, want one per attempt and the subscription's last", len(failed))
		}
		pl, err := db.Client.SubscriptionPlacement.Query().Only(context.Background())
		if err != nil || pl.Status != subscriptionplacement.StatusFailed || pl.Attempts != subscription.MaxRetries+1 {
			t.Fatalf("placement %+v (%v)", pl, err)
		}
		f.clock.Add(30 * 24 * time.Hour)
		if n := f.sweep(t); n != 0 {
			t.Fatalf("a paused subscription placed %d orders", n)
		}
	})
}

// A process that dies while placing a due date, after creating its order or after charging
// it, leaves it to the next run: the date is placed once, with one order and one charge.
func TestACrashWhilePlacingPlacesOnce(t *testing.T) {
	for _, at := range []string{"order", "processed"} {
		t.Run(at, func(t *testing.T) {
			each(t, func(t *testing.T, db *platform.Database) {
				ctx := context.Background()
				f := newShop(t, db)
				v := f.create(t, f.weekly(start, gatewaytest.TokenOK, ""))
				f.clock.Set(start.Add(subscription.DefaultSweepInterval))
				if err := f.svc.Subscriptions.CrashWhilePlacing(ctx, at); err != nil {
					t.Fatal(err)
				}
				// The process is gone; another starts later and sweeps.
				f.clock.Add(subscription.StaleClaimAfter + time.Second)
				restarted := service.New(db, service.WithClock(f.clock.Now), service.WithOutboundAllowPrivate(true))
				if n, err := restarted.Subscriptions.PlaceDueOrders(ctx); err != nil || n != 1 {
					t.Fatalf("restart placed %d (%v), want 1", n, err)
				}
				if n, _ := restarted.Subscriptions.PlaceDueOrders(ctx); n != 0 {
					t.Fatalf("placed %d more", n)
				}
				if n, _ := db.Client.Order.Query().Count(ctx); n != 1 || processedOrders(t, db) != 1 {
					t.Fatalf("%d orders, want one processed", n)
				}
				if auths := f.gateway.Auths(); len(auths) != 1 {
					t.Fatalf("%d authorizations, want 1", len(auths))
				}
				if got := f.get(t, v.ID); got.OrdersProcessed != 1 || got.SubscriptionStatus != "active" {
					t.Fatalf("after the restart: %+v", got)
				}
			})
		})
	}
}

// Two processes sweeping at once never place the same due date twice.
func TestTwoSchedulerRunsAtOnceNeverPlaceTheSameOrderTwice(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := newShop(t, db)
		for i := range 3 {
			f.create(t, f.weekly(start.Add(time.Duration(i)*time.Minute), gatewaytest.TokenOK, ""))
		}
		f.clock.Set(start.Add(10 * time.Minute))
		other := service.New(db, service.WithClock(f.clock.Now), service.WithOutboundAllowPrivate(true))
		var wg sync.WaitGroup
		for _, s := range []*service.Service{f.svc, other, f.svc, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := s.Subscriptions.PlaceDueOrders(ctx); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if n, _ := db.Client.Order.Query().Count(ctx); n != 3 || processedOrders(t, db) != 3 {
			t.Fatalf("%d orders (%d processed), want 3 processed", n, processedOrders(t, db))
		}
		if auths := f.gateway.Auths(); len(auths) != 3 {
			t.Fatalf("%d authorizations, want 3", len(auths))
		}
	})
}

// One sweep places many due subscriptions, several at once: each due date once, with one order
// and one charge.
func TestASweepOfManyDueSubscriptionsPlacesEachOnce(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := newShop(t, db)
		const due = 20
		for i := range due {
			f.create(t, f.weekly(start.Add(time.Duration(i)*time.Second), gatewaytest.TokenOK, ""))
		}
		f.clock.Set(start.Add(time.Minute))
		if n := f.sweep(t); n != due {
			t.Fatalf("one sweep placed %d, want %d", n, due)
		}
		if n, _ := db.Client.Order.Query().Count(ctx); n != due || processedOrders(t, db) != due {
			t.Fatalf("%d orders (%d processed), want %d processed", n, processedOrders(t, db), due)
		}
		if auths := f.gateway.Auths(); len(auths) != due {
			t.Fatalf("%d authorizations, want %d", len(auths), due)
		}
		placed, _ := db.Client.SubscriptionPlacement.Query().Where(subscriptionplacement.StatusEQ(subscriptionplacement.StatusPlaced)).Count(ctx)
		if placed != due {
			t.Fatalf("%d placements placed, want %d", placed, due)
		}
	})
}
