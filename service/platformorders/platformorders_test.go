package platformorders_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/platformorders"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

func saved(at, status string) json.RawMessage {
	raw, _ := json.Marshal(map[string]any{"platform_id": "ord_1", "platform_updated_at": at, "order_status": status, "total": "40.00",
		"line_items": []any{map[string]any{"sku": "TEA-100", "quantity": 2}}})
	return raw
}

func TestPlatformOrdersFollowThePlatformsTimesNotTheirArrival(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "orders"})
		if err != nil {
			t.Fatal(err)
		}
		sh := created.Shop
		get := func() *ent.PlatformOrder {
			o, err := svc.PlatformOrders.Orders(sh).Only(ctx)
			if ent.IsNotFound(err) {
				return nil
			}
			if err != nil {
				t.Fatal(err)
			}
			return o
		}
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(svc.PlatformOrders.ApplySaved(ctx, sh, saved("2026-11-02T10:00:00Z", "fulfilled")))
		must(svc.PlatformOrders.ApplySaved(ctx, sh, saved("2026-11-01T10:00:00Z", "open")))
		if o := get(); o.OrderStatus != "fulfilled" || o.Data["line_items"] == nil {
			t.Fatalf("order %+v", o)
		}
		must(svc.PlatformOrders.ApplyDeleted(ctx, sh, platformorders.Deleted{PlatformID: "ord_1", PlatformDeletedAt: "2026-11-03T10:00:00Z"}))
		must(svc.PlatformOrders.ApplySaved(ctx, sh, saved("2026-11-02T12:00:00Z", "ghost")))
		if o := get(); o != nil {
			t.Fatalf("a save older than the delete brought the order back: %+v", o)
		}
		must(svc.PlatformOrders.ApplySaved(ctx, sh, saved("2026-11-04T10:00:00Z", "reopened")))
		if o := get(); o == nil || o.OrderStatus != "reopened" {
			t.Fatalf("a save after the delete: %+v", o)
		}
	})
}
