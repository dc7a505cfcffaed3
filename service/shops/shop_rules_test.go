package shops_test

import (
	"context"
	"testing"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// Zones are kept in memory for a moment: a change made through one process applies there at
// once, and in another process within two seconds.
func TestATaxZoneChangeAppliesAtOnceHereAndWithinTwoSecondsElsewhere(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		clock := servicetest.NewClock(time.Now())
		here := service.New(db, service.WithClock(clock.Now))
		// Another process: its own ent client on the same database, so it sees no hook of here's.
		other := ent.NewClient(ent.Driver(entsql.OpenDB(db.Dialect, db.SQL)))
		elsewhere := service.New(&platform.Database{SQL: db.SQL, Dialect: db.Dialect, Client: other, Read: other}, service.WithClock(clock.Now))
		created, err := here.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "zones"})
		if err != nil {
			t.Fatal(err)
		}
		sh := created.Shop
		title, price := "Thing", int64(1000)
		o, err := here.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{SKU: "T", Title: &title, Price: &price, Quantity: 1, LineItemKey: "t"}}})
		if err != nil {
			t.Fatal(err)
		}
		taxed := func(s *service.Service) int64 {
			v, err := s.Orders.EstimateTaxes(ctx, &orders.OrderSession{Shop: sh, Order: o.Order}, orders.AddressInput{CountryCode: "US", ProvinceCode: "NY"})
			if err != nil {
				t.Fatal(err)
			}
			return v.TaxTotal
		}
		if taxed(here) != 0 || taxed(elsewhere) != 0 {
			t.Fatal("taxes before any zone")
		}
		if _, err := here.Shops.CreateTaxZone(ctx, sh, shops.TaxZoneInput{Name: "NY", CountryCode: "US", ProvinceCode: "NY", RatePpm: 100000}); err != nil {
			t.Fatal(err)
		}
		if taxed(here) == 0 {
			t.Fatal("the process that changed the zones still prices with the old ones")
		}
		if taxed(elsewhere) != 0 {
			t.Fatal("another process was expected to keep its zones for up to two seconds")
		}
		clock.Add(2 * time.Second)
		if taxed(elsewhere) == 0 {
			t.Fatal("another process still prices with the old zones after two seconds")
		}
	})
}
