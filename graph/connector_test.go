package graph_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

const connectorCalls = `{ connectorCalls(first: 10) { totalCount edges { node { id operation method path status attemptCount lastStatusCode
	attempts { statusCode error replay } } } } }`

func TestTheConnectorCallLogShowsEachCallWithItsAttemptsAndReplaysIt(t *testing.T) {
	eachOrderGraphWithJobs(t, func(t *testing.T, g *orderGraph) {
		ctx := context.Background()
		g.ok(g.token, `mutation { configureSharedSecret(sharedSecret: "platform-secret") { id } }`, nil)
		pf := platformserver.New(map[string][]byte{platformserver.AnyShop: []byte("platform-secret")})
		srv := httptest.NewServer(pf)
		defer srv.Close()
		sh, err := g.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		topic, url := "orders", srv.URL
		if _, err := g.svc.Connector.CreateDestination(ctx, sh, connector.DestinationInput{Topic: &topic, Destination: &url}); err != nil {
			t.Fatal(err)
		}
		pf.FailNext("/orders", http.StatusUnprocessableEntity, 1)
		processedGraphOrder(t, g)
		var call map[string]any
		waitFor(t, func() bool {
			call = get(g.ok(g.token, connectorCalls, nil), "connectorCalls", "edges", 0, "node").(map[string]any)
			return call["status"] == "failed"
		})
		if call["operation"] != "create_order" || call["method"] != "POST" || call["path"] != "/orders" || call["lastStatusCode"] != 422.0 ||
			len(call["attempts"].([]any)) != 1 {
			t.Fatalf("the failed call %v", call)
		}
		replayed := get(g.ok(g.token, `mutation($id: ID!) { replayConnectorCall(id: $id) { status } }`, map[string]any{"id": call["id"]}), "replayConnectorCall")
		if get(replayed, "status") != "pending" {
			t.Fatalf("replay %v", replayed)
		}
		waitFor(t, func() bool {
			call = get(g.ok(g.token, connectorCalls, nil), "connectorCalls", "edges", 0, "node").(map[string]any)
			return call["status"] == "succeeded"
		})
		if attempts := call["attempts"].([]any); len(attempts) != 2 || get(attempts[1], "replay") != true {
			t.Fatalf("attempts after the replay %v", attempts)
		}
		if len(pf.Orders("shop-a")) != 1 {
			t.Fatalf("the platform holds %d orders", len(pf.Orders("shop-a")))
		}
		// Another shop sees none of it.
		other := g.newShop("shop-b")
		if n := get(g.ok(other, connectorCalls, nil), "connectorCalls", "totalCount"); n != 0.0 {
			t.Fatalf("another shop sees %v calls", n)
		}
	})
}

// eachOrderGraphWithJobs is eachOrderGraph with the job queue running and quick connector
// retries (and no statement counting, whose driver the queue cannot share transactions with).
func eachOrderGraphWithJobs(t *testing.T, fn func(t *testing.T, g *orderGraph)) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		g := &orderGraph{t: t, db: db, clock: &testClock{now: time.Now()}}
		g.svc = service.New(db, service.WithClock(g.clock.Now), service.WithOutboundAllowPrivate(true),
			service.WithJobPollInterval(20*time.Millisecond), service.WithConnectorRetryBase(10*time.Millisecond))
		if err := g.svc.StartJobs(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = g.svc.StopJobs(ctx)
		})
		srv := httptest.NewServer(graph.Handler(g.svc))
		t.Cleanup(srv.Close)
		g.url = srv.URL
		g.token = g.newShop("shop-a")
		fn(t, g)
	})
}

// waitFor polls cond for up to 20 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("not within 20s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestACustomerSyncIsTriggeredAndFollowedThroughGraphQL(t *testing.T) {
	eachOrderGraphWithJobs(t, func(t *testing.T, g *orderGraph) {
		ctx := context.Background()
		const trigger = `mutation($topic: PlatformSyncTopic!) { triggerSync(topic: $topic) { id status } }`
		wantCode(t, g.do(g.token, trigger, map[string]any{"topic": "customers"}), "02-51", "sync.no_destination")
		wantCode(t, g.do(g.token, trigger, map[string]any{"topic": "products"}), "02-51", "sync.no_destination")
		g.ok(g.token, `mutation { configureSharedSecret(sharedSecret: "platform-secret") { id } }`, nil)
		pf := platformserver.New(map[string][]byte{platformserver.AnyShop: []byte("platform-secret")})
		srv := httptest.NewServer(pf)
		defer srv.Close()
		pf.SeedCustomers("shop-a", 260)
		sh, err := g.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		topic, url := "customers", srv.URL
		if _, err := g.svc.Connector.CreateDestination(ctx, sh, connector.DestinationInput{Topic: &topic, Destination: &url}); err != nil {
			t.Fatal(err)
		}
		g.ok(g.token, trigger, map[string]any{"topic": "customers"})
		var s map[string]any
		waitFor(t, func() bool {
			s = get(g.ok(g.token, `{ platformSyncs(first: 5) { edges { node { topic status pages rows errors lastError } } } }`, nil),
				"platformSyncs", "edges", 0, "node").(map[string]any)
			return s["status"] != "running"
		})
		if s["status"] != "succeeded" || s["pages"] != 2.0 || s["rows"] != 260.0 || s["errors"] != 0.0 {
			t.Fatalf("sync %v", s)
		}
	})
}
