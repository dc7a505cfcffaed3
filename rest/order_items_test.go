package rest_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/checkoutd/checkoutd/service/catalog"
)

func stateOf(t *testing.T, r response) map[string]any {
	t.Helper()
	return r.data(t)["application_state"].(map[string]any)
}

// catalogVariant adds a one-variant product to the test shop's catalog, for storefronts to name.
func catalogVariant(t *testing.T, a *api, platformID, title string, price int64) {
	t.Helper()
	sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.svc.Catalog.CreateProduct(context.Background(), sh, catalog.ProductInput{PlatformID: "product-" + platformID, Title: title,
		Variants: []catalog.VariantInput{{PlatformID: platformID, SKU: strings.ToUpper(platformID), Price: price}}}); err != nil {
		t.Fatal(err)
	}
}

func TestAddLineItemRecomputesTheTotal(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		catalogVariant(t, a, "sticker", "Sticker", 100)
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/items"
		r := storefront(t, a, jwt, "POST", path, map[string]any{"line_item_key": "k3", "quantity": 3, "platform_id": "sticker"}).wantStatus(t, 200)
		if stateOf(t, r)["order_total"].(float64) != 4800 || r.data(t)["line_item"] == nil {
			t.Fatalf("after add: %s", r.Raw)
		}
		r = storefront(t, a, jwt, "POST", path, map[string]any{"line_item_key": "k3", "quantity": 2}).wantStatus(t, 200)
		if stateOf(t, r)["order_total"].(float64) != 5000 {
			t.Fatalf("adding to an existing key: %v", stateOf(t, r)["order_total"])
		}
	})
}

func TestUpdateLineItemQuantityByLineItemKey(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/items"
		r := storefront(t, a, jwt, "PUT", path, map[string]any{"line_item_key": "k1", "quantity": 5}).wantStatus(t, 200)
		if stateOf(t, r)["order_total"].(float64) != 5*1250+2000 {
			t.Fatalf("total %v", stateOf(t, r)["order_total"])
		}
		storefront(t, a, jwt, "PUT", path, map[string]any{"line_item_key": "nope", "quantity": 1}).wantError(t, 422, "", "line_item.not_found")
		storefront(t, a, jwt, "PUT", path, map[string]any{"line_item_key": "k1"}).wantError(t, 422, "", "line_item.invalid_quantity")
	})
}

func TestDeleteLineItemAnswersTheRemainingLines(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		r := storefront(t, a, jwt, "DELETE", "/checkout/storefront/"+a.shop+"/"+id+"/items", map[string]any{"line_item_key": "k1"}).wantStatus(t, 200)
		if len(r.data(t)["line_items"].([]any)) != 1 || stateOf(t, r)["order_total"].(float64) != 2000 {
			t.Fatalf("after delete: %s", r.Raw)
		}
	})
}

func TestConcurrentItemAddsOnOneOrderAllCount(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/items"
		const n = 10
		var wg sync.WaitGroup
		statuses := make([]int, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = storefront(t, a, jwt, "POST", path, map[string]any{"line_item_key": "k1", "quantity": 1}).Status
			}()
		}
		wg.Wait()
		for i, st := range statuses {
			if st != 200 {
				t.Fatalf("add %d answered %d", i, st)
			}
		}
		state := stateOf(t, storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/refresh", nil).wantStatus(t, 200))
		for _, li := range state["line_items"].([]any) {
			pd := li.(map[string]any)["product_data"].(map[string]any)
			if pd["line_item_key"] == "k1" && pd["quantity"].(float64) != 2+n {
				t.Fatalf("quantity %v, want %d: an update was lost", pd["quantity"], 2+n)
			}
		}
	})
}

func TestPatchMetaDataReplacesTheGivenParts(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		r := storefront(t, a, jwt, "PATCH", "/checkout/storefront/"+a.shop+"/"+id+"/meta_data",
			map[string]any{"notes": "leave at door", "tags": []string{"gift"}}).wantStatus(t, 200)
		m := stateOf(t, r)["order_meta_data"].(map[string]any)
		if m["notes"] != "leave at door" || len(m["tags"].([]any)) != 1 {
			t.Fatalf("meta %v", m)
		}
	})
}

func TestFulfilledQuantityNeverExceedsTheOrderedQuantity(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, _, _ := initOrder(t, a)
		base := "/checkout/orders/" + a.shop + "/" + id
		a.do("PATCH", base+"/line_items/k1", map[string]any{"fulfilled_quantity": 3}).wantError(t, 422, "", "line_item.invalid_fulfillment")
		r := a.do("PATCH", base+"/line_items", map[string]any{"line_items": []map[string]any{{"line_item_key": "k1", "fulfilled_quantity": 2}}}).wantStatus(t, 200)
		line := r.data(t)["line_items"].([]any)[0].(map[string]any)
		if line["fulfilled_quantity"].(float64) != 2 {
			t.Fatalf("line %v", line)
		}
	})
}
