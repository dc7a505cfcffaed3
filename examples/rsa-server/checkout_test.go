package main

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/examples/internal/checkoutdtest"
)

// A guest checkout in a shop whose remote state authority is the example: its shipping options,
// discount, taxes and handling fee make the order's total, and it refuses what it refuses.
func TestACheckoutUnderTheExampleRSA(t *testing.T) {
	checkoutdtest.Each(t, nil, func(t *testing.T, c *checkoutdtest.Checkoutd) {
		const secret = "example-rsa-secret"
		rsaSrv := httptest.NewServer(newAuthority(secret, slog.New(slog.NewTextHandler(io.Discard, nil))))
		t.Cleanup(rsaSrv.Close)
		c.Do("POST", "/checkout/shop/"+c.Shop+"/rsa_config", map[string]any{"url": rsaSrv.URL, "shared_secret": secret}).Want(t, 200)
		d := c.Do("POST", "/checkout/orders/"+c.Shop+"/init", map[string]any{"cart_items": []map[string]any{
			{"sku": "MUG", "quantity": 2, "line_item_key": "mug", "title": "Mug", "price": 1000, "requires_shipping": true},
		}}).Want(t, 200).Data(t)
		jwt, base := d["jwt_token"].(string), "/checkout/storefront/"+c.Shop+"/"+d["public_order_id"].(string)
		address := map[string]any{"first_name": "Ada", "last_name": "L", "address_line_1": "1 Main St", "city": "Albany",
			"country": "United States", "country_code": "US", "province": "New York", "province_code": "NY", "postal_code": "12207"}
		c.DoAs(jwt, "POST", base+"/customer/guest", map[string]any{"first_name": "Ada", "last_name": "L", "email_address": "ada@example.com"}).Want(t, 200)
		c.DoAs(jwt, "POST", base+"/addresses/shipping", address).Want(t, 200)
		c.DoAs(jwt, "POST", base+"/shipping_lines", map[string]any{"code": "express"}).Want(t, 200)
		c.DoAs(jwt, "POST", base+"/discounts", map[string]any{"code": "SAVE10"}).Want(t, 200)
		state := c.DoAs(jwt, "POST", base+"/taxes", nil).Want(t, 200).Data(t)["application_state"].(map[string]any)
		// 2 × 10.00 less 10% is 18.00; express 15.00; 8% tax on 18.00 and on 15.00 is 2.64; handling 1.50.
		if got := state["order_total"].(float64); got != 1800+1500+264+150 {
			t.Fatalf("order total %v, want 3714", got)
		}
		bad := c.DoAs(jwt, "POST", base+"/discounts", map[string]any{"code": "NOPE"})
		if bad.Status != 422 || !strings.Contains(bad.Raw, "unknown discount code") {
			t.Fatalf("unknown code: %d %s", bad.Status, bad.Raw)
		}
	})
}
