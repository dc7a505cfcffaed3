package subscription_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// A paused subscription places nothing; resumed, it goes on from the rule's next date after
// now, the dates passed meanwhile not placed.
func TestAPausedSubscriptionPlacesNothingAndResumesFromTheNextDate(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := newShop(t, db)
		v := f.create(t, f.weekly(start, gatewaytest.TokenOK, ""))
		if got, err := f.svc.Subscriptions.Pause(ctx, f.shop, v.ID); err != nil || got.SubscriptionStatus != "paused" {
			t.Fatalf("pause: %+v %v", got, err)
		}
		_, err := f.svc.Subscriptions.Pause(ctx, f.shop, v.ID)
		wantProblem(t, err, problem.Invalid, "subscription.not_allowed")
		f.clock.Set(start.AddDate(0, 0, 10))
		if n := f.sweep(t); n != 0 {
			t.Fatalf("a paused subscription placed %d", n)
		}
		got, err := f.svc.Subscriptions.Resume(ctx, f.shop, v.ID)
		if err != nil || got.SubscriptionStatus != "active" || !got.NextOrderDatetime.Equal(start.AddDate(0, 0, 14)) {
			t.Fatalf("resume: %+v %v", got, err)
		}
		if n := f.sweep(t); n != 0 {
			t.Fatalf("resumed and placed %d at once, want the next date", n)
		}
	})
}

// Skip next moves the next order to the rule's following date: nothing is placed at the one
// skipped.
func TestSkipNextMovesTheNextOrderToTheFollowingDate(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := newShop(t, db)
		v := f.create(t, f.weekly(start.Add(time.Hour), gatewaytest.TokenOK, ""))
		got, err := f.svc.Subscriptions.SkipNext(ctx, f.shop, v.ID)
		if err != nil || !got.NextOrderDatetime.Equal(start.Add(time.Hour).AddDate(0, 0, 7)) {
			t.Fatalf("skip: %+v %v", got, err)
		}
		f.clock.Set(start.Add(2 * time.Hour))
		if n := f.sweep(t); n != 0 {
			t.Fatalf("placed %d at the skipped date", n)
		}
	})
}

// Place now places the next order at once, through checkout, and the schedule goes on.
func TestPlaceNowPlacesAnOrderAtOnce(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := newShop(t, db)
		v := f.create(t, f.weekly(start.Add(72*time.Hour), gatewaytest.TokenOK, ""))
		got, err := f.svc.Subscriptions.PlaceNow(ctx, f.shop, v.ID)
		if err != nil || got.OrdersProcessed != 1 || !got.NextOrderDatetime.Equal(start.Add(72*time.Hour)) {
			t.Fatalf("place now: %+v %v", got, err)
		}
		if n := processedOrders(t, db); n != 1 {
			t.Fatalf("%d orders processed", n)
		}
		_, err = f.svc.Subscriptions.PlaceNow(ctx, f.shop, v.ID+1000)
		wantProblem(t, err, problem.NotFound, "subscription.not_found")
	})
}
