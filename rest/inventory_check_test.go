package rest_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/catalog"
)

// stockedCatalog adds a tracked mug (3 in stock), a tracked cap that is sold out, and an
// untracked poster.
func stockedCatalog(t *testing.T, a *api) {
	t.Helper()
	ctx := context.Background()
	sh, err := a.svc.Shops.ShopByIdentifier(ctx, a.shop)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []catalog.ProductInput{
		{PlatformID: "p-mug", Title: "Mug", Variants: []catalog.VariantInput{{PlatformID: "v-mug", SKU: "MUG", Price: 1000, InventoryTracked: true, InventoryQuantity: 3}}},
		{PlatformID: "p-cap", Title: "Cap", Variants: []catalog.VariantInput{{PlatformID: "v-cap", SKU: "CAP", Price: 1500, InventoryTracked: true, InventoryQuantity: 0}}},
		{PlatformID: "p-poster", Title: "Poster", Variants: []catalog.VariantInput{{PlatformID: "v-poster", SKU: "POSTER", Price: 500}}},
	} {
		if _, err := a.svc.Catalog.CreateProduct(ctx, sh, p); err != nil {
			t.Fatal(err)
		}
	}
}

func initCart(t *testing.T, a *api, items ...map[string]any) (string, string) {
	t.Helper()
	d := a.do("POST", "/checkout/orders/"+a.shop+"/init", map[string]any{"cart_items": items}).wantStatus(t, 200).data(t)
	return d["public_order_id"].(string), d["jwt_token"].(string)
}

func inventoryCheck(t *testing.T, a *api, id, jwt, stage string) map[string]any {
	t.Helper()
	d := storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/check_inventory?stage="+stage, nil).wantStatus(t, 200).data(t)
	if d["application_state"] == nil {
		t.Fatalf("check_inventory answers no application_state: %v", d)
	}
	return d["inventory_check"].(map[string]any)
}

func TestCheckInventoryPassesWhenTrackedVariantsHaveStock(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stockedCatalog(t, a)
		id, jwt := initCart(t, a,
			map[string]any{"platform_id": "v-mug", "quantity": 3, "line_item_key": "mug"},
			map[string]any{"platform_id": "v-poster", "quantity": 99, "line_item_key": "poster"},
			map[string]any{"title": "Gift wrap", "price": 200, "quantity": 1, "line_item_key": "wrap"})
		for _, stage := range []string{"initial", "final"} {
			c := inventoryCheck(t, a, id, jwt, stage)
			if c["result"] != "pass" || len(c["failed_items"].([]any)) != 0 {
				t.Fatalf("%s: %v", stage, c)
			}
		}
	})
}

func TestCheckInventoryFailsNamingTheLinesShortOfStock(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stockedCatalog(t, a)
		id, jwt := initCart(t, a,
			map[string]any{"platform_id": "v-mug", "quantity": 4, "line_item_key": "mug"},
			map[string]any{"platform_id": "v-cap", "quantity": 1, "line_item_key": "cap"},
			map[string]any{"platform_id": "v-poster", "quantity": 1, "line_item_key": "poster"})
		c := inventoryCheck(t, a, id, jwt, "final")
		items := c["failed_items"].([]any)
		if c["result"] != "fail" || c["reason"] != "insufficient_stock" || len(items) != 2 {
			t.Fatalf("check %v", c)
		}
		mug, capItem := items[0].(map[string]any), items[1].(map[string]any)
		if mug["platform_variant_id"] != "v-mug" || mug["available_quantity"].(float64) != 3 || mug["requested_quantity"].(float64) != 4 {
			t.Fatalf("mug %v", mug)
		}
		if capItem["platform_variant_id"] != "v-cap" || capItem["available_quantity"].(float64) != 0 || capItem["line_item_keys"].([]any)[0] != "cap" {
			t.Fatalf("cap %v", capItem)
		}
	})
}

func TestCheckInventoryCountsLinesOfOneVariantTogether(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stockedCatalog(t, a)
		id, jwt := initCart(t, a,
			map[string]any{"platform_id": "v-mug", "quantity": 2, "line_item_key": "mug-a"},
			map[string]any{"platform_id": "v-mug", "quantity": 2, "line_item_key": "mug-b"})
		c := inventoryCheck(t, a, id, jwt, "initial")
		items := c["failed_items"].([]any)
		if c["result"] != "fail" || len(items) != 1 || items[0].(map[string]any)["requested_quantity"].(float64) != 4 {
			t.Fatalf("two lines of 2 against a stock of 3: %v", c)
		}
	})
}

func TestCheckInventoryStageMustBeInitialOrFinal(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		for _, q := range []string{"", "?stage=later"} {
			e := storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/check_inventory"+q, nil).wantError(t, 422, "", "inventory.invalid_stage")
			if e["field"] != "stage" {
				t.Fatalf("error %v", e)
			}
		}
	})
}
