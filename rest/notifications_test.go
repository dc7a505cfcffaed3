package rest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/service/shops"
)

func TestAnEventNotificationIsAnswered202AndAppliedFromTheQueue(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		n := &platformserver.Notifier{BaseURL: a.url, AccessToken: a.token}
		at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
		err := n.CustomerSaved(context.Background(), a.shop, platformserver.Customer{PlatformID: "cus_1", PlatformUpdatedAt: at,
			FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com",
			Addresses: []platformserver.Address{{PlatformID: "adr_1", PlatformCustomerID: "cus_1", City: "London", CountryCode: "GB"}}})
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "the customer applied", func() bool {
			c, err := a.svc.Customers.Customer(context.Background(), shopEntity(t, a), "cus_1")
			return err == nil && c.FirstName == "Ada" && len(c.Edges.Addresses) == 1 && c.Edges.Addresses[0].City == "London"
		})
		if err := n.CustomerDeleted(context.Background(), a.shop, "cus_1", at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the delete applied", func() bool {
			c, err := a.svc.Customers.Customer(context.Background(), shopEntity(t, a), "cus_1")
			return err == nil && c.PlatformDeletedAt != nil
		})
		// The answer is a bare 202.
		r := a.do("POST", "/customers/v1/shops/"+a.shop+"/platforms/custom/webhooks/customers/saved",
			map[string]any{"data": map[string]any{"customer": map[string]any{"platform_id": "cus_2", "platform_updated_at": "2026-11-02T10:00:00Z"}}})
		if r.Status != 202 || r.Raw != "" {
			t.Fatalf("answer %d %q", r.Status, r.Raw)
		}
	})
}

func TestAnInvalidNotificationIs400NamingTheFieldAndNothingIsQueued(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		path := "/customers/v1/shops/" + a.shop + "/platforms/custom/webhooks/customers/"
		for _, c := range []struct {
			event, field string
			body         any
		}{
			{"saved", "data.customer", map[string]any{"data": map[string]any{}}},
			{"saved", "data.customer.platform_id", map[string]any{"data": map[string]any{"customer": map[string]any{"platform_updated_at": "2026-11-02T10:00:00Z"}}}},
			{"saved", "data.customer.platform_updated_at", map[string]any{"data": map[string]any{"customer": map[string]any{"platform_id": "c"}}}},
			{"deleted", "data.customer.platform_deleted_at", map[string]any{"data": map[string]any{"customer": map[string]any{"platform_id": "c", "platform_deleted_at": "soon"}}}},
		} {
			e := a.do("POST", path+c.event, c.body).wantError(t, 400, "", "notification.invalid")
			if e["details"].(map[string]any)["field"] != c.field {
				t.Fatalf("%v: %v", c.body, e)
			}
		}
		a.do("POST", path+"saved", map[string]any{"data": map[string]any{"customer": map[string]any{"platform_id": 5}}}).
			wantError(t, 400, "", "request.invalid_field_type")
		if n, _ := a.svc.Client().Customer.Query().Count(context.Background()); n != 0 {
			t.Fatalf("%d customers stored", n)
		}
	})
}

func TestANotificationWithAnotherShopsTokenIs401AndChangesNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		other := otherShopToken(t, a)
		n := &platformserver.Notifier{BaseURL: a.url, AccessToken: other}
		err := n.CustomerSaved(context.Background(), a.shop, platformserver.Customer{PlatformID: "cus_1", PlatformUpdatedAt: time.Now(), FirstName: "Eve"})
		var se *platformserver.StatusError
		if !errors.As(err, &se) || se.StatusCode != 401 {
			t.Fatalf("another shop's token: %v", err)
		}
	})
}

func shopEntity(t *testing.T, a *api) *ent.Shop {
	t.Helper()
	sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// otherShopToken creates a second shop and returns its access token.
func otherShopToken(t *testing.T, a *api) string {
	t.Helper()
	other, err := a.svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-other"})
	if err != nil {
		t.Fatal(err)
	}
	return other.AccessToken
}

func TestAProductSavedOnThePlatformIsSoldAtItsPriceAndACategoryIsKept(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		n := &platformserver.Notifier{BaseURL: a.url, AccessToken: a.token}
		at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
		err := n.ProductSaved(context.Background(), a.shop, platformserver.Product{PlatformID: "prod_tea", PlatformUpdatedAt: at, Name: "Green tea",
			Categories: []platformserver.Category{{PlatformID: "cat_tea", Name: "Tea"}},
			Variants:   []platformserver.Variant{{PlatformID: "var_tea", Name: "100 g", SKU: "TEA-100", Price: "12.50", RequireShipping: true}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := n.CategorySaved(context.Background(), a.shop, platformserver.Category{PlatformID: "cat_tea", PlatformUpdatedAt: at, Name: "Tea"}); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the product and category applied", func() bool {
			np, _ := a.svc.Client().Variant.Query().Count(context.Background())
			nc, _ := a.svc.Client().Category.Query().Count(context.Background())
			return np == 1 && nc == 1
		})
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", map[string]any{"cart_items": []map[string]any{{"sku": "TEA-100", "quantity": 2}}}).
			wantStatus(t, 200).data(t)
		if total := d["application_state"].(map[string]any)["order_total"]; total != 2500.0 {
			t.Fatalf("an order of two teas totals %v, want 2500", total)
		}
		if err := n.ProductDeleted(context.Background(), a.shop, "prod_tea", at.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the delete applied", func() bool {
			np, _ := a.svc.Client().Variant.Query().Count(context.Background())
			return np == 0
		})
		a.do("POST", "/products/v1/shops/"+a.shop+"/platforms/custom/webhooks/products/saved",
			map[string]any{"data": map[string]any{"product": map[string]any{"platform_id": "p", "platform_updated_at": "2026-11-02T10:00:00Z",
				"variants": []map[string]any{{"platform_id": "v", "price": "twelve"}}}}}).wantError(t, 400, "", "notification.invalid")
	})
}

func TestAnOrderPlacedOnThePlatformIsKeptAndAnOlderSaveNeverOverwritesIt(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		n := &platformserver.Notifier{BaseURL: a.url, AccessToken: a.token}
		at := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
		ctx := context.Background()
		newer := platformserver.Order{PlatformID: "ord_1", PlatformUpdatedAt: at.Add(time.Hour), OrderNumber: "1001", Currency: "USD",
			Total: "40.00", OrderStatus: "fulfilled"}
		older := newer
		older.PlatformUpdatedAt, older.OrderStatus = at, "open"
		for _, o := range []platformserver.Order{newer, older} {
			if err := n.OrderSaved(ctx, a.shop, o); err != nil {
				t.Fatal(err)
			}
		}
		eventually(t, "both saves applied", func() bool {
			o, err := a.svc.Client().PlatformOrder.Query().Only(ctx)
			return err == nil && o.OrderStatus == "fulfilled" && o.Total == "40.00"
		})
		// The older save is applied after the newer one or before it, never over it: wait for the
		// queue to be empty, then look again.
		time.Sleep(300 * time.Millisecond)
		if o, _ := a.svc.Client().PlatformOrder.Query().Only(ctx); o.OrderStatus != "fulfilled" {
			t.Fatalf("an older save overwrote the order: %+v", o)
		}
		if err := n.OrderDeleted(ctx, a.shop, "ord_1", at.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the delete applied", func() bool {
			o, err := a.svc.Client().PlatformOrder.Query().Only(ctx)
			return err == nil && o.PlatformDeletedAt != nil
		})
		a.do("POST", "/orders/v1/shops/"+a.shop+"/platforms/custom/webhooks/orders/saved",
			map[string]any{"data": map[string]any{"order": map[string]any{"platform_id": "ord_2"}}}).wantError(t, 400, "", "notification.invalid")
	})
}
