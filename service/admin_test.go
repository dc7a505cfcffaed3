package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/admin"
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
			v, err := svc.InitOrder(ctx, sh, service.InitOrderInput{CartItems: []service.CartItem{{Quantity: 1, Title: &title, Price: &price}}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, v.Order.PublicOrderID)
		}
		today, tomorrow := time.Now().UTC(), time.Now().UTC().AddDate(0, 0, 1)
		for _, c := range []struct {
			name string
			f    service.OrderFilter
			want int
		}{
			{"all", service.OrderFilter{}, 3},
			{"today", service.OrderFilter{From: &today, To: &today}, 3},
			{"from tomorrow", service.OrderFilter{From: &tomorrow}, 0},
			{"open", service.OrderFilter{Status: "open"}, 3},
			{"processed", service.OrderFilter{Status: "processed"}, 0},
			{"by id", service.OrderFilter{Query: ids[1][4:12]}, 1},
			{"one a page", service.OrderFilter{PageRequest: admin.PageRequest{Page: 3, PerPage: 1}}, 1},
		} {
			page, err := svc.Orders(ctx, sh, c.f)
			if err != nil || len(page.Items) != c.want {
				t.Fatalf("%s: %d orders (%v), want %d", c.name, len(page.Items), err, c.want)
			}
		}
		for _, f := range []service.OrderFilter{{Status: "lost"}, {From: &tomorrow, To: &today}} {
			if _, err := svc.Orders(ctx, sh, f); err == nil {
				t.Fatalf("filter %+v was accepted", f)
			}
		}
		other, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		if page, err := svc.Orders(ctx, other.Shop, service.OrderFilter{}); err != nil || page.Total != 0 {
			t.Fatalf("shop B lists %d orders (%v)", page.Total, err)
		}
	})
}

func TestAnOpenOrderWithItemsUntouchedForAnHourCountsAsAbandoned(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		clock := &clockAt{now: time.Now()}
		svc := service.New(db, service.WithClock(clock.Now))
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		title, price := "Mug", int64(1000)
		if _, err := svc.InitOrder(ctx, created.Shop, service.InitOrderInput{CartItems: []service.CartItem{{Quantity: 1, Title: &title, Price: &price}}}); err != nil {
			t.Fatal(err)
		}
		d, err := svc.Dashboard(ctx, created.Shop)
		if err != nil || d.AbandonedOrders != 0 || len(d.Days) != service.DashboardDays {
			t.Fatalf("dashboard at once: %+v %v", d, err)
		}
		clock.Set(time.Now().Add(service.AbandonedAfter + time.Minute))
		if d, err = svc.Dashboard(ctx, created.Shop); err != nil || d.AbandonedOrders != 1 {
			t.Fatalf("dashboard an hour later: %+v %v", d, err)
		}
	})
}
