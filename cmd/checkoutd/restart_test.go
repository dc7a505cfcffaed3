package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
)

const gatewayToken = "gw-secret-token"

// caller makes REST calls: one process, or several taken in turn.
type caller interface {
	call(token, method, path string, body any, wantStatus int) map[string]any
}

// processedOrder processes an order of one 1250 mug (with the shop's flat shipping) paid by
// one card at gw, through the REST API of p, and answers its public id.
func (p *process) processedOrder(token, shop, gatewayID string) string {
	p.t.Helper()
	id, _ := checkoutThrough(p, token, shop, gatewayID)
	return id
}

// checkoutThrough is processedOrder through c: it answers the order's public id and JWT.
func checkoutThrough(c caller, token, shop, gatewayID string) (id, jwt string) {
	d := c.call(token, "POST", "/checkout/orders/"+shop+"/init", map[string]any{"cart_items": []map[string]any{
		{"sku": "MUG-1", "quantity": 1, "line_item_key": "k1", "title": "Mug", "price": 1250}}}, 200)["data"].(map[string]any)
	id, jwt = d["public_order_id"].(string), d["jwt_token"].(string)
	base := "/checkout/storefront/" + shop + "/" + id
	address := map[string]any{"first_name": "Ada", "last_name": "Lovelace", "address_line_1": "1 Main St", "city": "Albany",
		"country_code": "US", "province_code": "NY", "postal_code": "12207"}
	c.call(jwt, "POST", base+"/customer/guest", map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com"}, 200)
	c.call(jwt, "POST", base+"/addresses/shipping", address, 200)
	c.call(jwt, "POST", base+"/addresses/billing", address, 200)
	c.call(jwt, "POST", base+"/shipping_lines", map[string]any{"index": "0"}, 200)
	c.call(jwt, "POST", base+"/payments", map[string]any{"gateway_public_id": gatewayID, "token": gatewaytest.TokenOK, "currency": "USD",
		"type": "credit_card", "display_string": "Visa ending 4242"}, 200)
	c.call(jwt, "POST", base+"/process_order", nil, 200)
	return id, jwt
}

// A process killed while a capture is at the gateway leaves a pending ledger entry and a running
// idempotency key. On SQLite the next process is the database's only one: it asks the gateway
// under the same key before serving, so a retry with the same key answers the settled capture at
// once. On PostgreSQL the entry and the key name the dead process's lease: once it lapses (about
// 20 seconds) another process settles the capture, and a retry takes the key over. Either way
// the money moves once.
func TestACaptureInterruptedByAKillIsSettledByTheNextProcess(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, url string) {
		env := []string{"CHECKOUT_DATABASE_URL=" + url}
		runBinary(t, env, "migrate")
		token := createShop(t, env, "acme")
		gw := gatewaytest.New(t, gatewayToken)

		first := serveProcess(t, env)
		g := first.call(token, "POST", "/checkout/shop/acme/external_payment_gateways", map[string]any{
			"name": "Test gateway", "base_url": gw.URL, "api_token": gatewayToken, "partial_capture": true,
			"additional_order_details": false, "provider_id": gatewaytest.ProviderID, "currency": "USD"}, 200)
		gatewayID := g["data"].(map[string]any)["external_payment_gateway"].(map[string]any)["public_id"].(string)
		id := first.processedOrder(token, "acme", gatewayID)
		capture := "/checkout/orders/acme/" + id + "/payments/capture/full"

		gw.SetMode("/capture", "hang")
		go func() {
			// The answer never comes: the process is killed while the gateway holds it.
			req, _ := http.NewRequest("POST", first.url+capture, strings.NewReader(`{"idempotent_key":"cap-1"}`))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			if res, err := http.DefaultClient.Do(req); err == nil {
				res.Body.Close()
			}
		}()
		deadline := time.Now().Add(10 * time.Second)
		for len(gw.Calls("/capture")) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("the capture never reached the gateway")
			}
			time.Sleep(20 * time.Millisecond)
		}
		first.kill()
		killed := time.Now()
		gw.SetMode("/capture", "")

		second := serveProcess(t, env)
		// Without any retry, the capture the killed process left pending is settled: on SQLite
		// before the next process serves, on PostgreSQL once the dead process's lease lapsed.
		db, err := platform.OpenDatabase(url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for {
			pending, err := db.Client.PaymentTransaction.Query().Where(paymenttransaction.KindEQ(paymenttransaction.KindCapture),
				paymenttransaction.StatusNEQ(paymenttransaction.StatusSucceeded)).Exist(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !pending {
				break
			}
			if time.Since(killed) > 60*time.Second {
				t.Fatalf("the capture is still not settled %s after the kill", time.Since(killed).Round(time.Second))
			}
			time.Sleep(time.Second)
		}
		t.Logf("the capture was settled %s after the kill", time.Since(killed).Round(time.Second))
		status, body := second.try(token, "POST", capture, map[string]any{"idempotent_key": "cap-1"})
		if status != 200 {
			t.Fatalf("the retry %s after the kill answered %d: %v", time.Since(killed).Round(time.Second), status, body)
		}
		d := body["data"].(map[string]any)
		total := d["order_total"].(float64)
		if d["paid_total"].(float64) != total || d["captured_held_total"].(float64) != 0 || d["transactions"].([]any)[0].(map[string]any)["status"] != "success" {
			t.Fatalf("the retry answered %v", d)
		}
		if captured, _ := gw.Totals(); float64(captured) != total {
			t.Fatalf("the gateway captured %d, want %v once", captured, total)
		}
	})
}
