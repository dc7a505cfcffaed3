package subscription_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/subscription"
)

func wantProblem(t *testing.T, err error, kind problem.Kind, typ string) *problem.Error {
	t.Helper()
	e, ok := problem.As(err)
	if !ok || e.Kind != kind || e.Type != typ {
		t.Fatalf("error %v, want %s %s", err, kind, typ)
	}
	return e
}

// Create Subscription stores every field it is given and answers the spec's Subscription: the
// lines described from the catalog, the rule explained, the next dates from next_order_datetime.
func TestCreateSubscriptionAnswersEveryFieldGiven(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		next := start.Add(24 * time.Hour)
		in := f.weekly(next, "tok_ok", "")
		in.Subscription.OrderRRule = "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,FR"
		in.Subscription.DiscountCode = "tenoff"
		in.Subscription.OrderCount = 3
		v := f.create(t, in)
		if v.SubscriptionStatus != "active" || v.OrderRRuleText != "every 2 weeks on Tuesday and Friday" ||
			!v.NextOrderDatetime.Equal(next) || v.DiscountCode != "TENOFF" || v.PercentDiscount != 10 || v.OrderCount != 3 ||
			v.PaymentMethodToken != "tok_ok" || v.PaymentGatewayPublicID != f.gw.PublicID || v.ExternalID != "ext-1" {
			t.Fatalf("subscription %+v", v)
		}
		if len(v.LineItems) != 1 || v.LineItems[0].Title != "Lamp - Blue" || v.LineItems[0].SKU != "LAMP" ||
			v.LineItems[0].PriceCharged != 5000 || v.LineItems[0].Quantity != 2 {
			t.Fatalf("line items %+v", v.LineItems)
		}
		if v.BillingAddress == nil || v.ShippingAddress == nil || v.BillingAddress.Zip != "12207" || *v.BillingAddressID != v.BillingAddress.ID {
			t.Fatalf("addresses %+v %+v", v.BillingAddress, v.ShippingAddress)
		}
		if v.Customer == nil || v.Customer.FirstName != "Ada" {
			t.Fatalf("customer %+v", v.Customer)
		}
		got, err := f.svc.Subscriptions.Subscription(context.Background(), f.shop, v.ID, false)
		if err != nil || got.Customer != nil || got.OrderRRule != in.Subscription.OrderRRule {
			t.Fatalf("get %+v (%v): the customer only with expand=customer", got, err)
		}
	})
}

// A Create Subscription repeated with its idempotency_key answers the subscription the first
// made, even when both arrive at once.
func TestAnIdempotencyKeyRetryAnswersTheSameSubscription(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		in := f.weekly(start.Add(time.Hour), "tok_ok", "key-1")
		first := f.create(t, in)
		again := f.create(t, in)
		if again.ID != first.ID {
			t.Fatalf("retry made subscription %d, want %d", again.ID, first.ID)
		}
		in2 := f.weekly(start.Add(time.Hour), "tok_ok", "key-2")
		ids := make(chan int, 4)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := f.svc.Subscriptions.CreateSubscription(context.Background(), f.shop, in2)
				if err != nil {
					t.Error(err)
					return
				}
				ids <- v.ID
			}()
		}
		wg.Wait()
		close(ids)
		seen := map[int]bool{}
		for id := range ids {
			seen[id] = true
		}
		if len(seen) != 1 {
			t.Fatalf("concurrent retries made subscriptions %v, want one", seen)
		}
		n, _ := db.Client.Subscription.Query().Count(context.Background())
		if n != 2 {
			t.Fatalf("%d subscriptions stored, want 2", n)
		}
	})
}

// An order_rrule that is not a rule orders can be placed by is a 422 naming it: unparsable,
// more often than daily, unbounded, or with no occurrence left.
func TestABadOrderRRuleIs422(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		for _, rule := range []string{"", "FREQ=FORTNIGHTLY", "FREQ=MINUTELY", "FREQ=SECONDLY", "FREQ=WEEKLY;INTERVAL=100000",
			"FREQ=DAILY;BYHOUR=1,2,3", "FREQ=WEEKLY;UNTIL=20200101T000000Z", "not a rule", strings.Repeat("FREQ=DAILY;", 200)} {
			in := f.weekly(start.Add(time.Hour), "tok_ok", "")
			in.Subscription.OrderRRule = rule
			_, err := f.svc.Subscriptions.CreateSubscription(context.Background(), f.shop, in)
			e := wantProblem(t, err, problem.Invalid, "subscription.invalid_rrule")
			if e.Details["field"] != "subscription.order_rrule" {
				t.Fatalf("rule %q: details %v", rule, e.Details)
			}
		}
		n, _ := db.Client.Subscription.Query().Count(context.Background())
		if n != 0 {
			t.Fatalf("%d subscriptions stored from bad rules", n)
		}
	})
}

// Currencies are ISO 4217 codes, the charged one the shop's; the exchange rate is positive,
// bounded, and 1 between a currency and itself; prices are converted into charged_currency's
// minor units.
func TestCurrenciesAndTheExchangeRateAreValidatedAndBounded(t *testing.T) {
	each(t, func(t *testing.T, db *platform.Database) {
		f := newShop(t, db)
		bad := []func(*subscription.SubscriptionInput){
			func(s *subscription.SubscriptionInput) { s.BaseCurrency = "XXY" },
			func(s *subscription.SubscriptionInput) { s.ChargedCurrency = "EUR" },
			func(s *subscription.SubscriptionInput) { s.BaseToChargedExchangeRate = ptr(2.0) },
			func(s *subscription.SubscriptionInput) { s.BaseCurrency, s.BaseToChargedExchangeRate = "EUR", ptr(0.0) },
			func(s *subscription.SubscriptionInput) {
				s.BaseCurrency, s.BaseToChargedExchangeRate = "EUR", ptr(-1.0)
			},
			func(s *subscription.SubscriptionInput) {
				s.BaseCurrency, s.BaseToChargedExchangeRate = "EUR", ptr(1e12)
			},
			func(s *subscription.SubscriptionInput) { s.LineItems[0].Quantity = 0 },
			func(s *subscription.SubscriptionInput) { s.LineItems[0].PlatformVariantID = "nope" },
			func(s *subscription.SubscriptionInput) { s.PaymentDetails.GatewayName = "Nobody" },
			func(s *subscription.SubscriptionInput) { s.DiscountCode = "NOPE" },
		}
		for i, change := range bad {
			in := f.weekly(start.Add(time.Hour), "tok_ok", "")
			change(&in.Subscription)
			_, err := f.svc.Subscriptions.CreateSubscription(context.Background(), f.shop, in)
			if e, ok := problem.As(err); !ok || e.Kind != problem.Invalid {
				t.Fatalf("case %d: %v, want a 422", i, err)
			}
		}
		in := f.weekly(start.Add(time.Hour), "tok_ok", "")
		in.Subscription.BaseCurrency, in.Subscription.BaseToChargedExchangeRate = "JPY", ptr(0.0065)
		in.Subscription.LineItems[0].Price = 800 // ¥800
		v := f.create(t, in)
		if v.LineItems[0].PriceCharged != 520 { // $5.20
			t.Fatalf("price charged %d, want 520", v.LineItems[0].PriceCharged)
		}
	})
}
