package rest_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent/shippingrate"
	"github.com/checkoutd/checkoutd/service/shops"
)

func shippingLineCodes(t *testing.T, state map[string]any) map[string]float64 {
	out := map[string]float64{}
	for _, l := range state["shipping"].(map[string]any)["available_shipping_lines"].([]any) {
		m := l.(map[string]any)
		out[m["code"].(string)] = m["amount"].(float64)
		if m["line"].(map[string]any)["code"] != m["code"] {
			t.Fatalf("line and top-level fields differ: %v", m)
		}
	}
	return out
}

func TestNewShopShipsEverywhereAtAFlatStandardRate(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		empty := stateOf(t, storefront(t, a, jwt, "GET", base+"/shipping_lines", nil).wantStatus(t, 200))
		if len(shippingLineCodes(t, empty)) != 0 {
			t.Fatalf("lines offered before an address: %v", empty["shipping"])
		}
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", usAddress()).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "GET", base+"/shipping_lines", nil).wantStatus(t, 200))
		if got := shippingLineCodes(t, state); got["standard"] != 1000 {
			t.Fatalf("lines %v", got)
		}
		sel := stateOf(t, storefront(t, a, jwt, "POST", base+"/shipping_lines", map[string]any{"index": 0}).wantStatus(t, 200))
		if sel["order_total"].(float64) != 4500+1000 || sel["shipping"].(map[string]any)["selected_shipping"].(map[string]any)["code"] != "standard" {
			t.Fatalf("after select: total %v, shipping %v", sel["order_total"], sel["shipping"])
		}
		storefront(t, a, jwt, "POST", base+"/shipping_lines", map[string]any{"code": "nope"}).wantError(t, 422, "", "shipping.line_not_available")
	})
}

func TestShippingRatesBySubtotalByWeightAndFreeAbove(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		sh, _ := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
		_, err := a.svc.Shops.CreateShippingZone(context.Background(), sh, shops.ShippingZoneInput{Name: "US", CountryCodes: []string{"us"}, Rates: []shops.ShippingRateInput{
			{Name: "Small order", Code: "small", Kind: shippingrate.KindBySubtotal, Amount: 700, Min: 0, Max: 3000},
			{Name: "Big order", Code: "big", Kind: shippingrate.KindBySubtotal, Amount: 300, Min: 3001},
			{Name: "Heavy", Code: "heavy", Kind: shippingrate.KindByWeight, Amount: 2500, Min: 5000},
			{Name: "Express", Code: "express", Kind: shippingrate.KindFlat, Amount: 2000, FreeAbove: 4000},
		}})
		if err != nil {
			t.Fatal(err)
		}
		id, jwt, _ := initOrder(t, a) // subtotal 4500, weight 0
		base := "/checkout/storefront/" + a.shop + "/" + id
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/addresses/shipping", usAddress()).wantStatus(t, 200))
		got := shippingLineCodes(t, state)
		want := map[string]float64{"standard": 1000, "big": 300, "express": 0}
		if len(got) != len(want) {
			t.Fatalf("lines %v, want %v", got, want)
		}
		for code, amount := range want {
			if got[code] != amount {
				t.Fatalf("lines %v, want %v", got, want)
			}
		}
		ca := usAddress()
		ca["country_code"], ca["country"], ca["province_code"], ca["province"], ca["postal_code"] = "CA", "Canada", "ON", "Ontario", "M5V 2T6"
		caState := stateOf(t, storefront(t, a, jwt, "POST", base+"/addresses/shipping", ca).wantStatus(t, 200))
		if lines := shippingLineCodes(t, caState); len(lines) != 1 || lines["standard"] != 1000 {
			t.Fatalf("Canada gets US rates: %v", lines)
		}
	})
}

func TestShippingLinesEstimateLeavesTheOrderUnchanged(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		d := storefront(t, a, jwt, "POST", base+"/shipping_lines/estimate", usAddress()).wantStatus(t, 200).data(t)
		lines := d["shipping_lines"].([]any)
		if len(lines) != 1 {
			t.Fatalf("estimated lines %v", lines)
		}
		l := lines[0].(map[string]any)
		if l["code"] != "standard" || l["amount"].(float64) != 1000 || l["line"].(map[string]any)["id"] != l["id"] {
			t.Fatalf("estimated line %v", l)
		}
		state := d["application_state"].(map[string]any)
		if len(state["shipping"].(map[string]any)["available_shipping_lines"].([]any)) != 0 {
			t.Fatalf("estimate offered lines on the order: %v", state["shipping"])
		}
		after := stateOf(t, storefront(t, a, jwt, "GET", base+"/refresh", nil).wantStatus(t, 200))
		if addr, ok := after["addresses"].(map[string]any)["shipping"].([]any); !ok || len(addr) != 0 {
			t.Fatalf("estimate set the shipping address: %v", after["addresses"])
		}
		bad := usAddress()
		bad["country_code"] = "XX"
		e := storefront(t, a, jwt, "POST", base+"/shipping_lines/estimate", bad).wantError(t, 422, "", "address.invalid_address")
		if e["address_type"] != "shipping" {
			t.Fatalf("estimate error %v", e)
		}
	})
}
