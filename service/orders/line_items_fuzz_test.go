package orders_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// catalogPrices are the fuzz shop's variants: a cheap one, an odd one and the dearest allowed.
var catalogPrices = map[string]int64{"cheap": 100, "odd": 99_999, "dear": input.MaxAmount}

var catalogSKUs = []string{"cheap", "odd", "dear"}

// fuzzQuantities are the quantities a storefront sends: ordinary, at and past the bounds.
var fuzzQuantities = []int{1, 2, 1000, input.MaxQuantity, input.MaxQuantity + 1, 0, -1, 99_999}

type lineFuzzShop struct {
	s  *service.Service
	sh *orders.OrderSession
}

func newLineFuzzShop(t testing.TB, db *platform.Database) *lineFuzzShop {
	ctx := context.Background()
	s := service.New(db)
	created, err := s.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: fmt.Sprintf("lines-%d", time.Now().UnixNano())})
	if err != nil {
		t.Fatal(err)
	}
	for _, sku := range catalogSKUs {
		if _, err := s.Catalog.CreateProduct(ctx, created.Shop, catalog.ProductInput{PlatformID: "p-" + sku, Title: sku,
			Variants: []catalog.VariantInput{{PlatformID: sku, SKU: sku, Price: catalogPrices[sku]}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Shops.CreateTaxZone(ctx, created.Shop, shops.TaxZoneInput{Name: "NY", CountryCode: "US", RatePpm: 88_750, ShippingTaxable: true}); err != nil {
		t.Fatal(err)
	}
	return &lineFuzzShop{s: s, sh: &orders.OrderSession{Shop: created.Shop}}
}

// FuzzStorefrontLinesKeepTotalsExact runs random sequences of storefront line operations (with
// the order JWT, as a shopper would) and checks after every one: a refusal is a 4xx, never a
// fault; every line is at its catalog price; every total is non-negative, the subtotal is the
// sum of its lines and within input.MaxOrderSubtotal, and the total is the sum of its parts; and the
// catalog's prices are as they were.
func FuzzStorefrontLinesKeepTotalsExact(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 0, 1, 4, 3},
		{0, 2, 3, 0, 6, 3, 2, 2, 4},
		{1, 2, 0, 4, 0, 0, 3, 4, 0},
		{0, 2, 3, 0, 6, 3, 0, 10, 3, 0, 14, 3},
		{5, 1, 7, 2, 0, 4, 0, 0, 5},
	} {
		f.Add(seed)
	}
	shops := []*lineFuzzShop{newLineFuzzShop(f, servicetest.SQLite(f)), newLineFuzzShop(f, servicetest.Postgres(f))}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 36 {
			ops = ops[:36]
		}
		for _, fs := range shops {
			runLineOps(t, fs, ops)
		}
	})
}

func runLineOps(t *testing.T, f *lineFuzzShop, ops []byte) {
	ctx := context.Background()
	v, err := f.s.Orders.InitOrder(ctx, f.sh.Shop, orders.InitOrderInput{CartItems: []orders.CartItem{{PlatformID: "cheap", Quantity: 1, LineItemKey: "k0"}}})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := f.s.Orders.AuthenticateOrder(ctx, f.sh.Shop.Identifier, v.Order.PublicOrderID, v.JWT)
	if err != nil {
		t.Fatal(err)
	}
	addr := orders.AddressInput{CountryCode: "US", ProvinceCode: "NY", PostalCode: "12207", City: "Albany"}
	if _, err := f.s.Orders.SetAddress(ctx, sess, orders.ShippingAddress, addr); err != nil {
		t.Fatal(err)
	}
	for i := 0; i+2 < len(ops); i += 3 {
		sku := catalogSKUs[int(ops[i+1])%len(catalogSKUs)]
		key := fmt.Sprintf("k%d", int(ops[i+1]>>2)%4)
		q := fuzzQuantities[int(ops[i+2])%len(fuzzQuantities)]
		price, title := int64(1), "cheaper"
		var err error
		switch ops[i] % 7 {
		case 0:
			_, err = f.s.Orders.AddLineItem(ctx, sess, orders.CartItem{PlatformID: sku, Quantity: q, LineItemKey: key})
		case 1:
			_, err = f.s.Orders.AddLineItem(ctx, sess, orders.CartItem{PlatformID: sku, Quantity: q, LineItemKey: key, Title: &title, Price: &price})
			mustRefuse(t, err, "a storefront line with its own price")
		case 2:
			_, err = f.s.Orders.UpdateLineItemQuantity(ctx, sess, key, &q)
		case 3:
			_, err = f.s.Orders.DeleteLineItem(ctx, sess, key)
		case 4:
			_, err = f.s.Orders.AddLineItem(ctx, sess, orders.CartItem{Quantity: q, LineItemKey: key, Title: &title, Price: &price})
			mustRefuse(t, err, "a storefront line with an inline title and price")
		case 5:
			_, err = f.s.Orders.AddLineItem(ctx, sess, orders.CartItem{SKU: sku, Quantity: q, LineItemKey: key})
		case 6:
			_, err = f.s.Orders.GenerateTaxes(ctx, sess)
		}
		if err != nil {
			if e, ok := problem.As(err); !ok || e.Kind == problem.Internal || e.Kind == problem.Unavailable {
				t.Fatalf("op %d: a fault, not a refusal: %v", i/3, err)
			}
		}
		checkLineTotals(t, f, sess)
	}
}

func mustRefuse(t *testing.T, err error, what string) {
	t.Helper()
	if e, ok := problem.As(err); !ok || e.Kind != problem.Invalid {
		t.Fatalf("%s was not refused with a 422: %v", what, err)
	}
}

func checkLineTotals(t *testing.T, f *lineFuzzShop, sess *orders.OrderSession) {
	t.Helper()
	ctx := context.Background()
	v, err := f.s.Orders.OrderState(ctx, sess)
	if err != nil {
		t.Fatal(err)
	}
	sum := new(big.Int)
	for _, li := range v.LineItems {
		if want := catalogPrices[li.VariantID]; li.Price != want {
			t.Fatalf("line %s of %s at %d, the catalog says %d", li.LineItemKey, li.VariantID, li.Price, want)
		}
		if li.Quantity < 1 || li.Quantity > input.MaxQuantity {
			t.Fatalf("line %s holds %d units", li.LineItemKey, li.Quantity)
		}
		sum.Add(sum, new(big.Int).Mul(big.NewInt(li.Price), big.NewInt(int64(li.Quantity))))
	}
	p := v.Pricing
	if !sum.IsInt64() || sum.Int64() != p.Subtotal || p.Subtotal > input.MaxOrderSubtotal {
		t.Fatalf("subtotal %d, the lines add up to %s", p.Subtotal, sum)
	}
	for _, x := range []int64{p.Subtotal, p.Shipping, p.DiscountTotal, p.TaxTotal, p.Total} {
		if x < 0 {
			t.Fatalf("a negative figure: %+v", p)
		}
	}
	if p.Total != p.Subtotal-p.DiscountTotal+p.Shipping+p.TaxTotal {
		t.Fatalf("total %d is not the sum of its parts %+v", p.Total, p)
	}
	if v.State().OrderTotal != p.Total {
		t.Fatalf("the state answers %d, the pricing %d", v.State().OrderTotal, p.Total)
	}
	variants, err := f.s.Client().Variant.Query().Where(variant.ShopID(f.sh.Shop.ID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, va := range variants {
		if va.Price != catalogPrices[va.PlatformID] {
			t.Fatalf("the catalog price of %s moved to %d", va.PlatformID, va.Price)
		}
	}
}
