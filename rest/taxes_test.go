package rest_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

// canadaTaxes gives the shop the zones of docs/taxes.md: GST (all of Canada, shipping taxed),
// British Columbia's PST and an Ontario tax.
func canadaTaxes(t *testing.T, a *api) {
	t.Helper()
	sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range []shops.TaxZoneInput{
		{Name: "GST", CountryCode: "CA", RatePpm: 50_000, ShippingTaxable: true},
		{Name: "BC PST", CountryCode: "CA", ProvinceCode: "BC", RatePpm: 70_000},
		{Name: "Ontario tax", CountryCode: "CA", ProvinceCode: "ON", RatePpm: 80_000},
	} {
		if _, err := a.svc.Shops.CreateTaxZone(context.Background(), sh, z); err != nil {
			t.Fatal(err)
		}
	}
}

func bcAddress() map[string]any {
	return map[string]any{"first_name": "Ada", "last_name": "Lovelace", "address_line_1": "1 Robson St", "city": "Vancouver",
		"country": "Canada", "country_code": "CA", "province": "British Columbia", "province_code": "BC", "postal_code": "V6B 1A1"}
}

func onAddress() map[string]any {
	a := bcAddress()
	a["city"], a["province"], a["province_code"], a["postal_code"] = "Toronto", "Ontario", "ON", "M5V 2T6"
	return a
}

// taxes reads a list of {name, value} tax lines as name -> value.
func taxes(t *testing.T, list any) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, e := range list.([]any) {
		m := e.(map[string]any)
		out[m["name"].(string)] = m["value"].(float64)
	}
	return out
}

func lineByKey(t *testing.T, state map[string]any, key string) map[string]any {
	t.Helper()
	for _, l := range state["line_items"].([]any) {
		if l.(map[string]any)["product_data"].(map[string]any)["line_item_key"] == key {
			return l.(map[string]any)
		}
	}
	t.Fatalf("no line %s in %v", key, state["line_items"])
	return nil
}

func sameTaxes(got map[string]float64, want map[string]float64) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func TestTaxesExistOnlyOnceGenerated(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		before := stateOf(t, storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200))
		if len(before["taxes"].([]any)) != 0 || before["order_total"].(float64) != 4500 {
			t.Fatalf("taxes before Generate Taxes: %v, total %v", before["taxes"], before["order_total"])
		}
		r := storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200)
		if got := taxes(t, r.data(t)["taxes"]); !sameTaxes(got, map[string]float64{"GST": 225, "BC PST": 315}) {
			t.Fatalf("taxes %v", got)
		}
		if stateOf(t, r)["order_total"].(float64) != 4500+225+315 {
			t.Fatalf("total %v", stateOf(t, r)["order_total"])
		}
	})
}

func TestEveryTaxZoneOfTheCountryAndProvinceAppliesAsItsOwnLine(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", onAddress()).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200))
		if got := taxes(t, state["taxes"]); !sameTaxes(got, map[string]float64{"GST": 225, "Ontario tax": 360}) {
			t.Fatalf("order taxes %v", got)
		}
		mug := taxes(t, lineByKey(t, state, "k1")["taxes"])
		if !sameTaxes(mug, map[string]float64{"GST": 125, "Ontario tax": 200}) {
			t.Fatalf("line k1 taxes %v", mug)
		}
	})
}

func TestUpdatingTheAddressKeepsTheTaxBasisUntilTaxesAreGeneratedAgain(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200)
		moved := stateOf(t, storefront(t, a, jwt, "PUT", base+"/addresses/shipping", onAddress()).wantStatus(t, 200))
		if got := taxes(t, moved["taxes"]); !sameTaxes(got, map[string]float64{"GST": 225, "BC PST": 315}) {
			t.Fatalf("taxes changed with the address: %v", got)
		}
		again := stateOf(t, storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200))
		if got := taxes(t, again["taxes"]); !sameTaxes(got, map[string]float64{"GST": 225, "Ontario tax": 360}) {
			t.Fatalf("taxes after generating again: %v", got)
		}
	})
}

func TestTaxesFollowTheLinesAfterTheyAreGenerated(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		catalogVariant(t, a, "cap", "Cap", 1000)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/items", map[string]any{"line_item_key": "k3", "quantity": 1, "platform_id": "cap"}).wantStatus(t, 200))
		if got := taxes(t, lineByKey(t, state, "k3")["taxes"]); !sameTaxes(got, map[string]float64{"GST": 50, "BC PST": 70}) {
			t.Fatalf("new line's taxes %v", got)
		}
		if got := taxes(t, state["taxes"]); !sameTaxes(got, map[string]float64{"GST": 275, "BC PST": 385}) {
			t.Fatalf("order taxes %v", got)
		}
		if state["order_total"].(float64) != 5500+275+385 {
			t.Fatalf("total %v", state["order_total"])
		}
	})
}

func TestTaxesAreGeneratedForTheBillingAddressWhenNothingShips(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		body := map[string]any{"cart_items": []map[string]any{
			{"sku": "EBOOK", "quantity": 1, "line_item_key": "k1", "title": "E-book", "price": 1000, "requires_shipping": false},
		}}
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantStatus(t, 200).data(t)
		id, jwt := d["public_order_id"].(string), d["jwt_token"].(string)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", base+"/addresses/billing", onAddress()).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200))
		if got := taxes(t, state["taxes"]); !sameTaxes(got, map[string]float64{"GST": 50, "Ontario tax": 80}) {
			t.Fatalf("taxes %v, want Ontario's (billing)", got)
		}
	})
}

func TestGenerateTaxesWithoutTheAddressIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/billing", bcAddress()).wantStatus(t, 200)
		e := storefront(t, a, jwt, "POST", base+"/taxes", nil).wantError(t, 422, problem.CodeValidation, "taxes.address_required")
		if e["details"].(map[string]any)["address_type"] != "shipping" {
			t.Fatalf("details %v", e["details"])
		}
	})
}

func TestNonTaxableLinesGetNoTax(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		body := cart()
		body["cart_items"] = append(body["cart_items"].([]map[string]any),
			map[string]any{"sku": "GIFT", "quantity": 1, "line_item_key": "k3", "title": "Gift card", "price": 5000, "taxable": false})
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantStatus(t, 200).data(t)
		id, jwt := d["public_order_id"].(string), d["jwt_token"].(string)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200))
		if n := len(lineByKey(t, state, "k3")["taxes"].([]any)); n != 0 {
			t.Fatalf("non-taxable line has %d taxes", n)
		}
		if got := taxes(t, state["taxes"]); !sameTaxes(got, map[string]float64{"GST": 225, "BC PST": 315}) {
			t.Fatalf("order taxes %v", got)
		}
	})
}

func TestShippingIsTaxedOnlyByZonesThatTaxShipping(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", base+"/shipping_lines", map[string]any{"code": "standard"}).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200))
		if got := taxes(t, state["shipping"].(map[string]any)["taxes"]); !sameTaxes(got, map[string]float64{"GST": 50}) {
			t.Fatalf("shipping taxes %v", got)
		}
		if got := taxes(t, state["taxes"]); !sameTaxes(got, map[string]float64{"GST": 275, "BC PST": 315}) {
			t.Fatalf("order taxes %v", got)
		}
		if state["order_total"].(float64) != 4500+1000+275+315 {
			t.Fatalf("total %v", state["order_total"])
		}
	})
}

func TestTaxesIncludedInPricesAreShownNotAdded(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		sh, _ := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
		if _, err := a.svc.Shops.SetPricesIncludeTax(context.Background(), sh, true); err != nil {
			t.Fatal(err)
		}
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200))
		// 2500 holds 2500*5/112 = 111.6 GST and 2500*7/112 = 156.25 PST; 2000 holds 89.3 and 125.
		if got := taxes(t, state["taxes"]); !sameTaxes(got, map[string]float64{"GST": 112 + 89, "BC PST": 156 + 125}) {
			t.Fatalf("included taxes %v", got)
		}
		for _, tx := range state["taxes"].([]any) {
			if tx.(map[string]any)["is_included"] != true {
				t.Fatalf("tax not marked included: %v", tx)
			}
		}
		if state["order_total"].(float64) != 4500 {
			t.Fatalf("included taxes were added: total %v", state["order_total"])
		}
	})
}

func TestTaxEstimateAnswersTaxesForAnAddressWithoutChangingTheOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		d := storefront(t, a, jwt, "POST", base+"/taxes/estimate", map[string]any{"country_code": "ca", "province_code": "on"}).wantStatus(t, 200).data(t)
		if got := taxes(t, d["taxes"]); !sameTaxes(got, map[string]float64{"GST": 225, "Ontario tax": 360}) {
			t.Fatalf("estimated taxes %v", got)
		}
		if d["tax_total"].(float64) != 585 || d["estimated_total"].(float64) != 4500+585 {
			t.Fatalf("estimate %v", d)
		}
		state := d["application_state"].(map[string]any)
		if len(state["taxes"].([]any)) != 0 || state["order_total"].(float64) != 4500 {
			t.Fatalf("the estimate changed the order: %v", state)
		}
		storefront(t, a, jwt, "POST", base+"/taxes/estimate", map[string]any{"country_code": "ZZ"}).wantError(t, 422, problem.CodeValidation, "address.invalid_address")
	})
}

func TestBackendGenerateTaxesTakesTheAccessToken(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		id, jwt, _ := initOrder(t, a)
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		path := "/checkout/orders/" + a.shop + "/" + id + "/taxes"
		storefront(t, a, jwt, "POST", path, nil).wantStatus(t, 401)
		r := a.do("POST", path, nil).wantStatus(t, 200)
		if got := taxes(t, stateOf(t, r)["taxes"]); !sameTaxes(got, map[string]float64{"GST": 225, "BC PST": 315}) {
			t.Fatalf("taxes %v", got)
		}
	})
}

func TestProcessOrderRefusesTaxesNotGeneratedForTheCurrentAddress(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		sh, _ := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
		if _, err := a.svc.Shops.CreateTaxZone(context.Background(), sh, shops.TaxZoneInput{Name: "NY sales tax", CountryCode: "US", ProvinceCode: "NY", RatePpm: 40_000}); err != nil {
			t.Fatal(err)
		}
		c := readyCheckout(t, a, cart()) // ships to New York
		c.call("POST", "/process_order", nil).wantError(t, 422, problem.CodeValidation, "taxes.not_generated")
		c.call("POST", "/taxes", nil).wantStatus(t, 200)
		nj := usAddress()
		nj["province"], nj["province_code"], nj["city"], nj["postal_code"] = "New Jersey", "NJ", "Newark", "07102"
		c.call("PUT", "/addresses/shipping", nj).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, problem.CodeValidation, "taxes.out_of_date")
	})
}
