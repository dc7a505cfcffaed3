package graph_test

import (
	"testing"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/problem"
)

func TestGraphQLConfiguresTaxZones(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `mutation { createTaxZone(input: {name: "GST", countryCode: "ca", ratePpm: 50000, shippingTaxable: true}) {
			id name countryCode provinceCode ratePpm shippingTaxable } }`, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		z := r.Data["createTaxZone"].(map[string]any)
		if z["countryCode"] != "CA" || z["provinceCode"] != "" || z["ratePpm"].(float64) != 50000 || z["shippingTaxable"] != true {
			t.Fatalf("zone %v", z)
		}
		up := query(t, url, token, `mutation($id: ID!) { updateTaxZone(id: $id, input: {ratePpm: 60000, provinceCode: "BC"}) { ratePpm provinceCode name } }`,
			map[string]any{"id": z["id"]})
		if len(up.Errors) > 0 || up.Data["updateTaxZone"].(map[string]any)["ratePpm"].(float64) != 60000 || up.Data["updateTaxZone"].(map[string]any)["name"] != "GST" {
			t.Fatalf("update %+v", up)
		}
		bad := query(t, url, token, `mutation { createTaxZone(input: {name: "X", countryCode: "CA", provinceCode: "NY", ratePpm: 2000000}) { id } }`, nil)
		wantCode(t, bad, problem.CodeValidation, "tax.invalid_tax_zone")
		list := query(t, url, token, `{ shop { taxZones { totalCount } } }`, nil)
		if list.Data["shop"].(map[string]any)["taxZones"].(map[string]any)["totalCount"].(float64) != 1 {
			t.Fatalf("list %+v", list)
		}
		del := query(t, url, token, `mutation($id: ID!) { deleteTaxZone(id: $id) }`, map[string]any{"id": z["id"]})
		if len(del.Errors) > 0 || del.Data["deleteTaxZone"] != true {
			t.Fatalf("delete %+v", del)
		}
	})
}

func TestGraphQLConfiguresDiscountCodes(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `mutation { createDiscountCode(input: {code: "summer-10", kind: percentage, value: 1000,
			minimumSubtotal: 5000, usageLimit: 100, endsAt: "2031-01-01T00:00:00Z"}) { id code kind value usageLimit usageCount endsAt } }`, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		dc := r.Data["createDiscountCode"].(map[string]any)
		if dc["code"] != "SUMMER-10" || dc["kind"] != "percentage" || dc["usageCount"].(float64) != 0 {
			t.Fatalf("code %v", dc)
		}
		again := query(t, url, token, `mutation { createDiscountCode(input: {code: "Summer-10", kind: free_shipping}) { id } }`, nil)
		wantCode(t, again, problem.CodeValidation, "discount.code_taken")
		bad := query(t, url, token, `mutation { createDiscountCode(input: {code: "BIG", kind: percentage, value: 20000}) { id } }`, nil)
		wantCode(t, bad, problem.CodeValidation, "discount.invalid_discount_code_data")
		up := query(t, url, token, `mutation($id: ID!) { updateDiscountCode(id: $id, input: {kind: fixed_amount, value: 500, endsAt: null}) { kind value endsAt usageLimit } }`,
			map[string]any{"id": dc["id"]})
		got := up.Data["updateDiscountCode"].(map[string]any)
		if len(up.Errors) > 0 || got["kind"] != "fixed_amount" || got["value"].(float64) != 500 || got["endsAt"] != nil || got["usageLimit"].(float64) != 100 {
			t.Fatalf("update %+v", up)
		}
		list := query(t, url, token, `{ shop { discountCodes(where: {code: "SUMMER-10"}) { totalCount } } }`, nil)
		if list.Data["shop"].(map[string]any)["discountCodes"].(map[string]any)["totalCount"].(float64) != 1 {
			t.Fatalf("list %+v", list)
		}
		del := query(t, url, token, `mutation($id: ID!) { deleteDiscountCode(id: $id) }`, map[string]any{"id": dc["id"]})
		if len(del.Errors) > 0 || del.Data["deleteDiscountCode"] != true {
			t.Fatalf("delete %+v", del)
		}
	})
}

func TestGraphQLSetsWhetherPricesIncludeTax(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `mutation { setPricesIncludeTax(pricesIncludeTax: true) { pricesIncludeTax } }`, nil)
		if len(r.Errors) > 0 || r.Data["setPricesIncludeTax"].(map[string]any)["pricesIncludeTax"] != true {
			t.Fatalf("answer %+v", r)
		}
		shop := query(t, url, token, `{ shop { pricesIncludeTax } }`, nil)
		if shop.Data["shop"].(map[string]any)["pricesIncludeTax"] != true {
			t.Fatalf("shop %+v", shop)
		}
	})
}

func TestAnotherShopsTaxZonesAndDiscountCodesAreNotFound(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		tokenA := newShop(t, svc, "shop-a")
		tokenB := newShop(t, svc, "shop-b")
		z := query(t, url, tokenA, `mutation { createTaxZone(input: {name: "GST", countryCode: "CA", ratePpm: 50000}) { id } }`, nil).Data["createTaxZone"].(map[string]any)
		dc := query(t, url, tokenA, `mutation { createDiscountCode(input: {code: "A", kind: free_shipping}) { id } }`, nil).Data["createDiscountCode"].(map[string]any)

		wantCode(t, query(t, url, tokenB, `mutation($id: ID!) { updateTaxZone(id: $id, input: {ratePpm: 1}) { id } }`, map[string]any{"id": z["id"]}),
			problem.CodeNotFound, "tax.zone_not_found")
		wantCode(t, query(t, url, tokenB, `mutation($id: ID!) { deleteTaxZone(id: $id) }`, map[string]any{"id": z["id"]}),
			problem.CodeNotFound, "tax.zone_not_found")
		wantCode(t, query(t, url, tokenB, `mutation($id: ID!) { updateDiscountCode(id: $id, input: {text: "x"}) { id } }`, map[string]any{"id": dc["id"]}),
			problem.CodeNotFound, "discount.code_not_found")
		wantCode(t, query(t, url, tokenB, `mutation($id: ID!) { deleteDiscountCode(id: $id) }`, map[string]any{"id": dc["id"]}),
			problem.CodeNotFound, "discount.code_not_found")
		for _, id := range []any{z["id"], dc["id"]} {
			if n := query(t, url, tokenB, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id}); n.Data["node"] != nil {
				t.Fatalf("shop B read shop A's object: %+v", n)
			}
			if n := query(t, url, tokenA, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id}); n.Data["node"] == nil {
				t.Fatalf("shop A cannot read its own object: %+v", n)
			}
		}
	})
}
