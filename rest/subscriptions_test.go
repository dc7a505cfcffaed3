package rest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// subscriptionsReady gives shop-a a lamp, a card gateway and the code TENOFF, and answers a
// Create Subscription body.
func subscriptionsReady(t *testing.T, a *api, key string) map[string]any {
	t.Helper()
	ctx := context.Background()
	sh, err := a.svc.Shops.ShopByIdentifier(ctx, a.shop)
	if err != nil {
		t.Fatal(err)
	}
	{
		if _, err := a.svc.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "lamp", Title: "Lamp",
			Variants: []catalog.VariantInput{{PlatformID: "lamp-1", SKU: "LAMP", Price: 5000}}}); err != nil {
			t.Fatal(err)
		}
		gatewaytest.New(t, "tok").Register(a.svc.Shops, sh, "Cards")
		if _, err := a.svc.Shops.CreateDiscountCode(ctx, sh, shops.DiscountCodeInput{Code: "TENOFF", Kind: discountcode.KindPercentage, Value: 1000}); err != nil {
			t.Fatal(err)
		}
	}
	addr := map[string]any{"first_name": "Ada", "last_name": "L", "street1": "1 Main St", "city": "Albany", "province_code": "NY", "country_code": "US", "zip": "12207"}
	return map[string]any{
		"customer": map[string]any{"first_name": "Ada", "last_name": "L", "phone": "+15555550100", "notes": "vip", "email": "ada@example.com", "platform_id": "cust-1"},
		"subscription": map[string]any{"idempotency_key": key, "next_order_datetime": a.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339),
			"order_rrule": "FREQ=MONTHLY;BYMONTHDAY=1", "base_currency": sh.Currency, "charged_currency": sh.Currency, "base_to_charged_exchange_rate": 1,
			"line_items":      []any{map[string]any{"platform_product_id": "lamp", "platform_variant_id": "lamp-1", "quantity": 1, "price": 5000}},
			"billing_address": addr, "shipping_address": addr, "external_id": "ext", "payment_details": map[string]any{"gateway_name": "Cards", "gateway_payment_id": "tok_ok"},
			"note": "n", "order_note": "o", "order_count": 0},
	}
}

func wantSubscriptionErrors(t *testing.T, r response, status int) string {
	t.Helper()
	r.wantStatus(t, status)
	errs, ok := r.Body["errors"].([]any)
	if !ok || len(errs) != 1 {
		t.Fatalf("want {errors:[string]}, got %s", r.Raw)
	}
	msg, ok := errs[0].(string)
	if !ok {
		t.Fatalf("want {errors:[string]}, got %s", r.Raw)
	}
	return msg
}

func TestCreateSubscriptionRetriedWithItsIdempotencyKeyAnswersTheSameSubscription(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		const base = "/subscriptions/v1/shops/shop-a/subscriptions"
		body := subscriptionsReady(t, a, "k-1")
		first := a.do("POST", base, body).wantStatus(t, 200).Body["subscription"].(map[string]any)
		again := a.do("POST", base, body).wantStatus(t, 200).Body["subscription"].(map[string]any)
		if first["id"] != again["id"] || first["order_rrule_text"] != "every month on the 1st day of the month" {
			t.Fatalf("first %v, retry %v", first["id"], again["id"])
		}
		got := a.do("GET", base+"/"+itoa(first["id"])+"?expand=customer", nil).wantStatus(t, 200).Body["subscription"].(map[string]any)
		if got["customer"].(map[string]any)["notes"] != "vip" {
			t.Fatalf("customer %v", got["customer"])
		}
		list := a.do("GET", base+"?subscription_status=active&subscription_status=paused&service_platform_customer_id=cust-1&limit=1", nil).wantStatus(t, 200)
		if p := list.Body["pagination"].(map[string]any); p["total"] != 1.0 || p["next"] != nil {
			t.Fatalf("pagination %v", p)
		}
		wantSubscriptionErrors(t, a.do("GET", base+"/999999", nil), 404)
		wantSubscriptionErrors(t, a.do("GET", base+"?filter=eq(nope:1)", nil), 400)
		wantSubscriptionErrors(t, a.doAs("wrong", "GET", base, nil), 401)
	})
}

func TestCreateSubscriptionWithABadOrderRRuleIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := subscriptionsReady(t, a, "")
		body["subscription"].(map[string]any)["order_rrule"] = "FREQ=HOURLY"
		msg := wantSubscriptionErrors(t, a.do("POST", "/subscriptions/v1/shops/shop-a/subscriptions", body), 422)
		if msg == "" {
			t.Fatal("no reason given")
		}
	})
}

func TestARejectedSubscriptionDiscountCodeIs400WithItsReason(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		const base = "/subscriptions/v1/shops/shop-a/subscriptions"
		created := a.do("POST", base, subscriptionsReady(t, a, "")).wantStatus(t, 200).Body["subscription"].(map[string]any)
		path := base + "/" + itoa(created["id"]) + "/discount_code"
		if msg := wantSubscriptionErrors(t, a.do("PUT", path, map[string]any{"discount_code": "NOPE"}), 400); msg != "discount code NOPE does not exist" {
			t.Fatalf("reason %q", msg)
		}
		wantSubscriptionErrors(t, a.do("DELETE", path, nil), 400)
		if s := a.do("PUT", path, map[string]any{"discount_code": "TENOFF"}).wantStatus(t, 200).Body["subscription"].(map[string]any); s["discount_code"] != "TENOFF" {
			t.Fatalf("code %v", s["discount_code"])
		}
		a.do("DELETE", path, nil).wantStatus(t, 200)
	})
}

// Hostile subscription requests are refused with `{errors:[reason]}`, never a 500, and store
// nothing.
func TestHostileSubscriptionRequestsAreRefusedWithTheirReasonAndStoreNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		const base = "/subscriptions/v1/shops/shop-a/subscriptions"
		good := subscriptionsReady(t, a, "")
		long := strings.Repeat("é", 300)
		for _, c := range []struct {
			method, path string
			body         any
			status       int
		}{
			{"POST", base, "{not json", 400},
			{"POST", base, map[string]any{"subscription": "x"}, 422},
			{"POST", base, map[string]any{"subscription": map[string]any{"order_count": 1e300}}, 422},
			{"POST", base, map[string]any{"customer": good["customer"], "subscription": map[string]any{"order_rrule": "FREQ=DAILY", "note": long}}, 422},
			{"GET", base + "?limit=100000", nil, 422},
			{"GET", base + "?limit=-1", nil, 422},
			{"GET", base + "?cursor=" + strings.Repeat("A", 500), nil, 422},
			{"GET", base + "?subscription_status=deleted", nil, 422},
			{"GET", base + "/" + strings.Repeat("9", 40), nil, 404},
			{"PUT", base + "/1/discount_code", map[string]any{"discount_code": long}, 400},
			{"DELETE", base + "/abc/discount_code", nil, 404},
		} {
			wantSubscriptionErrors(t, a.do(c.method, c.path, c.body), c.status)
		}
		if n, _ := a.svc.Client().Subscription.Query().Count(context.Background()); n != 0 {
			t.Fatalf("%d subscriptions stored", n)
		}
	})
}
