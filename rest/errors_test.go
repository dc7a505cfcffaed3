package rest_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent/order"
)

// Storefronts built on the public frontend library read field, severity, sub_type and
// address_type from every error; frontend_library_test.go runs the library itself.

func TestStorefrontErrorsCarryFieldSeveritySubTypeAndAddressType(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id

		body := usAddress()
		body["postal_code"] = "ABCDE"
		e := storefront(t, a, jwt, "POST", base+"/addresses/billing", body).wantError(t, 422, "", "address.invalid_address")
		if e["field"] != "postal_code" || e["severity"] != "validation" || e["sub_type"] != "billing_address" || e["address_type"] != "billing" {
			t.Fatalf("address error %v", e)
		}

		bad := guest()
		bad["email_address"] = "nope"
		e = storefront(t, a, jwt, "POST", base+"/customer/guest", bad).wantError(t, 422, "", "customer.invalid_customer_data")
		if e["field"] != "email_address" || e["severity"] != "validation" || e["sub_type"] != "email_address" {
			t.Fatalf("customer error %v", e)
		}
		if _, ok := e["address_type"]; ok {
			t.Fatalf("a customer error carries address_type: %v", e)
		}

		e = storefront(t, a, jwt, "PUT", base+"/items", map[string]any{"line_item_key": "nope", "quantity": 1}).wantError(t, 422, "", "line_item.not_found")
		if e["field"] != "line_item_key" || e["sub_type"] != "cart" {
			t.Fatalf("line item error %v", e)
		}

		e = storefront(t, a, "not-a-jwt", "GET", base+"/refresh", nil).wantError(t, 401, "", "auth.unauthorized")
		for _, k := range []string{"field", "severity", "sub_type"} {
			if _, ok := e[k]; !ok {
				t.Fatalf("401 lacks %s: %v", k, e)
			}
		}
		if e["severity"] != "critical" {
			t.Fatalf("401 severity %v, want critical", e["severity"])
		}
	})
}

func TestChangingAProcessedOrderNamesTheFieldIsProcessed(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		if err := a.svc.Client().Order.Update().Where(order.PublicOrderID(id)).SetStatus(order.StatusProcessed).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		e := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/customer/guest", guest()).wantError(t, 422, "", "order.not_open")
		if e["field"] != "is_processed" {
			t.Fatalf("error on a processed order %v", e)
		}
	})
}

func TestProcessOrderRefusalsNameTheirCheckoutArea(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/process_order"
		e := storefront(t, a, jwt, "POST", path, nil).wantError(t, 422, "", "order.no_customer")
		if e["field"] != "customer" || e["sub_type"] != "customer" || e["severity"] != "validation" {
			t.Fatalf("no customer: %v", e)
		}
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/customer/guest", guest()).wantStatus(t, 200)
		e = storefront(t, a, jwt, "POST", path, nil).wantError(t, 422, "", "order.no_shipping_address")
		if e["sub_type"] != "shipping_address" {
			t.Fatalf("no shipping address: %v", e)
		}
	})
}
