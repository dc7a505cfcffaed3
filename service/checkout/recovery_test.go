package checkout_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// orderToProcess is an order ready for process_order: two lamps (of five in stock), paid with a
// gift card of 1000 and the rest through a gatewaytest gateway.
type orderToProcess struct {
	gateway *gatewaytest.Server
	view    *orders.OrderView
	card    *payment.IssuedGiftCard
	session *orders.OrderSession
}

func newOrderToProcess(t *testing.T, s *service.Service, shopIdentifier string) orderToProcess {
	t.Helper()
	ctx := context.Background()
	created, err := s.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: shopIdentifier})
	if err != nil {
		t.Fatal(err)
	}
	sh := created.Shop
	if _, err := s.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "lamp", Title: "Lamp",
		Variants: []catalog.VariantInput{{PlatformID: "lamp-1", SKU: "LAMP", Price: 5000, InventoryTracked: true, InventoryQuantity: 5}}}); err != nil {
		t.Fatal(err)
	}
	gw := gatewaytest.New(t, "tok")
	g, err := s.Shops.CreateExternalPaymentGateway(ctx, sh, shops.ExternalPaymentGatewayInput{Name: ptr("Cards"), BaseURL: ptr(gw.URL),
		APIToken: input.Of("tok"), PartialCapture: ptr(true), AdditionalOrderDetails: ptr(false), ProviderID: ptr(gatewaytest.ProviderID), Currency: ptr("USD")})
	if err != nil {
		t.Fatal(err)
	}
	card, err := s.Payments.IssueGiftCard(ctx, sh, payment.IssueGiftCardInput{Amount: 1000})
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{SKU: "LAMP", Quantity: 2, LineItemKey: "lamp"}}})
	if err != nil {
		t.Fatal(err)
	}
	sess := &orders.OrderSession{Shop: sh, Order: v.Order}
	addr := orders.AddressInput{FirstName: "Ada", LastName: "L", AddressLine1: "1 Main St", City: "Albany", CountryCode: "US", ProvinceCode: "NY", PostalCode: "12207"}
	steps := []func() (*orders.OrderView, error){
		func() (*orders.OrderView, error) {
			return s.Orders.CreateCustomer(ctx, sess, orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}, false)
		},
		func() (*orders.OrderView, error) { return s.Orders.SetAddress(ctx, sess, orders.ShippingAddress, addr) },
		func() (*orders.OrderView, error) { return s.Orders.SetAddress(ctx, sess, orders.BillingAddress, addr) },
		func() (*orders.OrderView, error) { return s.Orders.SelectShippingLine(ctx, sess, "0", "") },
		func() (*orders.OrderView, error) {
			return s.Orders.AddPayment(ctx, sess, orders.PaymentInput{Type: orders.TenderGiftCard, Token: card.GiftCard.CardToken, Pin: card.Pin})
		},
		func() (*orders.OrderView, error) {
			return s.Orders.AddPayment(ctx, sess, orders.PaymentInput{GatewayPublicID: g.PublicID, Token: gatewaytest.TokenOK})
		},
	}
	for i, step := range steps {
		if _, err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	return orderToProcess{gateway: gw, view: v, card: card, session: sess}
}

// A crash between the gateway granting an authorization and checkoutd recording it leaves an
// order in processing with a pending ledger entry. At the next start the sweep asks the gateway
// again under the entry's key, voids what it granted, and gives everything back.
func TestACrashDuringProcessingIsUndoneByTheRecoverySweep(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		now := time.Now()
		s := service.New(db, service.WithClock(func() time.Time { return now }), service.WithOutboundAllowPrivate(true))
		ready := newOrderToProcess(t, s, "crash-shop")
		gw, v, card, sess := ready.gateway, ready.view, ready.card, ready.session

		if err := s.Checkout.CrashAfterGatewayGrant(ctx, sess); err != nil {
			t.Fatal(err)
		}

		restarted := service.New(db, service.WithClock(func() time.Time { return now.Add(10 * time.Minute) }), service.WithOutboundAllowPrivate(true))
		if err := restarted.Checkout.RecoverInterruptedAuthorizations(ctx, 5*time.Minute); err != nil {
			t.Fatal(err)
		}
		if open := gw.OpenAuths(); len(open) != 0 {
			t.Fatalf("authorizations left open after recovery: %+v", open)
		}
		o, err := db.Client.Order.Get(ctx, v.Order.ID)
		if err != nil || o.Status != order.StatusOpen || o.Reserved {
			t.Fatalf("order %s reserved=%v (%v), want open and not reserved", o.Status, o.Reserved, err)
		}
		stock, err := db.Client.Variant.Query().Where(variant.PlatformID("lamp-1")).Only(ctx)
		if err != nil || stock.InventoryQuantity != 5 {
			t.Fatalf("stock %d (%v), want 5", stock.InventoryQuantity, err)
		}
		gc, err := db.Client.GiftCard.Get(ctx, card.GiftCard.ID)
		if err != nil || gc.Balance != 1000 {
			t.Fatalf("gift card balance %d (%v), want 1000", gc.Balance, err)
		}
		if err := restarted.Checkout.RecoverInterruptedAuthorizations(ctx, 5*time.Minute); err != nil {
			t.Fatal(err)
		}
		if n := len(gw.Calls("/void")); n != 1 {
			t.Fatalf("%d voids; a second sweep must find nothing to do", n)
		}
	})
}

// The recovery sweep is a periodic job of the queue: it runs when the queue starts, on one
// process however many run, and finishes what a crash left behind.
func TestTheRecoverySweepRunsOnceAcrossProcessesWhenTheQueueStarts(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		now := time.Now()
		s := service.New(db, service.WithClock(func() time.Time { return now }), service.WithOutboundAllowPrivate(true))
		ready := newOrderToProcess(t, s, "crash-shop")
		if err := s.Checkout.CrashAfterGatewayGrant(ctx, ready.session); err != nil {
			t.Fatal(err)
		}

		later := func() time.Time { return now.Add(10 * time.Minute) }
		for range 2 {
			p := service.New(db, service.WithClock(later), service.WithOutboundAllowPrivate(true), service.WithJobPollInterval(20*time.Millisecond))
			if err := p.StartJobs(ctx); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = p.StopJobs(stop)
			})
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			o, err := db.Client.Order.Get(ctx, ready.view.Order.ID)
			if err != nil {
				t.Fatal(err)
			}
			if o.Status == order.StatusOpen && !o.Reserved {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("order still %s reserved=%v: the sweep did not run", o.Status, o.Reserved)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if open := ready.gateway.OpenAuths(); len(open) != 0 {
			t.Fatalf("authorizations left open after recovery: %+v", open)
		}
		var sweeps int
		if err := db.SQL.QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE kind = 'interrupted_authorization_sweep'`).Scan(&sweeps); err != nil {
			t.Fatal(err)
		}
		if sweeps != 1 {
			t.Fatalf("%d sweeps queued by two processes, want 1", sweeps)
		}
	})
}
