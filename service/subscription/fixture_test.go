package subscription_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/subscription"
)

func ptr[T any](v T) *T { return &v }

// shopWithCatalog is a shop selling a lamp (50.00, plenty in stock), with a test gateway, the
// discount code TENOFF (10%) and a service on a clock the test moves.
type shopWithCatalog struct {
	svc     *service.Service
	shop    *ent.Shop
	gateway *gatewaytest.Server
	gw      *ent.ExternalPaymentGateway
	clock   *servicetest.Clock
}

var start = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) // a Monday

func newShop(t *testing.T, db *platform.Database, opts ...service.Option) *shopWithCatalog {
	t.Helper()
	ctx := context.Background()
	clock := servicetest.NewClock(start)
	s := service.New(db, append([]service.Option{service.WithClock(clock.Now), service.WithOutboundAllowPrivate(true)}, opts...)...)
	created, err := s.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "subs-shop", Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	sh := created.Shop
	if _, err := s.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "lamp", Title: "Lamp",
		Variants: []catalog.VariantInput{{PlatformID: "lamp-1", Title: "Blue", SKU: "LAMP", Price: 5000, InventoryTracked: true, InventoryQuantity: 1000}}}); err != nil {
		t.Fatal(err)
	}
	gw := gatewaytest.New(t, "tok")
	g := gw.Register(s.Shops, sh, "Cards")
	if _, err := s.Shops.CreateDiscountCode(ctx, sh, shops.DiscountCodeInput{Code: "TENOFF", Kind: discountcode.KindPercentage, Value: 1000}); err != nil {
		t.Fatal(err)
	}
	return &shopWithCatalog{svc: s, shop: sh, gateway: gw, gw: g, clock: clock}
}

// weekly is a subscription to two lamps every week from next, charged to token.
func (f *shopWithCatalog) weekly(next time.Time, token, key string) subscription.CreateInput {
	addr := &subscription.AddressInput{FirstName: "Ada", LastName: "Lovelace", Street1: "1 Main St", City: "Albany",
		Province: "New York", ProvinceCode: "NY", Country: "United States", CountryCode: "US", Zip: "12207"}
	return subscription.CreateInput{
		Customer: subscription.CustomerInput{FirstName: "Ada", LastName: "Lovelace", Phone: "+15555550100", Email: "ada@example.com", PlatformID: "cust-1"},
		Subscription: subscription.SubscriptionInput{IdempotencyKey: key, NextOrderDatetime: &next, OrderRRule: "FREQ=WEEKLY",
			BaseCurrency: "USD", ChargedCurrency: "USD",
			LineItems:      []subscription.LineItemInput{{PlatformProductID: "lamp", PlatformVariantID: "lamp-1", Quantity: 2, Price: 5000}},
			BillingAddress: addr, ShippingAddress: addr, ExternalID: "ext-1",
			PaymentDetails: subscription.PaymentDetails{GatewayName: "Cards", GatewayCustomerID: "gc-1", GatewayPaymentID: token},
			Note:           "leave at the door"},
	}
}

func (f *shopWithCatalog) create(t *testing.T, in subscription.CreateInput) *subscription.View {
	t.Helper()
	v, err := f.svc.Subscriptions.CreateSubscription(context.Background(), f.shop, in)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func each(t *testing.T, fn func(t *testing.T, db *platform.Database)) { servicetest.Each(t, fn) }
