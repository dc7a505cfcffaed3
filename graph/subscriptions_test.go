package graph_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/subscription"
)

// newSubscription gives the shop a lamp and a card gateway, and a weekly subscription to it.
func newSubscription(t *testing.T, svc *service.Service, shop string) int {
	t.Helper()
	ctx := context.Background()
	sh, err := svc.Shops.ShopByIdentifier(ctx, shop)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "lamp", Title: "Lamp",
		Variants: []catalog.VariantInput{{PlatformID: "lamp-1", SKU: "LAMP", Price: 5000}}}); err != nil {
		t.Fatal(err)
	}
	name, url, provider, yes, no := "Cards", "https://gateway.example.com/epg", "gatewaytest", true, false
	if _, err := svc.Shops.CreateExternalPaymentGateway(ctx, sh, shops.ExternalPaymentGatewayInput{Name: &name, BaseURL: &url,
		APIToken: input.Of("tok"), PartialCapture: &yes, AdditionalOrderDetails: &no, ProviderID: &provider, Currency: &sh.Currency}); err != nil {
		t.Fatal(err)
	}
	next := time.Now().Add(time.Hour).UTC()
	v, err := svc.Subscriptions.CreateSubscription(ctx, sh, subscription.CreateInput{
		Customer: subscription.CustomerInput{FirstName: "Ada", LastName: "L", Email: "ada@example.com"},
		Subscription: subscription.SubscriptionInput{NextOrderDatetime: &next, OrderRRule: "FREQ=WEEKLY", BaseCurrency: sh.Currency, ChargedCurrency: sh.Currency,
			LineItems:      []subscription.LineItemInput{{PlatformVariantID: "lamp-1", Quantity: 1, Price: 5000}},
			PaymentDetails: subscription.PaymentDetails{GatewayName: "Cards", GatewayPaymentID: "tok_ok"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return v.ID
}

// An admin lists the shop's subscriptions, pauses one, resumes it and skips its next order.
func TestGraphQLListsPausesResumesAndSkipsSubscriptions(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		id := newSubscription(t, svc, "shop-a")
		list := must(t, query(t, url, token, `{ subscriptions(statuses: ["active"], first: 10) { subscriptions { id orderRRuleText lineItems { sku } } pagination { total next } } }`, nil))
		page := list["subscriptions"].(map[string]any)
		if page["pagination"].(map[string]any)["total"] != 1.0 || page["subscriptions"].([]any)[0].(map[string]any)["orderRRuleText"] != "every week" {
			t.Fatalf("list %v", page)
		}
		vars := map[string]any{"id": id}
		paused := must(t, query(t, url, token, `mutation($id: Int!) { pauseSubscription(id: $id) { subscriptionStatus } }`, vars))
		if paused["pauseSubscription"].(map[string]any)["subscriptionStatus"] != "paused" {
			t.Fatalf("pause %v", paused)
		}
		wantCode(t, query(t, url, token, `mutation($id: Int!) { pauseSubscription(id: $id) { id } }`, vars), "02-22", "subscription.not_allowed")
		resumed := must(t, query(t, url, token, `mutation($id: Int!) { resumeSubscription(id: $id) { subscriptionStatus nextOrderDatetime } }`, vars))
		before := resumed["resumeSubscription"].(map[string]any)["nextOrderDatetime"].(string)
		skipped := must(t, query(t, url, token, `mutation($id: Int!) { skipNextSubscriptionOrder(id: $id) { nextOrderDatetime } }`, vars))
		after := skipped["skipNextSubscriptionOrder"].(map[string]any)["nextOrderDatetime"].(string)
		b, _ := time.Parse(time.RFC3339, before)
		a, _ := time.Parse(time.RFC3339, after)
		if !a.Equal(b.AddDate(0, 0, 7)) {
			t.Fatalf("skipped from %s to %s, want a week on", before, after)
		}
		other := newShop(t, svc, "shop-b")
		wantCode(t, query(t, url, other, `query($id: Int!) { subscription(id: $id) { id } }`, vars), "02-04", "subscription.not_found")
	})
}
