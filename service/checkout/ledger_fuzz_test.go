package checkout_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

func ptr[T any](v T) *T { return &v }

// fuzzShop is one shop with two signature-checking gateways, shared by every fuzz input.
type fuzzShop struct {
	s        *service.Service
	sh       *orders.OrderSession
	gws      [2]*gatewaytest.Server
	gwIDs    [2]string
	shopSess *orders.OrderSession
}

func newFuzzShop(t testing.TB, db *platform.Database) *fuzzShop {
	ctx := context.Background()
	s := service.New(db, service.WithGatewayTimeout(time.Second), service.WithOutboundAllowPrivate(true))
	created, err := s.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: fmt.Sprintf("fuzz-%d", time.Now().UnixNano())})
	if err != nil {
		t.Fatal(err)
	}
	f := &fuzzShop{s: s, shopSess: &orders.OrderSession{Shop: created.Shop}}
	for i := range f.gws {
		f.gws[i] = gatewaytest.New(t, "tok")
		g, err := s.Shops.CreateExternalPaymentGateway(ctx, created.Shop, shops.ExternalPaymentGatewayInput{Name: ptr("Cards"), BaseURL: ptr(f.gws[i].URL),
			APIToken: input.Of("tok"), PartialCapture: ptr(true), AdditionalOrderDetails: ptr(false), ProviderID: ptr(gatewaytest.ProviderID), Currency: ptr("USD")})
		if err != nil {
			t.Fatal(err)
		}
		f.gwIDs[i] = g.PublicID
	}
	return f
}

// processedOrder is an order of 5000 + 1000 shipping, paid 2000 through the first gateway and
// the rest through the second, processed.
func (f *fuzzShop) processedOrder(t testing.TB) *orders.OrderSession {
	ctx := context.Background()
	for _, gw := range f.gws {
		gw.SetMode("/capture", "")
		gw.SetMode("/refund", "")
		gw.SetMode("/void", "")
	}
	v, err := f.s.Orders.InitOrder(ctx, f.shopSess.Shop, orders.InitOrderInput{CartItems: []orders.CartItem{{SKU: "X", Title: ptr("Thing"), Price: ptr(int64(5000)), Quantity: 1, LineItemKey: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	sess := &orders.OrderSession{Shop: f.shopSess.Shop, Order: v.Order}
	addr := orders.AddressInput{FirstName: "Ada", LastName: "L", AddressLine1: "1 Main St", City: "Albany", CountryCode: "US", ProvinceCode: "NY", PostalCode: "12207"}
	steps := []func() (*orders.OrderView, error){
		func() (*orders.OrderView, error) {
			return f.s.Orders.CreateCustomer(ctx, sess, orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}, false)
		},
		func() (*orders.OrderView, error) {
			return f.s.Orders.SetAddress(ctx, sess, orders.ShippingAddress, addr)
		},
		func() (*orders.OrderView, error) {
			return f.s.Orders.SetAddress(ctx, sess, orders.BillingAddress, addr)
		},
		func() (*orders.OrderView, error) { return f.s.Orders.SelectShippingLine(ctx, sess, "0", "") },
		func() (*orders.OrderView, error) {
			return f.s.Orders.AddPayment(ctx, sess, orders.PaymentInput{GatewayPublicID: f.gwIDs[0], Token: "tok_a", Amount: ptr(int64(2000))})
		},
		func() (*orders.OrderView, error) {
			return f.s.Orders.AddPayment(ctx, sess, orders.PaymentInput{GatewayPublicID: f.gwIDs[1], Token: "tok_b"})
		},
	}
	for i, step := range steps {
		if _, err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if _, err := f.s.Checkout.ProcessOrder(ctx, sess); err != nil {
		t.Fatal(err)
	}
	return sess
}

var gatewayModes = []string{"", "", "decline", "error", "error_after", "accept"}

// FuzzLedgerInvariants runs random sequences of captures, refunds and cancellations against
// gateways that fail at random, and checks after every step that the ledger can be trusted:
// captured ≤ authorized, refunded ≤ captured, captured ≤ the order total, and the gateways
// themselves moved exactly what the ledger says (give or take entries still pending).
func FuzzLedgerInvariants(f *testing.F) {
	for _, seed := range [][]byte{
		{1, 0, 3, 0},
		{0, 40, 0, 200, 2, 30, 3, 0},
		{1, 3, 3, 3, 1, 0, 3, 0},
		{0, 90, 4, 1, 2, 10},
		{1, 5, 2, 77, 2, 78, 3, 4, 4, 0},
	} {
		f.Add(seed)
	}
	// One shop per database for the whole run: a fresh database per input would measure
	// migrations, not the ledger.
	shops := []*fuzzShop{newFuzzShop(f, servicetest.SQLite(f)), newFuzzShop(f, servicetest.Postgres(f))}
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 24 {
			ops = ops[:24]
		}
		for _, fs := range shops {
			runLedgerOps(t, fs, ops)
		}
	})
}

func runLedgerOps(t *testing.T, f *fuzzShop, ops []byte) {
	ctx := context.Background()
	sess := f.processedOrder(t)
	const total = 6000
	for i := 0; i+1 < len(ops); i += 2 {
		op, arg := ops[i]%6, ops[i+1]
		for g, gw := range f.gws {
			mode := gatewayModes[(int(arg)>>(g*3))%len(gatewayModes)]
			gw.SetMode("/capture", mode)
			gw.SetMode("/refund", mode)
		}
		amount := int64(arg)*37%total + 1
		key := fmt.Sprintf("op-%d", i)
		var err error
		switch op {
		case 0:
			_, err = f.s.Checkout.Capture(ctx, sess, checkout.CaptureScope{}, checkout.CaptureInput{Amount: &amount}, key)
		case 1:
			_, err = f.s.Checkout.Capture(ctx, sess, checkout.CaptureScope{Full: true}, checkout.CaptureInput{}, key)
		case 2:
			_, err = f.s.Checkout.Refund(ctx, sess, checkout.CaptureScope{}, checkout.RefundInput{Amount: &amount}, key)
		case 3:
			_, err = f.s.Checkout.Refund(ctx, sess, checkout.CaptureScope{Full: true}, checkout.RefundInput{}, key)
		case 4:
			_, err = f.s.Checkout.CancelOrder(ctx, sess, checkout.CancelInput{Reason: "fuzz", Refund: arg&1 == 1}, key)
		case 5:
			for _, gw := range f.gws {
				gw.SetMode("/capture", "")
				gw.SetMode("/refund", "")
				gw.SettleAccepted()
			}
			err = f.s.Checkout.FollowUpPendingMoves(ctx, -time.Hour)
		}
		if err != nil {
			if _, ok := problem.As(err); !ok {
				t.Fatalf("op %d (%d): a fault, not a refusal: %v", i/2, op, err)
			}
		}
		checkLedger(t, f, sess, total)
	}
}

func checkLedger(t *testing.T, f *fuzzShop, sess *orders.OrderSession, total int64) {
	t.Helper()
	entries, err := f.s.Client().PaymentTransaction.Query().Where(paymenttransaction.HasOrderWith(order.ID(sess.Order.ID))).All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type sums struct{ authorized, captured, capturesOpen, refunded, refundsOpen int64 }
	byPayment := map[int]*sums{}
	var all sums
	for _, e := range entries {
		p := byPayment[e.PaymentID]
		if p == nil {
			p = &sums{}
			byPayment[e.PaymentID] = p
		}
		open := e.Status == paymenttransaction.StatusPending || e.Status == paymenttransaction.StatusUnknown
		done := e.Status == paymenttransaction.StatusSucceeded
		for _, s := range []*sums{p, &all} {
			switch {
			case e.Kind == paymenttransaction.KindAuthorize && done:
				s.authorized += e.Amount
			case e.Kind == paymenttransaction.KindCapture && done:
				s.captured += e.Amount
			case e.Kind == paymenttransaction.KindCapture && open:
				s.capturesOpen += e.Amount
			case e.Kind == paymenttransaction.KindRefund && done:
				s.refunded += e.Amount
			case e.Kind == paymenttransaction.KindRefund && open:
				s.refundsOpen += e.Amount
			}
		}
	}
	for id, p := range byPayment {
		if p.captured+p.capturesOpen > p.authorized {
			t.Fatalf("payment %d: captured %d (+%d open) over authorized %d", id, p.captured, p.capturesOpen, p.authorized)
		}
		if p.refunded+p.refundsOpen > p.captured {
			t.Fatalf("payment %d: refunded %d (+%d open) over captured %d", id, p.refunded, p.refundsOpen, p.captured)
		}
	}
	if all.captured+all.capturesOpen > total {
		t.Fatalf("captured %d (+%d open) over the order total %d", all.captured, all.capturesOpen, total)
	}
	var gwCaptured, gwRefunded int64
	for _, gw := range f.gws {
		for _, a := range gw.Auths() {
			if a.OrderID == sess.Order.PublicOrderID {
				gwCaptured += a.Captured
				gwRefunded += a.Refunded
			}
		}
	}
	if gwCaptured < all.captured || gwCaptured > all.captured+all.capturesOpen {
		t.Fatalf("the gateways captured %d; the ledger says %d done and %d open", gwCaptured, all.captured, all.capturesOpen)
	}
	if gwRefunded < all.refunded || gwRefunded > all.refunded+all.refundsOpen {
		t.Fatalf("the gateways refunded %d; the ledger says %d done and %d open", gwRefunded, all.refunded, all.refundsOpen)
	}
}
