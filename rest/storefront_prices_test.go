package rest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent/variant"
)

// catalogPrice is the price the shop's catalog holds for a variant.
func catalogPrice(t *testing.T, a *api, platformID string) int64 {
	t.Helper()
	v, err := a.svc.Client().Variant.Query().Where(variant.PlatformID(platformID)).Only(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v.Price
}

func TestAStorefrontCannotSetThePriceOfACatalogVariant(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		catalogVariant(t, a, "watch", "Watch", 100000)
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/items"
		e := storefront(t, a, jwt, "POST", path, map[string]any{"platform_id": "watch", "title": "x", "price": 1, "quantity": 1, "line_item_key": "k"}).
			wantError(t, 422, "02-22", "line_item.invalid_line_item")
		if d := e["details"].(map[string]any); d["price"] == nil || d["title"] == nil {
			t.Fatalf("the refusal names neither price nor title: %v", e)
		}
		state := stateOf(t, storefront(t, a, jwt, "GET", "/checkout/storefront/"+a.shop+"/"+id+"/refresh", nil).wantStatus(t, 200))
		if len(state["line_items"].([]any)) != 2 || state["order_total"].(float64) != 4500 {
			t.Fatalf("the refused line changed the order: %v", state)
		}
		line := stateOf(t, storefront(t, a, jwt, "POST", path, map[string]any{"platform_id": "watch", "quantity": 1, "line_item_key": "k"}).wantStatus(t, 200))
		if line["order_total"].(float64) != 104500 || catalogPrice(t, a, "watch") != 100000 {
			t.Fatalf("the watch is not at its catalog price: total %v", line["order_total"])
		}
	})
}

func TestAStorefrontCannotAddAnInlineLineWithItsOwnPrice(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/items"
		for _, body := range []map[string]any{
			{"title": "Anything", "price": 1, "quantity": 1, "line_item_key": "k"},
			{"sku": "MUG-1", "title": "Mug", "price": 0, "quantity": 1, "line_item_key": "k"},
			{"platform_id": "nope", "quantity": 1, "line_item_key": "k", "compare_at_price": 5, "taxable": false, "requires_shipping": false},
		} {
			storefront(t, a, jwt, "POST", path, body).wantError(t, 422, "02-22", "line_item.invalid_line_item")
		}
		// The backend (access token) keeps its own catalog and may.
		backend := "/checkout/orders/" + a.shop + "/" + id + "/items"
		state := stateOf(t, a.do("POST", backend, map[string]any{"title": "Gift wrap", "price": 250, "quantity": 1, "line_item_key": "wrap"}).wantStatus(t, 200))
		if state["order_total"].(float64) != 4750 {
			t.Fatalf("backend inline line: total %v", state["order_total"])
		}
	})
}

func TestABatchSubRequestCannotSetALinePriceEither(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		catalogVariant(t, a, "watch", "Watch", 100000)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		d := storefront(t, a, jwt, "POST", base+"/batch", map[string]any{"sub_requests": []map[string]any{
			{"method": "POST", "endpoint": "/items", "payload": map[string]any{"platform_id": "watch", "price": 1, "quantity": 1, "line_item_key": "k"}},
			{"method": "POST", "endpoint": "/items", "payload": `{"title":"x","price":1,"quantity":1,"line_item_key":"j"}`},
		}}).wantStatus(t, 200)
		for i, sub := range d.Body["data"].([]any) {
			if code := sub.(map[string]any)["status_code"].(float64); code != 422 {
				t.Fatalf("sub-request %d answered %v: %s", i, code, d.Raw)
			}
		}
		if total := d.Body["application_state"].(map[string]any)["order_total"].(float64); total != 4500 {
			t.Fatalf("total after the batch %v", total)
		}
	})
}

func TestAStorefrontLineTakesTheCatalogsTitleAndFieldsNotItsOwn(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		catalogVariant(t, a, "watch", "Watch", 100000)
		id, jwt, _ := initOrder(t, a)
		r := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/items",
			map[string]any{"sku": "WATCH", "quantity": 2, "line_item_key": "w", "line_item_properties": map[string]any{"engraving": "A"}}).wantStatus(t, 200)
		pd := r.data(t)["line_item"].(map[string]any)["product_data"].(map[string]any)
		if pd["price"].(float64) != 100000 || !strings.HasPrefix(pd["title"].(string), "Watch") || pd["properties"].(map[string]any)["engraving"] != "A" {
			t.Fatalf("line %v", pd)
		}
	})
}
