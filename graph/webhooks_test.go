package graph_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

// eachGraphWithJobs is eachGraph with the job queue running and quick retries.
func eachGraphWithJobs(t *testing.T, opts []service.Option, fn func(t *testing.T, url string, svc *service.Service)) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db, append([]service.Option{service.WithOutboundAllowPrivate(true), service.WithWebhookRetryBase(10 * time.Millisecond),
			service.WithJobPollInterval(20 * time.Millisecond)}, opts...)...)
		if err := svc.StartJobs(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = svc.StopJobs(ctx)
		})
		srv := httptest.NewServer(graph.Handler(svc))
		t.Cleanup(srv.Close)
		fn(t, srv.URL, svc)
	})
}

func must(t *testing.T, r gqlResult) map[string]any {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	return r.Data
}

// cancelledOrder records an order/failed event (a cancellation) in the shop.
func cancelledOrder(t *testing.T, svc *service.Service, shop string) string {
	t.Helper()
	ctx := context.Background()
	sh, err := svc.Shops.ShopByIdentifier(ctx, shop)
	if err != nil {
		t.Fatal(err)
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
	if _, err := svc.Checkout.CancelOrder(ctx, sess, checkout.CancelInput{Reason: "test"}, ""); err != nil {
		t.Fatal(err)
	}
	return v.Order.PublicOrderID
}

const deliveriesQuery = `query($f: WebhookDeliveryFilter) { webhookDeliveries(first: 10, filter: $f) { totalCount edges { node {
	id topic status attemptCount event { eventID } subscription { id healthy } attempts { statusCode replay responseBody error } } } } }`

func deliveryNodes(t *testing.T, url, token string, filter map[string]any) []map[string]any {
	t.Helper()
	conn := must(t, query(t, url, token, deliveriesQuery, map[string]any{"f": filter}))["webhookDeliveries"].(map[string]any)
	var out []map[string]any
	for _, e := range conn["edges"].([]any) {
		out = append(out, e.(map[string]any)["node"].(map[string]any))
	}
	return out
}

func TestGraphQLReadsTheDeliveryLogWithFiltersAndReplaysAFailedDelivery(t *testing.T) {
	eachGraphWithJobs(t, []service.Option{service.WithWebhookMaxAttempts(1)}, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		other := newShop(t, svc, "shop-b")
		must(t, query(t, url, token, `mutation { configureSharedSecret(sharedSecret: "gql-secret") { sharedSecretConfigured } }`, nil))
		rcv := webhooktest.New(t, "gql-secret")
		sub := must(t, query(t, url, token, `mutation($u: String!) { createWebhookSubscription(webhookTopicId: 5, callbackURL: $u) { id } }`,
			map[string]any{"u": rcv.URL}))["createWebhookSubscription"].(map[string]any)["id"].(string)
		rcv.FailNext(500)
		failedOrder := cancelledOrder(t, svc, "shop-a")
		rcv.WaitFor(10*time.Second, "the refused attempt", func(c []webhooktest.Callback) bool { return len(c) == 1 })
		cancelledOrder(t, svc, "shop-a")
		rcv.WaitAccepted(1, 10*time.Second)

		var failed []map[string]any
		for deadline := time.Now().Add(10 * time.Second); len(failed) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			failed = deliveryNodes(t, url, token, map[string]any{"status": "failed"})
		}
		if len(failed) != 1 || failed[0]["topic"] != "order/failed" || failed[0]["attemptCount"].(float64) != 1 ||
			failed[0]["subscription"].(map[string]any)["id"] != sub {
			t.Fatalf("failed deliveries %v", failed)
		}
		if at := failed[0]["attempts"].([]any)[0].(map[string]any); at["statusCode"].(float64) != 500 || at["error"] != "receiver answered 500" {
			t.Fatalf("attempt %v", at)
		}
		if got := deliveryNodes(t, url, token, map[string]any{"publicOrderID": failedOrder, "subscriptionID": sub, "topic": "order/failed"}); len(got) != 1 || got[0]["id"] != failed[0]["id"] {
			t.Fatalf("by order %v", got)
		}
		if got := deliveryNodes(t, url, token, map[string]any{"topic": "order/processed"}); len(got) != 0 {
			t.Fatalf("by another topic %v", got)
		}
		all := must(t, query(t, url, token, `{ webhookDeliveries { totalCount } }`, nil))["webhookDeliveries"].(map[string]any)
		if all["totalCount"].(float64) != 2 {
			t.Fatalf("all %v", all)
		}
		if got := deliveryNodes(t, url, other, nil); len(got) != 0 {
			t.Fatalf("another shop sees %v", got)
		}

		replay := fmt.Sprintf(`mutation { replayWebhookDelivery(id: %q) { status event { eventID } } }`, failed[0]["id"])
		if r := query(t, url, other, replay, nil); len(r.Errors) == 0 || r.Errors[0]["extensions"].(map[string]any)["type"] != "webhook_delivery.not_found" {
			t.Fatalf("another shop replayed the delivery: %v", r)
		}
		r := must(t, query(t, url, token, replay, nil))["replayWebhookDelivery"].(map[string]any)
		eventID := failed[0]["event"].(map[string]any)["eventID"]
		if r["status"] != "pending" || r["event"].(map[string]any)["eventID"] != eventID {
			t.Fatalf("replay answered %v", r)
		}
		got := rcv.WaitAccepted(2, 10*time.Second)
		if got[1].EventID != eventID {
			t.Fatalf("replayed event id %s, want %s", got[1].EventID, eventID)
		}
		var done []map[string]any
		for deadline := time.Now().Add(10 * time.Second); len(done) != 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			done = deliveryNodes(t, url, token, map[string]any{"status": "succeeded"})
		}
		if len(done) != 2 {
			t.Fatalf("succeeded deliveries after the replay %v", done)
		}
	})
}

func TestGraphQLPingsASubscriptionAndSetsTheShopsEventSettings(t *testing.T) {
	eachGraphWithJobs(t, nil, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		must(t, query(t, url, token, `mutation { configureSharedSecret(sharedSecret: "gql-secret") { id } }`, nil))
		rcv := webhooktest.New(t, "gql-secret")
		sub := must(t, query(t, url, token, `mutation($u: String!) { createWebhookSubscription(webhookTopicId: 1, callbackURL: $u) { id healthy } }`,
			map[string]any{"u": rcv.URL}))["createWebhookSubscription"].(map[string]any)
		if sub["healthy"] != true {
			t.Fatalf("a new subscription %v", sub)
		}
		ping := must(t, query(t, url, token, fmt.Sprintf(`mutation { pingWebhookSubscription(id: %q) { eventID success statusCode latencyMS } }`, sub["id"]), nil))["pingWebhookSubscription"].(map[string]any)
		if ping["success"] != true || ping["statusCode"].(float64) != 200 || len(rcv.Accepted()) != 1 || rcv.Accepted()[0].EventID != ping["eventID"] {
			t.Fatalf("ping %v, receiver %v", ping, rcv.Calls())
		}
		shop := must(t, query(t, url, token, `mutation { setAbandonedCartEmails(enabled: true) { abandonedCartEmails } setGiftCardsEnabled(enabled: true) { giftCardsEnabled } }`, nil))
		if shop["setAbandonedCartEmails"].(map[string]any)["abandonedCartEmails"] != true || shop["setGiftCardsEnabled"].(map[string]any)["giftCardsEnabled"] != true {
			t.Fatalf("settings %v", shop)
		}
		read := must(t, query(t, url, token, `{ shop { abandonedCartEmails giftCardsEnabled } }`, nil))["shop"].(map[string]any)
		if read["abandonedCartEmails"] != true || read["giftCardsEnabled"] != true {
			t.Fatalf("shop %v", read)
		}
	})
}
