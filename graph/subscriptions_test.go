package graph_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
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
	return anotherSubscription(t, svc, sh, "")
}

// anotherSubscription is one more weekly subscription of the shop's customer platformID (none
// when empty) to the lamp newSubscription gave it.
func anotherSubscription(t *testing.T, svc *service.Service, sh *ent.Shop, platformID string) int {
	t.Helper()
	next := time.Now().Add(time.Hour).UTC()
	v, err := svc.Subscriptions.CreateSubscription(context.Background(), sh, subscription.CreateInput{
		Customer: subscription.CustomerInput{FirstName: "Ada", LastName: "L", Email: "ada@example.com", PlatformID: platformID},
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
		list := must(t, query(t, url, token, `{ subscriptions(statuses: ["active"], first: 10) { totalCount edges { node { id orderRRuleText lineItems { sku } } } } }`, nil))
		if get(list, "subscriptions", "totalCount") != 1.0 || get(list, "subscriptions", "edges", 0, "node", "orderRRuleText") != "every week" {
			t.Fatalf("list %v", list)
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

const subscriptionsQuery = `query($first: Int, $after: String, $statuses: [String!], $customers: [String!], $filter: [String!]) {
	subscriptions(first: $first, after: $after, statuses: $statuses, platformCustomerIds: $customers, filter: $filter) {
		totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id subscriptionStatus } } } }`

// subscriptions is a Relay connection that keeps REST's filters (statuses, platform customer ids,
// filter) and walks its pages by the edges' cursors, in id order.
func TestSubscriptionsAreAConnectionWithTheListsFiltersAndPages(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		ctx := context.Background()
		token := newShop(t, svc, "shop-a")
		ids := []int{newSubscription(t, svc, "shop-a")}
		sh, err := svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		for _, customer := range []string{"cust-1", "cust-2", "cust-1"} {
			ids = append(ids, anotherSubscription(t, svc, sh, customer))
		}
		if _, err := svc.Subscriptions.Pause(ctx, sh, ids[3]); err != nil {
			t.Fatal(err)
		}
		otherToken := newShop(t, svc, "shop-b")
		newSubscription(t, svc, "shop-b")

		var seen []int
		vars := map[string]any{"first": 2, "statuses": []string{"active", "scheduled"}}
		for page := 0; ; page++ {
			conn := get(must(t, query(t, url, token, subscriptionsQuery, vars)), "subscriptions")
			edges := get(conn, "edges").([]any)
			if get(conn, "totalCount") != 3.0 || get(conn, "pageInfo", "hasPreviousPage") != (page > 0) ||
				get(conn, "pageInfo", "startCursor") != get(edges[0], "cursor") || get(conn, "pageInfo", "endCursor") != get(edges[len(edges)-1], "cursor") {
				t.Fatalf("page %d: %v", page, conn)
			}
			for _, e := range edges {
				seen = append(seen, int(get(e, "node", "id").(float64)))
			}
			if get(conn, "pageInfo", "hasNextPage") != true {
				break
			}
			vars["after"] = get(conn, "pageInfo", "endCursor")
		}
		if !slices.Equal(seen, ids[:3]) {
			t.Fatalf("walked %v, want the active ones %v in id order", seen, ids[:3])
		}
		conn := get(must(t, query(t, url, token, subscriptionsQuery, map[string]any{"customers": []string{"cust-1"}, "filter": []string{"eq(subscription_status:paused)"}})), "subscriptions")
		if get(conn, "totalCount") != 1.0 || get(conn, "edges", 0, "node", "id") != float64(ids[3]) || get(conn, "pageInfo", "hasNextPage") != false {
			t.Fatalf("cust-1's paused: %v", conn)
		}
		// Another shop's token lists that shop's subscriptions only.
		if conn := get(must(t, query(t, url, otherToken, subscriptionsQuery, nil)), "subscriptions"); get(conn, "totalCount") != 1.0 {
			t.Fatalf("shop-b: %v", conn)
		}
		wantCode(t, query(t, url, token, subscriptionsQuery, map[string]any{"filter": []string{"eq(password:x)"}}), "02-00", "filter.invalid")
		wantCode(t, query(t, url, token, subscriptionsQuery, map[string]any{"first": 0}), "02-22", "subscription.invalid_query")
	})
}
