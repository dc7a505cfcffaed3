package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/checkoutd/checkoutd/examples/internal/checkoutdtest"
)

// These tests run checkoutd itself (its REST API on each database) with the example registered
// as the shop's external payment gateway, as README.md tells an operator to do.

// registered starts the example gateway and registers it with the shop; it returns the gateway
// and its public id.
func registered(t *testing.T, c *checkoutdtest.Checkoutd) (*paymentGateway, string) {
	t.Helper()
	g := newGateway(apiToken, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	d := c.Do("POST", "/checkout/shop/"+c.Shop+"/external_payment_gateways", gatewayConfig(srv.URL, apiToken)).Want(t, 200).Data(t)
	return g, d["external_payment_gateway"].(map[string]any)["public_id"].(string)
}

// gatewayConfig is the body README.md registers the example with.
func gatewayConfig(baseURL, token string) map[string]any {
	return map[string]any{
		"name": "Example gateway", "base_url": baseURL, "api_token": token, "provider_id": "example",
		"currency": "USD", "partial_capture": true, "additional_order_details": false, "location": "payment_gateway", "is_test": true,
	}
}

// guestCheckout starts an order and gives it everything but a payment, as a storefront does:
// it returns the order's public id, its storefront path and its JWT.
func guestCheckout(t *testing.T, c *checkoutdtest.Checkoutd) (string, string, string) {
	t.Helper()
	d := c.Do("POST", "/checkout/orders/"+c.Shop+"/init", map[string]any{"cart_items": []map[string]any{
		{"sku": "MUG-1", "quantity": 2, "line_item_key": "mug", "title": "Mug", "price": 1250, "requires_shipping": true},
	}}).Want(t, 200).Data(t)
	id, jwt := d["public_order_id"].(string), d["jwt_token"].(string)
	base := "/checkout/storefront/" + c.Shop + "/" + id
	address := map[string]any{"first_name": "Ada", "last_name": "Lovelace", "address_line_1": "1 Main St", "city": "Albany",
		"country": "United States", "country_code": "US", "province": "New York", "province_code": "NY", "postal_code": "12207"}
	c.DoAs(jwt, "POST", base+"/customer/guest", map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email_address": "ada@example.com"}).Want(t, 200)
	c.DoAs(jwt, "POST", base+"/addresses/shipping", address).Want(t, 200)
	c.DoAs(jwt, "POST", base+"/addresses/billing", address).Want(t, 200)
	c.DoAs(jwt, "POST", base+"/shipping_lines", map[string]any{"index": "0"}).Want(t, 200)
	return id, base, jwt
}

func pay(c *checkoutdtest.Checkoutd, base, jwt, gatewayID, token string) checkoutdtest.Response {
	return c.DoAs(jwt, "POST", base+"/payments", map[string]any{"gateway_public_id": gatewayID, "token": token, "currency": "USD",
		"type": "credit_card", "display_string": "Visa ending 4242"})
}

func TestAGuestCheckoutPaidThroughTheExampleIsCapturedAndPartlyRefunded(t *testing.T) {
	checkoutdtest.Each(t, nil, func(t *testing.T, c *checkoutdtest.Checkoutd) {
		g, gatewayID := registered(t, c)
		id, base, jwt := guestCheckout(t, c)
		pay(c, base, jwt, gatewayID, "tok_visa").Want(t, 200)
		state := c.DoAs(jwt, "POST", base+"/process_order", nil).Want(t, 200).Data(t)["application_state"].(map[string]any)
		total := int64(state["order_total"].(float64))
		if state["is_processed"] != true || total != 2*1250+1000 {
			t.Fatalf("processed %v, total %d (two mugs and the new shop's flat shipping rate)", state["is_processed"], total)
		}
		backend := "/checkout/orders/" + c.Shop + "/" + id
		captured := c.Do("POST", backend+"/payments/capture/full", map[string]any{}).Want(t, 200).Data(t)
		if captured["paid_total"].(float64) != float64(total) || captured["amount_remaining"].(float64) != 0 {
			t.Fatalf("capture result %v", captured)
		}
		c.Do("POST", backend+"/refunds", map[string]any{"amount": 500, "reason": "one mug came back broken"}).Want(t, 200)

		g.locked(func() {
			if len(g.auths) != 1 || len(g.captures) != 1 {
				t.Fatalf("the gateway holds %d authorizations and %d captures, want one of each", len(g.auths), len(g.captures))
			}
			for _, a := range g.auths {
				if a.amount != total || a.captured != total || a.currency != "USD" || a.voided {
					t.Fatalf("authorization %+v, want %d captured", a, total)
				}
			}
			for _, cp := range g.captures {
				if cp.refunded != 500 {
					t.Fatalf("capture %+v, want 500 refunded", cp)
				}
			}
		})
	})
}

func TestTheDeclineTokenFailsProcessOrderAndTheConsoleConnectionTestChecksTheToken(t *testing.T) {
	checkoutdtest.Each(t, nil, func(t *testing.T, c *checkoutdtest.Checkoutd) {
		g, gatewayID := registered(t, c)
		_, base, jwt := guestCheckout(t, c)
		pay(c, base, jwt, gatewayID, DeclineToken).Want(t, 200)
		declined := c.DoAs(jwt, "POST", base+"/process_order", nil).Want(t, 422)
		e := declined.FirstError()
		if details, _ := e["details"].(map[string]any); e["type"] != "payment.declined" || details["gateway_error_code"] != "card_declined" {
			t.Fatalf("process_order answered %s, want payment.declined with the gateway's card_declined", declined.Raw)
		}
		g.locked(func() {
			if len(g.auths) != 0 {
				t.Fatalf("a declined card was authorized: %v", g.auths)
			}
		})

		// The console's "Test connection" button.
		ctx := context.Background()
		sh, err := c.Svc.Shops.ShopByIdentifier(ctx, c.Shop)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := c.Svc.Payments.TestExternalPaymentGateway(ctx, sh, gatewayID); err != nil || !res.OK {
			t.Fatalf("connection test with the right api_token: %+v, %v", res, err)
		}
		list := c.Do("GET", "/checkout/shop/"+c.Shop+"/external_payment_gateways", nil).Want(t, 200).Data(t)["external_payment_gateways"].([]any)
		wrong := gatewayConfig(list[0].(map[string]any)["base_url"].(string), "not-the-api-token")
		c.Do("PATCH", "/checkout/shop/"+c.Shop+"/external_payment_gateways/"+gatewayID, wrong).Want(t, 200)
		if res, err := c.Svc.Payments.TestExternalPaymentGateway(ctx, sh, gatewayID); err != nil || res.OK || res.Status != http.StatusUnauthorized {
			t.Fatalf("connection test with a wrong api_token: %+v, %v", res, err)
		}
	})
}
