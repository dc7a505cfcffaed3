package override_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// peer is an override server: it verifies each call's signature with its secret, counts the
// calls by override type, and answers what answer says.
type peer struct {
	secret string
	srv    *httptest.Server
	mu     sync.Mutex
	calls  map[string]int
	answer func(req override.Request) (int, any)
}

func newPeer(t *testing.T, secret string, answer func(req override.Request) (int, any)) *peer {
	p := &peer{secret: secret, calls: map[string]int{}, answer: answer}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := hmacsig.Verify(r.Header, []byte(secret), time.Now()); err != nil {
			t.Errorf("unsigned or wrongly signed call: %v", err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var req override.Request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("body: %v", err)
		}
		p.mu.Lock()
		p.calls[req.OverrideType]++
		p.mu.Unlock()
		status, body := p.answer(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *peer) called(typ string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls[typ]
}

// answers is a peer that answers every type as a working override of each would.
func answers(taxValue int64) func(req override.Request) (int, any) {
	return func(req override.Request) (int, any) {
		switch req.OverrideType {
		case override.AddressValidate:
			valid := req.Address.City != "Nowhere"
			corrected := *req.Address
			corrected.City = "Ottawa (verified)"
			return 200, map[string]any{"valid": valid, "message": "we do not deliver to Nowhere", "address": corrected}
		case override.Shipping:
			return 200, map[string]any{"shipping_lines": []map[string]any{{"id": "drone", "description": "Drone", "amount": 777, "code": "drone"}}}
		case override.Discount:
			return 200, map[string]any{"valid": req.Code == "OUTSIDE", "message": "unknown to the loyalty system", "text": "Loyalty", "value": 250}
		case override.Inventory:
			return 200, map[string]any{"result": "fail", "reason": "warehouse_empty", "failed_items": []map[string]any{
				{"platform_variant_id": "v-1", "available_quantity": 0, "requested_quantity": 1, "line_item_keys": []string{"mug"}}}}
		case override.Tax:
			return 200, map[string]any{"line_taxes": map[string]any{"mug": []map[string]any{{"name": "Outside tax", "value": taxValue}}}}
		}
		return 404, map[string]any{}
	}
}

func failing(req override.Request) (int, any) { return 500, map[string]any{"error": "down"} }

var shopCount atomic.Int64

type fixture struct {
	svc  *service.Service
	sh   *ent.Shop
	sess *orders.OrderSession
}

// setUp opens a shop with a 5% GST zone in Canada, and an order of one mug (1000, line mug).
func setUp(t *testing.T, db *platform.Database, init []override.OrderInput) *fixture {
	t.Helper()
	ctx := context.Background()
	svc := service.New(db, service.WithOutboundAllowPrivate(true))
	created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: fmt.Sprintf("shop-%d", shopCount.Add(1))})
	if err != nil {
		t.Fatal(err)
	}
	sh := created.Shop
	if _, err := svc.Shops.CreateTaxZone(ctx, sh, shops.TaxZoneInput{Name: "GST", CountryCode: "CA", RatePpm: 50_000}); err != nil {
		t.Fatal(err)
	}
	title, price := "Mug", int64(1000)
	v, err := svc.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price, LineItemKey: "mug"}},
		APIOverrides: init})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{svc: svc, sh: sh, sess: &orders.OrderSession{Shop: sh, Order: v.Order}}
}

func (f *fixture) override(t *testing.T, typ string, p *peer, policy string) *ent.APIOverride {
	t.Helper()
	in := shops.APIOverrideInput{OverrideType: &typ, URL: &p.srv.URL, SharedSecret: &p.secret}
	if policy != "" {
		in.FailurePolicy = &policy
	}
	o, err := f.svc.Shops.CreateAPIOverride(context.Background(), f.sh, in)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// session is a fresh session of the order, as each shopper request opens.
func (f *fixture) session() *orders.OrderSession {
	return &orders.OrderSession{Shop: f.sh, Order: f.sess.Order}
}

func ottawa() orders.AddressInput {
	return orders.AddressInput{CountryCode: "CA", ProvinceCode: "ON", PostalCode: "K1A 0B1", City: "Ottawa"}
}

func (f *fixture) shipToOttawa(t *testing.T) *orders.OrderView {
	t.Helper()
	v, err := f.svc.Orders.SetAddress(context.Background(), f.session(), orders.ShippingAddress, ottawa())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func wantProblem(t *testing.T, err error, kind problem.Kind, typ string) {
	t.Helper()
	if e, ok := problem.As(err); !ok || e.Kind != kind || e.Type != typ {
		t.Fatalf("error %v, want %s %s", err, kind, typ)
	}
}

func outsideTax(v *orders.OrderView) int64 {
	for _, x := range v.Pricing.Taxes {
		if x.Name == "Outside tax" {
			return x.Value
		}
	}
	return -1
}

func TestEachOverrideTypeReplacesTheBuiltInFunction(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()

		t.Run("address_validate refuses an address with its message, and corrects one it accepts", func(t *testing.T) {
			f := setUp(t, db, nil)
			f.override(t, override.AddressValidate, newPeer(t, "addr-secret", answers(0)), "")
			nowhere := ottawa()
			nowhere.City = "Nowhere"
			_, err := f.svc.Orders.SetAddress(ctx, f.session(), orders.ShippingAddress, nowhere)
			wantProblem(t, err, problem.Invalid, "address.invalid_address")
			if e, _ := problem.As(err); e.Details["override_type"] != override.AddressValidate {
				t.Fatalf("details %v", e.Details)
			}
			if v := f.shipToOttawa(t); v.Order.ShippingAddress.City != "Ottawa (verified)" {
				t.Fatalf("address %+v, want the override's correction", v.Order.ShippingAddress)
			}
		})

		t.Run("shipping offers the override's lines in place of the shop's rates", func(t *testing.T) {
			f := setUp(t, db, nil)
			f.override(t, override.Shipping, newPeer(t, "ship-secret", answers(0)), "")
			v := f.shipToOttawa(t)
			if len(v.ShippingLines) != 1 || v.ShippingLines[0].ID != "drone" {
				t.Fatalf("shipping lines %+v", v.ShippingLines)
			}
			v, err := f.svc.Orders.SelectShippingLine(ctx, f.session(), "drone", "")
			if err != nil {
				t.Fatal(err)
			}
			if v.Pricing.Shipping != 777 || v.Pricing.Total != 1000+777 {
				t.Fatalf("shipping %d, total %d", v.Pricing.Shipping, v.Pricing.Total)
			}
		})

		t.Run("discount validates and values a code the shop does not have", func(t *testing.T) {
			f := setUp(t, db, nil)
			f.override(t, override.Discount, newPeer(t, "disc-secret", answers(0)), "")
			_, err := f.svc.Orders.ApplyDiscountCode(ctx, f.session(), "WRONG")
			wantProblem(t, err, problem.Invalid, "discount.invalid_code")
			v, err := f.svc.Orders.ApplyDiscountCode(ctx, f.session(), "outside")
			if err != nil {
				t.Fatal(err)
			}
			if v.Pricing.DiscountTotal != 250 || v.Pricing.Total != 750 || v.Pricing.Discounts[0].Text != "Loyalty" {
				t.Fatalf("discounts %+v, total %d", v.Pricing.Discounts, v.Pricing.Total)
			}
			v, err = f.svc.Orders.RemoveDiscountCode(ctx, f.session(), "OUTSIDE")
			if err != nil {
				t.Fatal(err)
			}
			if v.Pricing.Total != 1000 {
				t.Fatalf("total %d after removing the code", v.Pricing.Total)
			}
		})

		t.Run("inventory answers the override's check", func(t *testing.T) {
			f := setUp(t, db, nil)
			f.override(t, override.Inventory, newPeer(t, "inv-secret", answers(0)), "")
			check, _, err := f.svc.Orders.CheckInventory(ctx, f.session(), orders.InventoryStageFinal)
			if err != nil {
				t.Fatal(err)
			}
			if check.Result != orders.InventoryFail || check.Reason != "warehouse_empty" || len(check.FailedItems) != 1 || check.OverrideFallback {
				t.Fatalf("check %+v", check)
			}
		})

		t.Run("tax charges the override's taxes in place of the shop's zones", func(t *testing.T) {
			f := setUp(t, db, nil)
			f.override(t, override.Tax, newPeer(t, "tax-secret", answers(80)), "")
			f.shipToOttawa(t)
			v, err := f.svc.Orders.GenerateTaxes(ctx, f.session())
			if err != nil {
				t.Fatal(err)
			}
			if len(v.Pricing.Taxes) != 1 || outsideTax(v) != 80 || v.Pricing.Total != 1080 {
				t.Fatalf("taxes %+v, total %d", v.Pricing.Taxes, v.Pricing.Total)
			}
		})
	})
}

func TestAnOrdersOwnOverrideBeatsTheShops(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		shopPeer, orderPeer := newPeer(t, "shop-secret", answers(10)), newPeer(t, "order-secret", answers(99))
		f := setUp(t, db, []override.OrderInput{{OverrideType: override.Tax, URL: orderPeer.srv.URL, SharedSecret: orderPeer.secret}})
		f.override(t, override.Tax, shopPeer, "")
		f.shipToOttawa(t)
		v, err := f.svc.Orders.GenerateTaxes(context.Background(), f.session())
		if err != nil {
			t.Fatal(err)
		}
		if outsideTax(v) != 99 || shopPeer.called(override.Tax) != 0 || orderPeer.called(override.Tax) != 1 {
			t.Fatalf("taxes %+v; shop's override called %d times, order's %d", v.Pricing.Taxes, shopPeer.called(override.Tax), orderPeer.called(override.Tax))
		}
	})
}

func TestRefusePolicyFailsTheRequestAndChangesNothing(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		f := setUp(t, db, nil)
		f.override(t, override.Tax, newPeer(t, "tax-secret", failing), override.Refuse)
		f.shipToOttawa(t)
		_, err := f.svc.Orders.GenerateTaxes(context.Background(), f.session())
		wantProblem(t, err, problem.Unavailable, "override.unavailable")
		v, err := f.svc.Orders.OrderState(context.Background(), f.session())
		if err != nil {
			t.Fatal(err)
		}
		if v.Order.TaxBasis != nil || v.Order.OutsidePricing != nil || len(v.OverrideFallbacks) != 0 {
			t.Fatalf("the refused request changed the order: basis %+v, outside %+v", v.Order.TaxBasis, v.Order.OutsidePricing)
		}
	})
}

func TestFallbackPolicyUsesTheBuiltInFunctionAndSaysSo(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := setUp(t, db, nil)
		tax := newPeer(t, "tax-secret", failing)
		f.override(t, override.Tax, tax, override.Fallback)
		f.shipToOttawa(t)
		v, err := f.svc.Orders.GenerateTaxes(ctx, f.session())
		if err != nil {
			t.Fatal(err)
		}
		if v.Pricing.TaxTotal != 50 || !slices.Equal(v.OverrideFallbacks, []string{override.Tax}) ||
			!slices.Equal(v.State().OverrideFallbacks, []string{override.Tax}) {
			t.Fatalf("tax total %d (want the GST zone's 50), fallbacks %v", v.Pricing.TaxTotal, v.OverrideFallbacks)
		}
		// Once the override answers again, the answer no longer says so.
		tax.answer = answers(80)
		if v, err = f.svc.Orders.GenerateTaxes(ctx, f.session()); err != nil {
			t.Fatal(err)
		}
		if outsideTax(v) != 80 || len(v.OverrideFallbacks) != 0 {
			t.Fatalf("taxes %+v, fallbacks %v", v.Pricing.Taxes, v.OverrideFallbacks)
		}
	})
}

func TestAddressValidationAndInventoryFallBackByDefault(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		f := setUp(t, db, nil)
		f.override(t, override.AddressValidate, newPeer(t, "addr-secret", failing), "")
		f.override(t, override.Inventory, newPeer(t, "inv-secret", failing), "")
		v := f.shipToOttawa(t)
		if v.Order.ShippingAddress.City != "Ottawa" || !slices.Equal(v.OverrideFallbacks, []string{override.AddressValidate}) {
			t.Fatalf("address %+v, fallbacks %v", v.Order.ShippingAddress, v.OverrideFallbacks)
		}
		check, _, err := f.svc.Orders.CheckInventory(context.Background(), f.session(), orders.InventoryStageInitial)
		if err != nil {
			t.Fatal(err)
		}
		if check.Result != orders.InventoryPass || !check.OverrideFallback {
			t.Fatalf("check %+v", check)
		}
	})
}

func TestAnOpenCircuitAppliesThePolicyWithoutCallingTheRemote(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := setUp(t, db, nil)
		tax := newPeer(t, "tax-secret", failing)
		f.override(t, override.Tax, tax, override.Refuse)
		f.shipToOttawa(t)
		for range 5 {
			_, err := f.svc.Orders.GenerateTaxes(ctx, f.session())
			wantProblem(t, err, problem.Unavailable, "override.unavailable")
		}
		tax.answer = answers(80)
		_, err := f.svc.Orders.GenerateTaxes(ctx, f.session())
		wantProblem(t, err, problem.Unavailable, "override.unavailable")
		if n := tax.called(override.Tax); n != 5 {
			t.Fatalf("the override was called %d times, want 5: the open circuit must not call it", n)
		}
	})
}

func TestDeletingAnOverrideBringsBackTheBuiltInBehaviour(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := setUp(t, db, nil)
		tax := f.override(t, override.Tax, newPeer(t, "tax-secret", answers(80)), "")
		ship := f.override(t, override.Shipping, newPeer(t, "ship-secret", answers(0)), "")
		f.shipToOttawa(t)
		if _, err := f.svc.Orders.GenerateTaxes(ctx, f.session()); err != nil {
			t.Fatal(err)
		}
		for _, o := range []*ent.APIOverride{tax, ship} {
			if err := f.svc.Shops.DeleteAPIOverride(ctx, f.sh, o.PublicID); err != nil {
				t.Fatal(err)
			}
		}
		v, err := f.svc.Orders.OrderState(ctx, f.session())
		if err != nil {
			t.Fatal(err)
		}
		if v.Pricing.TaxTotal != 50 || outsideTax(v) != -1 || len(v.ShippingLines) == 0 || v.ShippingLines[0].ID == "drone" {
			t.Fatalf("taxes %+v, shipping lines %+v: want the shop's own again", v.Pricing.Taxes, v.ShippingLines)
		}
	})
}

func TestAnOverrideIsCalledOncePerShopperRequest(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := setUp(t, db, nil)
		p := newPeer(t, "secret", answers(80))
		f.override(t, override.AddressValidate, p, "")
		f.override(t, override.Shipping, p, "")
		f.override(t, override.Tax, p, "")
		f.shipToOttawa(t)
		if p.called(override.AddressValidate) != 1 || p.called(override.Shipping) != 1 {
			t.Fatalf("calls %v", p.calls)
		}
		// One request that needs the tax override's answer twice (a front door answering two
		// fields from it) calls it once.
		req := override.WithMemo(ctx)
		for range 2 {
			if _, err := f.svc.Orders.GenerateTaxes(req, f.session()); err != nil {
				t.Fatal(err)
			}
		}
		if n := p.called(override.Tax); n != 1 {
			t.Fatalf("tax override called %d times in one request", n)
		}
	})
}

func TestAShopWithARemoteStateAuthorityCallsNoOverride(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := setUp(t, db, nil)
		p := newPeer(t, "secret", answers(80))
		f.override(t, override.AddressValidate, p, "")
		f.override(t, override.Tax, p, "")
		// The RSA validates everything and answers each event with the state it was sent.
		var rsaCalls atomic.Int32
		rsaServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := hmacsig.Verify(r.Header, []byte("rsa-secret"), time.Now()); err != nil {
				http.Error(w, `{"error":"bad signature"}`, http.StatusUnauthorized)
				return
			}
			rsaCalls.Add(1)
			var body struct {
				OrderState json.RawMessage `json:"order_state"`
			}
			_ = json.NewDecoder(r.Body).Decode(&body)
			w.Header().Set("Content-Type", "application/json")
			if strings.HasSuffix(r.URL.Path, "/process_order_events") {
				_, _ = w.Write(body.OrderState)
				return
			}
			_, _ = w.Write([]byte(`{}`))
		}))
		t.Cleanup(rsaServer.Close)
		url, secret := rsaServer.URL, "rsa-secret"
		if _, err := f.svc.Shops.CreateRSAConfig(ctx, f.sh, shops.RSAConfigInput{URL: &url, SharedSecret: &secret}); err != nil {
			t.Fatal(err)
		}
		f.shipToOttawa(t)
		if _, err := f.svc.Orders.GenerateTaxes(ctx, f.session()); err != nil {
			t.Fatal(err)
		}
		if len(p.calls) != 0 || rsaCalls.Load() == 0 {
			t.Fatalf("override calls %v, RSA calls %d", p.calls, rsaCalls.Load())
		}
	})
}

func TestOrderOverrideSecretsAreSealedAtRest(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		const clear = "order-override-clear-4711"
		setUp(t, db, []override.OrderInput{{OverrideType: override.Tax, URL: "https://tax.example.com", SharedSecret: clear}})
		var stored string
		if err := db.SQL.QueryRow("SELECT shared_secret FROM order_api_overrides").Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored == clear || len(stored) < len("enc:v1:") || stored[:7] != "enc:v1:" {
			t.Fatalf("stored %q", stored)
		}
		_ = schema.OutsideFromOverride
	})
}

func TestAFinalInventoryRefusalStopsProcessingBeforeAnythingIsReserved(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := setUp(t, db, nil)
		inv := newPeer(t, "inv-secret", answers(0))
		f.override(t, override.Inventory, inv, "")
		_, err := f.svc.Checkout.ProcessOrder(ctx, f.session())
		wantProblem(t, err, problem.Invalid, "inventory.insufficient")
		v, err := f.svc.Orders.OrderState(ctx, f.session())
		if err != nil {
			t.Fatal(err)
		}
		if v.Order.Status.String() != "open" || v.Order.Reserved || inv.called(override.Inventory) != 1 {
			t.Fatalf("status %s, reserved %v, calls %d", v.Order.Status, v.Order.Reserved, inv.called(override.Inventory))
		}
	})
}

func TestATaxEstimateAsksTheTaxOverrideForTheAddressGiven(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		f := setUp(t, db, nil)
		var askedCity string
		tax := newPeer(t, "tax-secret", func(req override.Request) (int, any) {
			askedCity = req.Order.ShippingAddress.City
			return answers(33)(req)
		})
		f.override(t, override.Tax, tax, "")
		f.shipToOttawa(t)
		elsewhere := ottawa()
		elsewhere.City = "Toronto"
		est, err := f.svc.Orders.EstimateTaxes(context.Background(), f.session(), elsewhere)
		if err != nil {
			t.Fatal(err)
		}
		if askedCity != "Toronto" || est.TaxTotal != 33 || est.Total != 1033 {
			t.Fatalf("asked for %q; estimate %+v", askedCity, est)
		}
	})
}

func TestAnAnswerAboutAnOrderAnotherProcessChangedMeanwhileIsAskedAgain(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		f := setUp(t, db, nil)
		// The tax override charges 100 a mug: an answer about a stale order shows in the tax.
		p := newPeer(t, "secret", func(req override.Request) (int, any) {
			q := 0
			for _, li := range req.Order.LineItems {
				q += li.Quantity
			}
			return 200, map[string]any{"line_taxes": map[string]any{"mug": []map[string]any{{"name": "Outside tax", "value": 100 * q}}}}
		})
		f.override(t, override.Tax, p, "")
		f.shipToOttawa(t)
		// Another checkoutd process on the same database makes it three mugs; this one still
		// keeps the order of its last change.
		other := service.New(db, service.WithOutboundAllowPrivate(true))
		three := 3
		if _, err := other.Orders.UpdateLineItemQuantity(ctx, f.session(), "mug", &three); err != nil {
			t.Fatal(err)
		}
		v, err := f.svc.Orders.GenerateTaxes(ctx, f.session())
		if err != nil {
			t.Fatal(err)
		}
		if got := outsideTax(v); got != 300 {
			t.Fatalf("outside tax %d, want 300 (the answer about three mugs)", got)
		}
		if n := p.called(override.Tax); n != 2 {
			t.Fatalf("tax override called %d times, want 2: once about the kept order, once again about the order as it stands", n)
		}
	})
}
