package admin_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

func TestTheOrderListingFiltersBySearchStateAndDayAndRefusesABadFilter(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		sh := created.Shop
		title, price := "Mug", int64(1000)
		var ids []string
		for range 3 {
			v, err := svc.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price}}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, v.Order.PublicOrderID)
		}
		today, tomorrow := time.Now().UTC(), time.Now().UTC().AddDate(0, 0, 1)
		for _, c := range []struct {
			name string
			f    admin.OrderFilter
			want int
		}{
			{"all", admin.OrderFilter{}, 3},
			{"today", admin.OrderFilter{From: &today, To: &today}, 3},
			{"from tomorrow", admin.OrderFilter{From: &tomorrow}, 0},
			{"open", admin.OrderFilter{Status: "open"}, 3},
			{"processed", admin.OrderFilter{Status: "processed"}, 0},
			{"by id", admin.OrderFilter{Query: ids[1][4:12]}, 1},
			{"one a page", admin.OrderFilter{PageRequest: admin.PageRequest{Page: 3, PerPage: 1}}, 1},
		} {
			page, err := svc.Admin.Orders(ctx, sh, c.f)
			if err != nil || len(page.Items) != c.want {
				t.Fatalf("%s: %d orders (%v), want %d", c.name, len(page.Items), err, c.want)
			}
		}
		for _, f := range []admin.OrderFilter{{Status: "lost"}, {From: &tomorrow, To: &today}} {
			if _, err := svc.Admin.Orders(ctx, sh, f); err == nil {
				t.Fatalf("filter %+v was accepted", f)
			}
		}
		other, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		if page, err := svc.Admin.Orders(ctx, other.Shop, admin.OrderFilter{}); err != nil || page.Total != 0 {
			t.Fatalf("shop B lists %d orders (%v)", page.Total, err)
		}
	})
}

func TestAnOpenOrderWithItemsUntouchedForAnHourCountsAsAbandoned(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		clock := servicetest.NewClock(time.Now())
		svc := service.New(db, service.WithClock(clock.Now))
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		title, price := "Mug", int64(1000)
		if _, err := svc.Orders.InitOrder(ctx, created.Shop, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price}}}); err != nil {
			t.Fatal(err)
		}
		d, err := svc.Admin.Dashboard(ctx, created.Shop)
		if err != nil || d.AbandonedOrders != 0 || len(d.Days) != admin.DashboardDays {
			t.Fatalf("dashboard at once: %+v %v", d, err)
		}
		clock.Set(time.Now().Add(orders.AbandonedAfter + time.Minute))
		if d, err = svc.Admin.Dashboard(ctx, created.Shop); err != nil || d.AbandonedOrders != 1 {
			t.Fatalf("dashboard an hour later: %+v %v", d, err)
		}
	})
}
