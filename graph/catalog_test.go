package graph_test

import (
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
