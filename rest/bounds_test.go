package rest_test

import (
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/input"
)

func TestInitRefusesAPriceOrQuantityThatCouldOverflowATotal(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		path := "/checkout/orders/" + a.shop + "/init"
		line := func(price any, quantity any) map[string]any {
			return map[string]any{"sku": "X", "title": "X", "price": price, "quantity": quantity, "line_item_key": "x"}
		}
		for _, items := range [][]map[string]any{
			{line(int64(9223372036854775807), 2)},
			{line(int64(input.MaxAmount)+1, 1)},
			{line(-1, 1)},
			{line(100, -1)},
			{line(100, input.MaxQuantity+1)},
		} {
			a.do("POST", path, map[string]any{"cart_items": items}).wantError(t, 422, "02-22", "order.invalid_cart_items")
		}
		two := []map[string]any{line(int64(input.MaxAmount), input.MaxQuantity), line(int64(input.MaxAmount), input.MaxQuantity)}
		two[1]["line_item_key"] = "y"
		e := a.do("POST", path, map[string]any{"cart_items": two}).wantError(t, 422, "02-22", "order.total_too_large")
		if e["details"].(map[string]any)["max_subtotal"].(float64) != input.MaxOrderSubtotal {
			t.Fatalf("details %v", e["details"])
		}
		n, err := a.svc.Client().Order.Query().Count(t.Context())
		if err != nil || n != 0 {
			t.Fatalf("refused inits left %d orders (%v)", n, err)
		}
	})
}

func TestAStorefrontCannotTakeAnOrderPastTheLargestSubtotal(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		catalogVariant(t, a, "yacht", "Yacht", input.MaxAmount)
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/items"
		storefront(t, a, jwt, "POST", path, map[string]any{"platform_id": "yacht", "quantity": 999, "line_item_key": "y"}).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", path, map[string]any{"platform_id": "yacht", "quantity": 1, "line_item_key": "y"}).wantError(t, 422, "02-22", "order.total_too_large")
		storefront(t, a, jwt, "PUT", path, map[string]any{"line_item_key": "y", "quantity": input.MaxQuantity}).wantError(t, 422, "02-22", "order.total_too_large")
		state := stateOf(t, storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/refresh", nil).wantStatus(t, 200))
		if total := int64(state["order_total"].(float64)); total < 999*input.MaxAmount || total > input.MaxOrderSubtotal+10000 {
			t.Fatalf("total %d", total)
		}
	})
}

func TestOrderTextsHaveAMaximumLength(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		long := strings.Repeat("é", input.MaxShortText+1)
		huge := strings.Repeat("n", input.MaxLongText+1)
		storefront(t, a, jwt, "POST", base+"/customer/guest", map[string]any{"first_name": long, "last_name": "L", "email_address": "a@example.com"}).
			wantError(t, 422, "02-22", "customer.invalid_customer_data")
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", map[string]any{"country_code": "US", "province_code": "NY", "address_line_1": long}).
			wantError(t, 422, "02-22", "address.invalid_address")
		storefront(t, a, jwt, "PATCH", base+"/meta_data", map[string]any{"notes": huge}).wantError(t, 422, "02-22", "order.invalid_meta_data")
		storefront(t, a, jwt, "PATCH", base+"/meta_data", map[string]any{"tags": []string{long}}).wantError(t, 422, "02-22", "order.invalid_meta_data")
		storefront(t, a, jwt, "POST", base+"/items", map[string]any{"sku": "MUG-1", "quantity": 1, "line_item_key": long}).wantError(t, 422, "02-22", "line_item.invalid_line_item")
		storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": huge}).wantError(t, 422, "02-22", "request.text_too_long")
		storefront(t, a, jwt, "GET", base+"/validate_email_address?email_address="+strings.Repeat("a", 300)+"@example.com", nil).wantStatus(t, 422)
		state := stateOf(t, storefront(t, a, jwt, "GET", base+"/refresh", nil).wantStatus(t, 200))
		if c, ok := state["customer"].([]any); !ok || len(c) != 0 {
			t.Fatalf("customer %v", state["customer"])
		}
		if state["order_meta_data"].(map[string]any)["notes"] != "" || len(state["line_items"].([]any)) != 2 {
			t.Fatalf("refused changes were kept: %v", state)
		}
		// The largest texts allowed are taken.
		storefront(t, a, jwt, "PATCH", base+"/meta_data", map[string]any{"notes": huge[1:]}).wantStatus(t, 200)
	})
}

func TestALineReturnsToStockAtMostTheUnitsSoldOnIt(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		lampsInStock(t, a, 5)
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		c := readyCheckout(t, a, map[string]any{"cart_items": []map[string]any{{"sku": "LAMP", "quantity": 1, "line_item_key": "lamp"}}})
		c.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		p := &processed{checkout: c, total: c.total(), backend: "/checkout/orders/" + a.shop + "/" + c.id}
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		five := []map[string]any{}
		for range 5 {
			five = append(five, map[string]any{"line_item_key": "lamp", "quantity": 1})
		}
		p.post("/refunds", map[string]any{"amount": 1, "line_items": five}, "").wantError(t, 422, "02-22", "refund.invalid_refund")
		p.post("/refunds", map[string]any{"amount": 1, "line_items": []map[string]any{{"line_item_key": "lamp", "quantity": 2}}}, "").wantError(t, 422, "02-22", "refund.invalid_restock")
		p.post("/refunds", map[string]any{"amount": 1, "line_items": []map[string]any{{"line_item_key": "lamp", "quantity": 1}}}, "").wantStatus(t, 200)
		for range 3 {
			p.post("/refunds", map[string]any{"amount": 1, "line_items": []map[string]any{{"line_item_key": "lamp", "quantity": 1}}}, "").wantError(t, 422, "02-22", "refund.invalid_restock")
		}
		if v, err := a.svc.Client().Variant.Query().Only(t.Context()); err != nil || v.InventoryQuantity != 5 {
			t.Fatalf("stock %d (%v) after one unit sold and returned, want 5", v.InventoryQuantity, err)
		}
		if refunded := p.ledger(paymenttransaction.KindRefund, paymenttransaction.StatusSucceeded); refunded != 1 {
			t.Fatalf("refunded %d, want 1: a refused restock refunds nothing", refunded)
		}
	})
}
