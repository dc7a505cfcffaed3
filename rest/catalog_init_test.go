package rest_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/catalog"
)

func TestInitResolvesCartItemsFromTheCatalogByPlatformIDOrSKU(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.svc.Catalog.CreateProduct(context.Background(), sh, catalog.ProductInput{PlatformID: "p1", Title: "Mug", Vendor: "Acme",
			Variants: []catalog.VariantInput{{PlatformID: "v1", SKU: "MUG-1", Price: 1250, Weight: 300}}}); err != nil {
			t.Fatal(err)
		}
		body := map[string]any{"cart_items": []map[string]any{
			{"platform_id": "v1", "quantity": 2, "line_item_key": "a"},
			{"sku": "MUG-1", "quantity": 1, "line_item_key": "b"},
		}}
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantStatus(t, 200).data(t)
		state := d["application_state"].(map[string]any)
		if state["order_total"].(float64) != 3750 {
			t.Fatalf("total %v", state["order_total"])
		}
		pd := state["line_items"].([]any)[0].(map[string]any)["product_data"].(map[string]any)
		if pd["title"] != "Mug" || pd["product_id"] != "p1" || pd["variant_id"] != "v1" || pd["vendor"] != "Acme" || pd["total_weight"].(float64) != 600 {
			t.Fatalf("product data %v", pd)
		}
	})
}
