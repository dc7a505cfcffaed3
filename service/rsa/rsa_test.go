package rsa_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/rsaconfig"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/rsa"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// rsaShop is a shop whose remote state authority is srv, with an order of two mugs at 10.00.
type rsaShop struct {
	svc  *service.Service
	shop *ent.Shop
	srv  *rsaServer
	sess *orders.OrderSession
}

func newRSAShop(t *testing.T, db *platform.Database) *rsaShop {
	t.Helper()
	ctx := context.Background()
	svc := service.New(db, service.WithOutboundAllowPrivate(true)) // the test RSA listens on loopback
	created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "rsa-shop"})
	if err != nil {
		t.Fatal(err)
	}
	srv := newRSAServer(t)
	if _, err := svc.Shops.CreateRSAConfig(ctx, created.Shop, shops.RSAConfigInput{URL: ptr(srv.URL + "/rsa"), SharedSecret: ptr(rsaSecret)}); err != nil {
		t.Fatal(err)
	}
	title, price := "Mug", int64(1000)
	v, err := svc.Orders.InitOrder(ctx, created.Shop, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 2, Title: &title, Price: &price, LineItemKey: "mug"}}})
	if err != nil {
		t.Fatal(err)
	}
	return &rsaShop{svc: svc, shop: created.Shop, srv: srv, sess: &orders.OrderSession{Shop: created.Shop, Order: v.Order}}
}

func ptr[T any](v T) *T { return &v }

var albany = orders.AddressInput{FirstName: "Ada", LastName: "L", AddressLine1: "1 Main St", City: "Albany", CountryCode: "US", ProvinceCode: "NY", PostalCode: "12207"}

func (r *rsaShop) order(t *testing.T) *orders.OrderView {
	t.Helper()
	v, err := r.svc.Orders.LoadOrder(context.Background(), r.shop, r.sess.PublicOrderID())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func problemOf(t *testing.T, err error) *problem.Error {
	t.Helper()
	p, ok := problem.As(err)
	if !ok {
		t.Fatalf("error %v, want a problem", err)
	}
	return p
}

func TestAnRSAThatAddsAFeeAndChangesAPriceChangesTheOrdersTotal(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		r.srv.fee, r.srv.prices["mug"] = "2.50", "12.00"
		v, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany)
		if err != nil {
			t.Fatal(err)
		}
		if v.LineItems[0].Price != 1200 || v.Pricing.FeeTotal != 250 || v.Pricing.Total != 2*1200+250 {
			t.Fatalf("price %d, fees %d, total %d; want 1200, 250, 2650", v.LineItems[0].Price, v.Pricing.FeeTotal, v.Pricing.Total)
		}
		// As the shopper sees it, then and on the next read.
		if st := v.State(); st.OrderTotal != 2650 || len(st.Fees) != 1 {
			t.Fatalf("application state total %d, fees %v", st.OrderTotal, st.Fees)
		}
		if got := r.order(t).State().OrderTotal; got != 2650 {
			t.Fatalf("order read again: total %d, want 2650", got)
		}
		// The RSA's shipping options and taxes are the order's.
		if v, err = r.svc.Orders.SelectShippingLine(ctx, r.sess, "", "exp"); err != nil {
			t.Fatal(err)
		}
		if v, err = r.svc.Orders.GenerateTaxes(ctx, r.sess); err != nil {
			t.Fatal(err)
		}
		if v.SelectedShipping == nil || v.SelectedShipping.Amount != 1500 || v.Pricing.TaxTotal != 240 || v.Pricing.Total != 2400+250+1500+240 {
			t.Fatalf("shipping %+v, taxes %d, total %d", v.SelectedShipping, v.Pricing.TaxTotal, v.Pricing.Total)
		}
		if v, err = r.svc.Orders.ApplyDiscountCode(ctx, r.sess, "TENOFF"); err != nil {
			t.Fatal(err)
		}
		if v.Pricing.DiscountTotal != 200 || !slices.Equal(v.Order.DiscountCodes, []string{"TENOFF"}) {
			t.Fatalf("discounts %d, codes %v; want 200 off TENOFF", v.Pricing.DiscountTotal, v.Order.DiscountCodes)
		}
	})
}

func TestEventsReachTheRSAInTheOrderTheyWereMadeEvenWhenFiredConcurrently(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		if db.Dialect == dialect.Postgres {
			// A process alone on its PostgreSQL comes to hold orders in memory within the test.
			db.SetHoldTimings(quickHolds)
		}
		r := newRSAShop(t, db)
		steps := []func() (*orders.OrderView, error){
			func() (*orders.OrderView, error) {
				return r.svc.Orders.CreateCustomer(ctx, r.sess, orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}, false)
			},
			func() (*orders.OrderView, error) {
				return r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany)
			},
			func() (*orders.OrderView, error) {
				return r.svc.Orders.SetAddress(ctx, r.sess, orders.BillingAddress, albany)
			},
			func() (*orders.OrderView, error) { return r.svc.Orders.ShippingLines(ctx, r.sess) },
			func() (*orders.OrderView, error) { return r.svc.Orders.SelectShippingLine(ctx, r.sess, "0", "") },
			func() (*orders.OrderView, error) { return r.svc.Orders.GenerateTaxes(ctx, r.sess) },
			func() (*orders.OrderView, error) { return r.svc.Orders.ApplyDiscountCode(ctx, r.sess, "TENOFF") },
			func() (*orders.OrderView, error) { return r.svc.Orders.RemoveDiscountCode(ctx, r.sess, "TENOFF") },
			func() (*orders.OrderView, error) {
				return r.svc.Orders.DeleteAddress(ctx, r.sess, orders.BillingAddress)
			},
			func() (*orders.OrderView, error) { return r.svc.Orders.DeleteCustomer(ctx, r.sess) },
			func() (*orders.OrderView, error) {
				return r.svc.Orders.DeleteAddress(ctx, r.sess, orders.ShippingAddress)
			},
		}
		for i, step := range steps {
			if _, err := step(); err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
		}
		want := []string{"set_customer", "set_shipping_address", "set_billing_address", "get_shipping_lines", "set_shipping_line",
			"apply_taxes", "add_discount_code", "remove_discount_code", "remove_billing_address", "remove_customer", "remove_shipping_address"}
		if got := r.srv.eventNames(); !slices.Equal(got, want) {
			t.Fatalf("events %v, want %v", got, want)
		}
		// A burst of changes from one shopper, served by two checkoutd processes: one at a time,
		// each with the last answer. On PostgreSQL the first process holds orders in memory
		// until the second joins in the burst. SQLite serves one process (docs/operations.md):
		// there the burst is one process's.
		other := r.svc
		if db.Dialect == dialect.Postgres {
			waitForHoldsInMemory(t, db)
			second := servicetest.AnotherProcess(t, db)
			second.SetHoldTimings(quickHolds)
			other = service.New(second, service.WithOutboundAllowPrivate(true))
		}
		// Each call takes a moment, and the second process's changes come while the first's are
		// under way, so that calls of the two would overlap if they could.
		r.srv.delay.Store(int64(30 * time.Millisecond))
		const burst = 8
		var wg sync.WaitGroup
		errs := make(chan error, burst)
		for i := range burst {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a := albany
				a.FirstName = strings.Repeat("A", i+1)
				svc := r.svc
				if i%2 == 1 {
					svc = other
					time.Sleep(50 * time.Millisecond)
				}
				sess := &orders.OrderSession{Shop: r.shop, Order: r.sess.Order}
				_, err := svc.Orders.SetAddress(ctx, sess, orders.ShippingAddress, a)
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		r.srv.mu.Lock()
		stale, overlaps, n := r.srv.stale, r.srv.overlaps, len(r.srv.events)
		r.srv.mu.Unlock()
		if stale != 0 || overlaps != 0 || n != len(want)+burst {
			t.Fatalf("%d requests without the last answer, %d overlapping, %d events; want 0, 0, %d", stale, overlaps, n, len(want)+burst)
		}
		// The order keeps what only the RSA keeps of its last answer (its cart_params.seq).
		var last rsa.OrderState
		o := r.order(t).Order
		r.srv.mu.Lock()
		seq := r.srv.last[o.PublicOrderID]
		r.srv.mu.Unlock()
		if err := json.Unmarshal(o.RsaState, &last); err != nil || fmt.Sprint(last.CartParams["seq"]) != fmt.Sprint(seq) {
			t.Fatalf("the order keeps cart_params %v of the RSA's last answer, whose seq is %d (%v)", last.CartParams, seq, err)
		}
	})
}

func TestAnOrderChangedAroundCheckoutdIsSentToTheRSAAsItStands(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		// A hand-made fix in the database: the order's tags, which the RSA is sent.
		r.changeAroundCheckoutd(t, db, func(o *ent.Order, u *ent.OrderUpdateOne) {
			meta := o.MetaData
			meta.Tags = []string{"fixed-by-hand"}
			u.SetMetaData(meta)
		})
		v, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.BillingAddress, albany)
		if err != nil {
			t.Fatal(err)
		}
		// The RSA's answer, applied, is about the order with the fix: it kept the tags it was sent.
		if !slices.Equal(v.Order.MetaData.Tags, []string{"fixed-by-hand"}) || v.Order.BillingAddress == nil {
			t.Fatalf("tags %v, billing address %+v; want the fix's tags and the new address", v.Order.MetaData.Tags, v.Order.BillingAddress)
		}
		if got := r.order(t).Order.MetaData.Tags; !slices.Equal(got, []string{"fixed-by-hand"}) {
			t.Fatalf("order read again: tags %v", got)
		}
	})
}

func TestAChangeAroundCheckoutdThatTheRSAIsNotSentAsksItOnce(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		// A change of what the RSA order state does not hold (the order's flow id).
		r.changeAroundCheckoutd(t, db, func(_ *ent.Order, u *ent.OrderUpdateOne) { u.SetFlowID("fixed-flow") })
		before := r.srv.count("process_order_events")
		v, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.BillingAddress, albany)
		if err != nil {
			t.Fatal(err)
		}
		if n := r.srv.count("process_order_events") - before; n != 1 {
			t.Fatalf("the RSA was asked %d times, want once", n)
		}
		if v.Order.FlowID != "fixed-flow" || v.Order.BillingAddress == nil {
			t.Fatalf("flow id %q, billing address %+v; want the change kept and the new address", v.Order.FlowID, v.Order.BillingAddress)
		}
	})
}

// changeAroundCheckoutd gives the order a shipping address through checkoutd (which keeps the
// order as it left it), then changes its row in the database directly with change and a new
// version, as a hand-made fix or another tool would.
func (r *rsaShop) changeAroundCheckoutd(t *testing.T, db *platform.Database, change func(*ent.Order, *ent.OrderUpdateOne)) {
	t.Helper()
	ctx := context.Background()
	if db.Dialect == dialect.Postgres {
		// The process is alone on its database: once it holds in memory, as on SQLite, it sends
		// the order as it kept it, which is what a change around it makes stale.
		db.SetHoldTimings(quickHolds)
		waitForHoldsInMemory(t, db)
	}
	if _, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany); err != nil {
		t.Fatal(err)
	}
	o := r.order(t).Order
	u := db.Client.Order.UpdateOneID(o.ID).AddVersion(1)
	change(o, u)
	if err := u.Exec(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestAnRSAThatRefusesAnAddressLeavesTheOldAddress(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		if _, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany); err != nil {
			t.Fatal(err)
		}
		r.srv.refuseAddress.Store(true)
		other := albany
		other.AddressLine1 = "PO Box 7"
		_, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, other)
		p := problemOf(t, err)
		if p.Kind != problem.Invalid || p.Type != "rsa.address_refused" || !strings.Contains(p.Message, "we do not deliver there") {
			t.Fatalf("refusal %+v", p)
		}
		if got := r.order(t).Order.ShippingAddress; got == nil || got.AddressLine1 != albany.AddressLine1 {
			t.Fatalf("address %+v, want the old one", got)
		}
		if n := r.srv.count("process_order_events"); n != 1 {
			t.Fatalf("%d events sent, want only the first address's", n)
		}
	})
}

func TestAnAddressOrEmailTheRSAPassedForTheOrderIsNotValidatedAgain(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		// Billing the same as shipping: one validation, two events.
		for _, kind := range []orders.AddressKind{orders.ShippingAddress, orders.BillingAddress} {
			if _, err := r.svc.Orders.SetAddress(ctx, r.sess, kind, albany); err != nil {
				t.Fatal(err)
			}
		}
		if v, e := r.srv.count("validate_address"), r.srv.count("process_order_events"); v != 1 || e != 2 {
			t.Fatalf("%d validations and %d events, want 1 and 2", v, e)
		}
		// A customer updated with the email address they had.
		ada := orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}
		if _, err := r.svc.Orders.CreateCustomer(ctx, r.sess, ada, false); err != nil {
			t.Fatal(err)
		}
		ada.LastName = "Lovelace"
		if _, err := r.svc.Orders.UpdateCustomer(ctx, r.sess, ada); err != nil {
			t.Fatal(err)
		}
		if n := r.srv.count("validate_email_address"); n != 1 {
			t.Fatalf("%d email validations, want 1", n)
		}
		// A refusal is not kept: the same address is put to the RSA again.
		other := albany
		other.AddressLine1 = "PO Box 7"
		r.srv.refuseAddress.Store(true)
		if _, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, other); err == nil {
			t.Fatal("the refused address was applied")
		}
		r.srv.refuseAddress.Store(false)
		if _, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, other); err != nil {
			t.Fatal(err)
		}
		if n := r.srv.count("validate_address"); n != 3 {
			t.Fatalf("%d validations, want 3 (the refused address asked again)", n)
		}
		// Another order's address is its own to validate.
		title, price := "Mug", int64(1000)
		v, err := r.svc.Orders.InitOrder(ctx, r.shop, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price, LineItemKey: "mug"}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.svc.Orders.SetAddress(ctx, &orders.OrderSession{Shop: r.shop, Order: v.Order}, orders.ShippingAddress, albany); err != nil {
			t.Fatal(err)
		}
		if n := r.srv.count("validate_address"); n != 4 {
			t.Fatalf("%d validations, want 4 (another order)", n)
		}
	})
}

func TestAnRSAThatTimesOutLeavesTheOrderUnchanged(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		if _, err := db.Client.RSAConfig.Update().Where(rsaconfig.ShopID(r.shop.ID)).SetTimeoutMs(200).Save(ctx); err != nil {
			t.Fatal(err)
		}
		before := r.order(t).Order
		r.srv.delay.Store(int64(1e9))
		_, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany)
		p := problemOf(t, err)
		if p.Kind != problem.Unavailable || p.Code != rsa.CodeUnavailable || p.Type != "rsa.timeout" {
			t.Fatalf("error %+v, want a 503 rsa.timeout", p)
		}
		after := r.order(t).Order
		if after.Version != before.Version || after.ShippingAddress != nil || len(after.RsaState) != 0 {
			t.Fatalf("order changed: version %d→%d, address %+v", before.Version, after.Version, after.ShippingAddress)
		}
		// Its lease was given back: the next change goes through at once.
		r.srv.delay.Store(0)
		if _, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany); err != nil {
			t.Fatal(err)
		}
	})
}

func TestAFinalInventoryRefusalStopsProcessingWithNothingAuthorized(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		gw := gatewaytest.New(t, "tok")
		g, err := r.svc.Shops.CreateExternalPaymentGateway(ctx, r.shop, shops.ExternalPaymentGatewayInput{Name: ptr("Cards"), BaseURL: ptr(gw.URL),
			APIToken: input.Of("tok"), PartialCapture: ptr(true), AdditionalOrderDetails: ptr(false), ProviderID: ptr(gatewaytest.ProviderID), Currency: ptr("USD")})
		if err != nil {
			t.Fatal(err)
		}
		if r.srv.count("validate_inventory") != 1 {
			t.Fatalf("init asked validate_inventory %d times, want once (initial)", r.srv.count("validate_inventory"))
		}
		for _, step := range []func() (*orders.OrderView, error){
			func() (*orders.OrderView, error) {
				return r.svc.Orders.CreateCustomer(ctx, r.sess, orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}, false)
			},
			func() (*orders.OrderView, error) {
				return r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany)
			},
			func() (*orders.OrderView, error) {
				return r.svc.Orders.SetAddress(ctx, r.sess, orders.BillingAddress, albany)
			},
			func() (*orders.OrderView, error) { return r.svc.Orders.SelectShippingLine(ctx, r.sess, "0", "") },
			func() (*orders.OrderView, error) {
				return r.svc.Orders.AddPayment(ctx, r.sess, orders.PaymentInput{GatewayPublicID: g.PublicID, Token: gatewaytest.TokenOK})
			},
		} {
			if _, err := step(); err != nil {
				t.Fatal(err)
			}
		}
		r.srv.refuseFinal.Store(true)
		_, err = r.svc.Checkout.ProcessOrder(ctx, r.sess)
		p := problemOf(t, err)
		if p.Type != "rsa.inventory_refused" || !strings.Contains(p.Message, "the last mug was sold") {
			t.Fatalf("refusal %+v", p)
		}
		if n := len(gw.Auths()); n != 0 {
			t.Fatalf("%d authorizations, want none", n)
		}
		if o := r.order(t).Order; o.Status != order.StatusOpen || o.Reserved {
			t.Fatalf("order %s reserved %v, want open and nothing reserved", o.Status, o.Reserved)
		}
		// Accepted, it is processed at the RSA's total.
		r.srv.refuseFinal.Store(false)
		res, err := r.svc.Checkout.ProcessOrder(ctx, r.sess)
		if err != nil {
			t.Fatal(err)
		}
		if auths := gw.Auths(); len(auths) != 1 || auths[0].Amount != 2000+500 || res.View.Order.Status != order.StatusProcessed {
			t.Fatalf("authorizations %+v, order %s; want one of 25.00 and processed", auths, res.View.Order.Status)
		}
	})
}

func TestDeletingTheRSABringsBackTheBuiltInBehaviour(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		r.srv.fee = "2.50"
		v, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany)
		if err != nil || v.Pricing.FeeTotal != 250 {
			t.Fatalf("fees %v, %v", v, err)
		}
		if err := r.svc.Shops.DeleteRSAConfig(ctx, r.shop); err != nil {
			t.Fatal(err)
		}
		calls := r.srv.count("process_order_events") + r.srv.count("validate_address")
		other := albany
		other.City = "Troy"
		if v, err = r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, other); err != nil {
			t.Fatal(err)
		}
		if v.Order.ShippingAddress.City != "Troy" || v.Pricing.FeeTotal != 0 || v.Pricing.Total != 2000 || v.Order.OutsidePricing != nil {
			t.Fatalf("address %+v, fees %d, total %d, outside pricing %+v", v.Order.ShippingAddress, v.Pricing.FeeTotal, v.Pricing.Total, v.Order.OutsidePricing)
		}
		if _, err := r.svc.Orders.ApplyDiscountCode(ctx, r.sess, "TENOFF"); problemOf(t, err).Type != "discount.invalid_code" {
			t.Fatalf("a code the shop does not have: %v, want the built-in refusal", err)
		}
		if n := r.srv.count("process_order_events") + r.srv.count("validate_address"); n != calls {
			t.Fatalf("the deleted RSA was called %d times more", n-calls)
		}
	})
}

func TestAnRSAThatRefusesCheckoutdsSignatureIsUnavailableNotARefusalOfTheChange(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		r := newRSAShop(t, db)
		if _, err := r.svc.Shops.UpdateRSAConfig(ctx, r.shop, shops.RSAConfigInput{SharedSecret: ptr("another-secret")}); err != nil {
			t.Fatal(err)
		}
		_, err := r.svc.Orders.SetAddress(ctx, r.sess, orders.ShippingAddress, albany)
		if p := problemOf(t, err); p.Kind != problem.Unavailable || p.Type != "rsa.unavailable" || !strings.Contains(p.Message, "shared secret") {
			t.Fatalf("error %+v, want a 503 naming the shared secret", p)
		}
		if r.order(t).Order.ShippingAddress != nil {
			t.Fatal("the address was applied")
		}
	})
}

// quickHolds let a process alone on its PostgreSQL hold orders in memory after a moment
// (platform.HoldTimings).
var quickHolds = platform.HoldTimings{Settle: 100 * time.Millisecond, Check: 20 * time.Millisecond, Retry: 50 * time.Millisecond}

// waitForHoldsInMemory waits until db's process holds orders in memory.
func waitForHoldsInMemory(t *testing.T, db *platform.Database) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		release, inMemory, taken, err := db.HoldKey(context.Background(), -1, time.Second)
		if err != nil || !taken {
			t.Fatalf("holding: taken %v, %v", taken, err)
		}
		release()
		if inMemory {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the process alone on its database never came to hold in memory")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
