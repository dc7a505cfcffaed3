package graph_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/problem"
)

func TestGraphQLCreatesProductsAndUpdatesVariants(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `mutation { createProduct(input: {platformID: "p1", title: "Mug", variants: [
			{platformID: "v1", sku: "MUG-1", price: 1250, inventoryTracked: true, inventoryQuantity: 3}]}) {
			title variants { edges { node { id price inventoryQuantity } } } } }`, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		v := r.Data["createProduct"].(map[string]any)["variants"].(map[string]any)["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)
		up := query(t, url, token, `mutation($id: ID!) { updateVariant(id: $id, input: {price: 1500, inventoryQuantity: 7}) { price inventoryQuantity } }`, map[string]any{"id": v["id"]})
		if len(up.Errors) > 0 || up.Data["updateVariant"].(map[string]any)["price"].(float64) != 1500 {
			t.Fatalf("update %+v", up)
		}
		other := newShop(t, svc, "shop-b")
		denied := query(t, url, other, `mutation($id: ID!) { updateVariant(id: $id, input: {price: 1}) { price } }`, map[string]any{"id": v["id"]})
		wantCode(t, denied, problem.CodeNotFound, "product.variant_not_found")
		bad := query(t, url, token, `mutation { createProduct(input: {platformID: "p2", title: "X", variants: []}) { id } }`, nil)
		wantCode(t, bad, problem.CodeValidation, "product.invalid_product_data")
	})
}

func TestGraphQLConfiguresShippingZones(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `mutation { createShippingZone(input: {name: "EU", countryCodes: ["FR", "DE"], rates: [
			{name: "Colissimo", code: "colissimo", kind: "by_weight", amount: 900, max: 2000}]}) { name countryCodes } }`, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		bad := query(t, url, token, `mutation { createShippingZone(input: {name: "X", countryCodes: ["ZZ"], rates: [{name: "a", code: "a", amount: 1}]}) { name } }`, nil)
		wantCode(t, bad, problem.CodeValidation, "shipping.invalid_zone")
		zones := query(t, url, token, `{ shop { shippingZones { totalCount } } }`, nil)
		if zones.Data["shop"].(map[string]any)["shippingZones"].(map[string]any)["totalCount"].(float64) != 2 {
			t.Fatalf("zones %+v", zones)
		}
	})
}

func TestGraphQLProductsTakeTheRESTListsFilterAndSearch(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		for i, title := range []string{"Green Tea", "Black Tea", "Tea Cup"} {
			r := query(t, url, token, `mutation($in: ProductInput!) { createProduct(input: $in) { id } }`, map[string]any{"in": map[string]any{
				"platformID": fmt.Sprint("p", i), "title": title, "vendor": []string{"Leafworks", "Leafworks", "Claymakers"}[i],
				"variants": []map[string]any{{"platformID": fmt.Sprint("v", i), "sku": fmt.Sprint("SKU-", i), "price": 100 * (i + 1)}}}})
			must(t, r)
		}
		const products = `query($f: String, $c: String, $v: String) { products(first: 10, orderBy: {field: TITLE}, filter: $f, filterColumn: $c, filterValue: $v) {
			totalCount edges { node { title } } } }`
		titles := func(vars map[string]any) []string {
			t.Helper()
			conn := must(t, query(t, url, token, products, vars))["products"].(map[string]any)
			var out []string
			for _, e := range conn["edges"].([]any) {
				out = append(out, e.(map[string]any)["node"].(map[string]any)["title"].(string))
			}
			if conn["totalCount"].(float64) != float64(len(out)) {
				t.Fatalf("totalCount %v for %v", conn["totalCount"], out)
			}
			return out
		}
		for _, c := range []struct {
			vars map[string]any
			want string
		}{
			{map[string]any{"f": "eq(vendor:Leafworks)"}, "[Black Tea Green Tea]"},
			{map[string]any{"f": "eq(vendor:Leafworks)+like(name:g*)"}, "[Green Tea]"},
			{map[string]any{"c": "name", "v": "CUP"}, "[Tea Cup]"},
			{map[string]any{"c": "name", "v": "Gren"}, "[Green Tea]"},
			{map[string]any{"c": "sku", "v": "SKU-1"}, "[Black Tea]"},
		} {
			if got := fmt.Sprint(titles(c.vars)); got != c.want {
				t.Errorf("%v: %s, want %s", c.vars, got, c.want)
			}
		}
		bad := query(t, url, token, products, map[string]any{"f": "eq(colour:red)"})
		wantCode(t, bad, problem.CodeBadRequest, "filter.invalid")
		if !strings.Contains(fmt.Sprint(bad.Errors), "colour") {
			t.Fatalf("the error does not name the column: %v", bad.Errors)
		}
		other := newShop(t, svc, "shop-b")
		none := must(t, query(t, url, other, products, nil))["products"].(map[string]any)
		if none["totalCount"].(float64) != 0 {
			t.Fatalf("shop-b sees shop-a's products: %v", none)
		}
	})
}
