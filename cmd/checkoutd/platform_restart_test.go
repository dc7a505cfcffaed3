package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
)

// An order whose create order is at the platform when checkoutd is killed reaches the platform
// once: the next process (on SQLite at start-up, on PostgreSQL once the dead process's lease
// lapsed) sends the call again under the same Idempotency-Key, and the order gets the
// platform's id within 30 seconds of the restart.
func TestAnOrderBeingCreatedOnThePlatformWhenCheckoutdIsKilledIsCreatedOnceAfterRestart(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, url string) {
		env := []string{"CHECKOUT_DATABASE_URL=" + url, "CHECKOUT_JOB_POLL_INTERVAL=100ms"}
		runBinary(t, env, "migrate")
		token := createShop(t, env, "acme")
		gw := gatewaytest.New(t, gatewayToken)
		pf := platformserver.New(map[string][]byte{platformserver.AnyShop: []byte(secret)})
		mux := http.NewServeMux()
		mux.Handle("/platform/", pf)
		srv := httptest.NewServer(mux)
		defer srv.Close()

		first := serveProcess(t, env)
		first.call(token, "POST", "/checkout/shop/acme/integration/config", map[string]string{"shared_secret": secret}, 200)
		first.call(token, "POST", "/integrations/v1/shops/acme/platform_connector_destinations", map[string]any{"data": map[string]any{
			"destination": map[string]any{"topic": "orders", "destination": srv.URL + "/platform", "timeout_ms": 30000}}}, 200)
		g := first.call(token, "POST", "/checkout/shop/acme/external_payment_gateways", map[string]any{
			"name": "Test gateway", "base_url": gw.URL, "api_token": gatewayToken, "partial_capture": true,
			"additional_order_details": false, "provider_id": gatewaytest.ProviderID, "currency": "USD"}, 200)
		gatewayID := g["data"].(map[string]any)["external_payment_gateway"].(map[string]any)["public_id"].(string)
		pf.SetDelay(10 * time.Second) // the platform holds the create order: checkoutd is killed meanwhile
		id := first.processedOrder(token, "acme", gatewayID)
		deadline := time.Now().Add(20 * time.Second)
		for !createOrderArrived(pf) {
			if time.Now().After(deadline) {
				t.Fatal("the create order never reached the platform")
			}
			time.Sleep(20 * time.Millisecond)
		}
		first.kill()
		pf.SetDelay(0)
		restarted := time.Now()
		serveProcess(t, env)

		db, err := platform.OpenDatabase(url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for {
			o, err := db.Client.Order.Query().Where(order.PublicOrderID(id)).Only(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if orders := pf.Orders("acme"); len(orders) == 1 && o.PlatformOrderID == orders[0].PlatformID {
				break
			}
			if time.Since(restarted) > 30*time.Second {
				t.Fatalf("%s after the restart: platform_order_id %q, the platform holds %d orders", time.Since(restarted).Round(time.Second),
					o.PlatformOrderID, len(pf.Orders("acme")))
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Logf("the order reached the platform %s after the restart", time.Since(restarted).Round(time.Second))
		keys := map[string]bool{}
		for _, c := range pf.Calls() {
			if c.Method == "POST" && c.Path == "/v1/shops/acme/orders" {
				keys[c.IdempotencyKey] = true
			}
		}
		if len(keys) != 1 {
			t.Fatalf("create order was sent under %d keys, want 1", len(keys))
		}
	})
}

// createOrderArrived reports whether a create order reached the platform (answered or not).
func createOrderArrived(pf *platformserver.Server) bool {
	for _, c := range pf.InFlight() {
		if c == "POST /v1/shops/acme/orders" {
			return true
		}
	}
	return false
}
