package main

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/examples/internal/checkoutdtest"
	"github.com/checkoutd/checkoutd/service/hmacsig"
)

const secret = "example-override-secret"

func started(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(newServer(secret, slog.New(slog.NewTextHandler(io.Discard, nil))))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestACallSignedWithAnotherSecretIsRefused(t *testing.T) {
	url := started(t)
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"override_type":"tax","order":{"line_items":[]}}`))
	hmacsig.Sign(req.Header, []byte("not-the-secret"), time.Now())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", res.StatusCode)
	}
	req, _ = http.NewRequest("POST", url, bytes.NewReader([]byte(`{"override_type":"tax","order":{"line_items":[]}}`)))
	hmacsig.Sign(req.Header, []byte(secret), time.Now())
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200 for a call signed with the secret", res.StatusCode)
	}
}

// This test runs checkoutd itself (its REST API, on each database) and registers the example
// as README.md tells a shop to: the calls are checkoutd's own.
func TestCheckoutdPricesAnOrderWithTheExamplesShippingDiscountAndTaxes(t *testing.T) {
	checkoutdtest.Each(t, nil, func(t *testing.T, c *checkoutdtest.Checkoutd) {
		url := started(t)
		shop := "/checkout/shop/" + c.Shop
		for _, typ := range []string{"address_validate", "shipping", "discount", "tax"} {
			c.Do("POST", shop+"/overrides", map[string]any{"override_type": typ, "url": url, "shared_secret": secret}).Want(t, 200)
		}
		init := c.Do("POST", "/checkout/orders/"+c.Shop+"/init", map[string]any{"cart_items": []map[string]any{
			{"sku": "MUG-1", "quantity": 2, "line_item_key": "mug", "title": "Mug", "price": 1250}}}).Want(t, 200).Data(t)
		order, jwt := init["public_order_id"].(string), init["jwt_token"].(string)
		front := "/checkout/storefront/" + c.Shop + "/" + order

		c.DoAs(jwt, "POST", front+"/addresses/shipping", map[string]any{"country_code": "US", "province_code": "NY",
			"postal_code": "12207", "address_line_1": "PO Box 12"}).Want(t, 422)
		c.DoAs(jwt, "POST", front+"/addresses/shipping", map[string]any{"country_code": "US", "province_code": "NY",
			"postal_code": "12207", "address_line_1": "1 Main St"}).Want(t, 200)
		c.DoAs(jwt, "POST", front+"/shipping_lines", map[string]any{"index": "standard"}).Want(t, 200)
		c.DoAs(jwt, "POST", front+"/discounts", map[string]any{"code": "welcome"}).Want(t, 200)
		state := c.DoAs(jwt, "POST", front+"/taxes", nil).Want(t, 200).Data(t)["application_state"].(map[string]any)
		// 2500 of mugs, 250 off, 500 standard shipping, 8% of 2250 and of 500.
		if total := state["order_total"].(float64); total != 2500-250+500+180+40 {
			t.Fatalf("order_total %v; state %v", total, state)
		}
	})
}
