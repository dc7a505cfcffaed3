package rest_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

func cart() map[string]any {
	return map[string]any{"cart_items": []map[string]any{
		{"sku": "MUG-1", "quantity": 2, "line_item_key": "k1", "title": "Mug", "price": 1250},
		{"sku": "TEE-1", "quantity": 1, "line_item_key": "k2", "title": "T-shirt", "price": 2000, "requires_shipping": true},
	}}
}

// initOrder starts an order and returns its public id and JWT.
func initOrder(t *testing.T, a *api) (string, string, map[string]any) {
	t.Helper()
	d := a.do("POST", "/checkout/orders/"+a.shop+"/init", cart()).wantStatus(t, 200).data(t)
	return d["public_order_id"].(string), d["jwt_token"].(string), d
}

// storefront calls a storefront path with the order JWT instead of the access token.
func storefront(t *testing.T, a *api, jwt, method, path string, body any) response {
	t.Helper()
	return a.doAs(jwt, method, path, body)
}

func TestInitOrderAnswersTokenInitialDataAndApplicationState(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, d := initOrder(t, a)
		if id == "" || jwt == "" {
			t.Fatalf("init %v", d)
		}
		state := d["application_state"].(map[string]any)
		if state["order_total"].(float64) != 4500 || len(state["line_items"].([]any)) != 2 {
			t.Fatalf("state %v", state)
		}
		for _, k := range []string{"customer", "addresses", "line_items", "taxes", "discounts", "payments", "order_meta_data", "shipping", "currency"} {
			if state[k] == nil {
				t.Fatalf("application_state lacks %s", k)
			}
		}
		initial := d["initial_data"].(map[string]any)
		if initial["shop_name"] != "Shop A" || initial["requires_shipping"] != true {
			t.Fatalf("initial_data %v", initial)
		}
		var us map[string]any
		for _, c := range initial["country_info"].([]any) {
			if c.(map[string]any)["iso_code"] == "US" {
				us = c.(map[string]any)
			}
		}
		if us == nil || len(us["provinces"].([]any)) < 50 {
			t.Fatalf("country_info lacks the US and its states: %v", us)
		}
	})
}

func TestInitOrderWithUnknownProductIs422NamingTheLine(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := map[string]any{"cart_items": []map[string]any{{"sku": "NOPE", "quantity": 1, "line_item_key": "k1"}}}
		e := a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantError(t, 422, "", "order.unknown_product")
		if e["details"].(map[string]any)["cart_items[0]"] == nil {
			t.Fatalf("details do not name the line: %v", e)
		}
	})
}

func TestOrderJWTOpensItsOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/refresh"
		storefront(t, a, jwt, "GET", path, nil).wantStatus(t, 200)
		// The spec's bare form, without "Bearer".
		a.header = map[string][]string{}
		saved := a.token
		a.token = ""
		a.header.Set("Authorization", jwt)
		r := a.do("GET", path, nil)
		a.header, a.token = nil, saved
		r.wantStatus(t, 200)
	})
}

func TestOrderJWTNeverOpensAnotherOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		_, jwt1, _ := initOrder(t, a)
		id2, _, _ := initOrder(t, a)
		storefront(t, a, jwt1, "GET", "/checkout/storefront/"+a.shop+"/"+id2+"/refresh", nil).wantError(t, 401, "", "auth.unauthorized")
	})
}

func TestExpiredOrderJWTIs401(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		a.clock.Advance(61 * time.Minute)
		e := storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/refresh", nil).wantError(t, 401, "", "auth.token_expired")
		if e["message"] != "Expired JWT" {
			t.Fatalf("message %q: storefront templates look for %q", e["message"], "Expired JWT")
		}
	})
}

func TestTamperedOrAlgNoneJWTIs401(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/refresh"
		parts := strings.Split(jwt, ".")
		tampered := parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2]))
		storefront(t, a, tampered, "GET", path, nil).wantStatus(t, 401)
		none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
		storefront(t, a, none, "GET", path, nil).wantStatus(t, 401)
		storefront(t, a, "", "GET", path, nil).wantStatus(t, 401)
	})
}

func TestResumeOrderGivesAFreshWorkingToken(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, _, _ := initOrder(t, a)
		a.clock.Advance(61 * time.Minute)
		d := a.do("POST", "/checkout/orders/"+a.shop+"/resume", map[string]string{"public_order_id": id}).wantStatus(t, 200).data(t)
		storefront(t, a, d["jwt_token"].(string), "GET", "/checkout/storefront/"+a.shop+"/"+id+"/refresh", nil).wantStatus(t, 200)
		a.do("POST", "/checkout/orders/"+a.shop+"/resume", map[string]string{"public_order_id": "nope"}).wantError(t, 404, "", "order.not_found")
	})
}
