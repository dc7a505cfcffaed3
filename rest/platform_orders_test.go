package rest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/ent/event"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

// platformWait bounds how long a test waits for the queue to reach the platform.
const platformWait = 20 * time.Second

// eachPlatform is eachAPI with the job queue running (quick retries), the example platform
// serving at /platform, and the shop's shared secret set to the platform's.
func eachPlatform(t *testing.T, fn func(t *testing.T, a *api, pf *platformserver.Server, url string)) {
	opts := []service.Option{service.WithConnectorRetryBase(10 * time.Millisecond), service.WithJobPollInterval(20 * time.Millisecond)}
	eachAPIWith(t, opts, func(t *testing.T, a *api) {
		ctx, cancel := context.WithCancel(context.Background())
		if err := a.svc.StartJobs(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stop, done := context.WithTimeout(context.Background(), 5*time.Second)
			defer done()
			_ = a.svc.StopJobs(stop)
			cancel()
		})
		withPlatformSecret(t, a)
		pf := platformserver.New(map[string][]byte{platformserver.AnyShop: []byte(platformSecret)})
		mux := http.NewServeMux()
		mux.Handle("/platform/", pf)
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		fn(t, a, pf, srv.URL+"/platform")
	})
}

// eventually polls cond until it holds or platformWait passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(platformWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, platformWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func orderTopics(t *testing.T, a *api, publicOrderID string) []string {
	t.Helper()
	evs, err := a.svc.Client().Event.Query().Where(event.HasOrderWith(order.PublicOrderID(publicOrderID))).Order(event.ByID()).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Topic
	}
	return out
}

func hasTopic(topics []string, want string) bool {
	for _, t := range topics {
		if t == want {
			return true
		}
	}
	return false
}

// processedOnPlatform processes an order paid through a test gateway in a shop with an orders
// destination at url.
func processedOnPlatform(t *testing.T, a *api, url string) *checkout {
	t.Helper()
	a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "orders", "destination": url})).wantStatus(t, 200)
	gw := gatewaytest.New(t, gatewayAPIToken)
	id := addGateway(t, a, gw, "Gateway")
	c := readyCheckout(t, a, cart())
	c.pay(id, "tok_1", 0).wantStatus(t, 200)
	c.call("POST", "/process_order", nil).wantStatus(t, 200)
	return c
}

func platformOrderID(t *testing.T, a *api, publicOrderID string) string {
	t.Helper()
	o, err := a.svc.Client().Order.Query().Where(order.PublicOrderID(publicOrderID)).Only(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return o.PlatformOrderID
}

func TestAnOrderProcessedWithAnOrdersDestinationIsCreatedOnThePlatformOnce(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		pf.DropNextAnswer("/orders", 1) // created, then the answer is lost: the retry must not create another
		c := processedOnPlatform(t, a, url)
		if topics := orderTopics(t, a, c.id); !hasTopic(topics, "order/processed") || hasTopic(topics, "order/created") {
			t.Fatalf("before the platform answers: %v", topics)
		}
		eventually(t, "order/created", func() bool { return hasTopic(orderTopics(t, a, c.id), "order/created") })
		orders := pf.Orders(a.shop)
		if len(orders) != 1 {
			t.Fatalf("the platform holds %d orders, want 1", len(orders))
		}
		got := orders[0]
		if platformOrderID(t, a, c.id) != got.PlatformID {
			t.Fatalf("platform_order_id %q, the platform's id %q", platformOrderID(t, a, c.id), got.PlatformID)
		}
		if got.Total != "55.00" || got.Currency != "USD" || len(got.LineItems) == 0 || got.BillingAddress.CountryCode != "US" || len(got.Payments) != 1 {
			t.Fatalf("the order the platform got: %+v", got)
		}
		var keys []string
		for _, call := range pf.Calls() {
			if call.Method == "POST" && call.Path == "/v1/shops/"+a.shop+"/orders" {
				keys = append(keys, call.IdempotencyKey)
				if !call.SignatureValid {
					t.Fatal("an unsigned create order")
				}
			}
		}
		if len(keys) != 2 || keys[0] == "" || keys[0] != keys[1] {
			t.Fatalf("create order calls' Idempotency-Keys %v, want the same one twice", keys)
		}
		calls, err := a.svc.Client().ConnectorCall.Query().WithAttempts().All(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(calls) != 1 || calls[0].Status != connectorcall.StatusSucceeded || len(calls[0].Edges.Attempts) != 2 {
			t.Fatalf("the call log %v", calls)
		}
	})
}

func TestAnOrderThePlatformRefusesIsFailedWithReasonPlatformCreation(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		pf.FailNext("/orders", http.StatusUnprocessableEntity, 1)
		c := processedOnPlatform(t, a, url)
		eventually(t, "order/failed", func() bool { return hasTopic(orderTopics(t, a, c.id), "order/failed") })
		if topics := orderTopics(t, a, c.id); hasTopic(topics, "order/created") {
			t.Fatalf("a refused order was created: %v", topics)
		}
		ev, err := a.svc.Client().Event.Query().Where(event.Topic("order/failed")).Only(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if ev.Payload["reason"] != "platform creation" {
			t.Fatalf("order/failed payload %v", ev.Payload)
		}
		if len(pf.Orders(a.shop)) != 0 {
			t.Fatal("the platform holds the refused order")
		}
	})
}

func TestWithoutAnOrdersDestinationCheckoutdCreatesTheOrderItself(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "customers", "destination": url})).wantStatus(t, 200)
		gw := gatewaytest.New(t, gatewayAPIToken)
		id := addGateway(t, a, gw, "Gateway")
		c := readyCheckout(t, a, cart())
		c.pay(id, "tok_1", 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		if topics := orderTopics(t, a, c.id); !hasTopic(topics, "order/created") {
			t.Fatalf("events %v", topics)
		}
		if n, _ := a.svc.Client().ConnectorCall.Query().Count(context.Background()); n != 0 {
			t.Fatalf("%d connector calls without an orders destination", n)
		}
	})
}
