package orders_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// postalCodes are a postal code of each country the tests ship to (they need one).
var postalCodes = map[string]string{"US": "12207", "CA": "K1A 0B1"}

func orderShippingTo(t *testing.T, svc *service.Service, sh *ent.Shop, country, province string) *orders.OrderSession {
	t.Helper()
	ctx := context.Background()
	title, price := "Mug", int64(1000)
	v, err := svc.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price}}})
	if err != nil {
		t.Fatal(err)
	}
	sess := &orders.OrderSession{Shop: sh, Order: v.Order}
	if _, err := svc.Orders.SetAddress(ctx, sess, orders.ShippingAddress, orders.AddressInput{CountryCode: country, ProvinceCode: province, PostalCode: postalCodes[country]}); err != nil {
		t.Fatal(err)
	}
	return sess
}

func wantType(t *testing.T, err error, typ string) {
	t.Helper()
	if typ == "" {
		if err != nil {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	if e, ok := problem.As(err); !ok || e.Kind != problem.Invalid || e.Type != typ {
		t.Fatalf("error %v, want 422 %s", err, typ)
	}
}

func TestOrderNoTaxZoneCoversNeedsNoGeneratedTaxes(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Shops.CreateTaxZone(ctx, created.Shop, shops.TaxZoneInput{Name: "GST", CountryCode: "CA", RatePpm: 50_000}); err != nil {
			t.Fatal(err)
		}
		sess := orderShippingTo(t, svc, created.Shop, "US", "NY")
		wantType(t, svc.Orders.CheckTaxesCurrent(ctx, created.Shop, sess.Order.PublicOrderID), "")
	})
}

func TestProcessingNeedsTaxesGeneratedForTheCurrentAddress(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		sh := created.Shop
		if _, err := svc.Shops.CreateTaxZone(ctx, sh, shops.TaxZoneInput{Name: "GST", CountryCode: "CA", RatePpm: 50_000}); err != nil {
			t.Fatal(err)
		}
		sess := orderShippingTo(t, svc, sh, "CA", "BC")
		id := sess.Order.PublicOrderID
		wantType(t, svc.Orders.CheckTaxesCurrent(ctx, sh, id), "taxes.not_generated")

		if _, err := svc.Orders.GenerateTaxes(ctx, sess); err != nil {
			t.Fatal(err)
		}
		wantType(t, svc.Orders.CheckTaxesCurrent(ctx, sh, id), "")

		// Another province of the same country, then a country without zones: either way the
		// taxes on the order are no longer those of its address.
		for _, to := range []orders.AddressInput{{CountryCode: "CA", ProvinceCode: "ON", PostalCode: "K1A 0B1"}, {CountryCode: "US", ProvinceCode: "NY", PostalCode: "12207"}} {
			if _, err := svc.Orders.SetAddress(ctx, sess, orders.ShippingAddress, to); err != nil {
				t.Fatal(err)
			}
			wantType(t, svc.Orders.CheckTaxesCurrent(ctx, sh, id), "taxes.out_of_date")
		}
		if _, err := svc.Orders.GenerateTaxes(ctx, sess); err != nil {
			t.Fatal(err)
		}
		wantType(t, svc.Orders.CheckTaxesCurrent(ctx, sh, id), "")
	})
}
