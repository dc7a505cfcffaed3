package rest_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

// verifiedOrder is processedOrder in a shop that only verifies payments at process_order.
func verifiedOrder(t *testing.T, a *api, gws ...*gatewaytest.Server) *processed {
	t.Helper()
	s := a.do("PATCH", "/checkout/shop/"+a.shop+"/settings", map[string]any{"verify_payments_only": true}).wantStatus(t, 200).data(t)["settings"].(map[string]any)
	if s["verify_payments_only"] != true {
		t.Fatalf("settings %v", s)
	}
	return processedOrder(t, a, gws...)
}

// payment is the order's payment i as its application state shows it.
func (p *processed) payment(i int) map[string]any {
	p.t.Helper()
	return p.state()["payments"].([]any)[i].(map[string]any)
}

func TestUnderVerifyPaymentsOnlyProcessOrderVerifiesEachCardAndAuthorizesNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := verifiedOrder(t, a, gw1, gw2)
		for i, gw := range []*gatewaytest.Server{gw1, gw2} {
			if n, auths := len(gw.Calls("/retain")), len(gw.Calls("/auth")); n != 1 || auths != 0 {
				t.Fatalf("gateway %d: %d retains and %d authorizations, want 1 and 0", i, n, auths)
			}
			if pay := p.payment(i); pay["status"] != "verified" || pay["step"] != "awaitingPreAuth" {
				t.Fatalf("payment %d after process_order: %v", i, pay)
			}
		}
		if p.state()["is_processed"] != true {
			t.Fatal("the order was not processed")
		}
		e := p.post("/payments/capture/full", map[string]any{}, "").wantError(t, 422, "", "capture.nothing_to_capture")
		if msg, _ := e["message"].(string); !strings.Contains(msg, "awaitingPreAuth") {
			t.Fatalf("a full capture of verified payments does not say why: %v", e)
		}
	})
}

func TestCaptureSpecificPaymentAuthorizesAndChargesAVerifiedPayment(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := verifiedOrder(t, a, gw1, gw2)
		first := p.payment(0)["id"].(string)
		p.post("/payments/capture/payment/"+first, map[string]any{"amount": 1001}, "").wantError(t, 422, "", "capture.exceeds_verified")
		res := p.post("/payments/capture/payment/"+first, map[string]any{"amount": 800}, "charge-1").wantStatus(t, 200)
		d := res.data(t)
		if num(d, "paid_total") != 800 || num(d, "amount_remaining") != p.total-800 || len(d["transactions"].([]any)) != 1 {
			t.Fatalf("charge result %v", d)
		}
		auths := gw1.Calls("/auth")
		if len(auths) != 1 || auths[0].Body["token"] != "retained_tok_0" || auths[0].Body["amount"] != float64(800) {
			t.Fatalf("the charge's authorization %v, want 800 on the retained token", auths)
		}
		if captured, _ := gw1.Totals(); captured != 800 {
			t.Fatalf("gateway captured %d, want 800", captured)
		}
		if pay := p.payment(0); pay["status"] != "authorized" || pay["step"] != "preAuthed" {
			t.Fatalf("payment after its charge %v", pay)
		}
		wantReplay(t, res, p.post("/payments/capture/payment/"+first, map[string]any{"amount": 800}, "charge-1"))
		if len(gw1.Calls("/auth")) != 1 || len(gw1.Calls("/capture")) != 1 {
			t.Fatal("the replay reached the gateway")
		}
		p.post("/payments/capture/payment/"+first, map[string]any{"amount": 200}, "").wantError(t, 422, "", "capture.nothing_to_capture")
		// The other payment is still verified, untouched.
		if pay := p.payment(1); pay["status"] != "verified" || len(gw2.Calls("/auth")) != 0 {
			t.Fatalf("the other payment %v", pay)
		}
		// What was charged is refunded like any capture.
		p.post("/refunds/payment/"+first, map[string]any{"amount": 800}, "").wantStatus(t, 200)
	})
}

func TestAChargeTheGatewayDeclinesLeavesThePaymentAwaitingPreAuth(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		id := addGateway(t, a, gw, "Gateway")
		a.do("PATCH", "/checkout/shop/"+a.shop+"/settings", map[string]any{"verify_payments_only": true}).wantStatus(t, 200)
		c := readyCheckout(t, a, cart())
		c.pay(id, gatewaytest.TokenDecline, 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		p := &processed{checkout: c, total: c.total(), backend: "/checkout/orders/" + a.shop + "/" + c.id}
		pay := p.payment(0)["id"].(string)
		e := p.post("/payments/capture/payment/"+pay, map[string]any{"amount": 500}, "").wantError(t, 422, "", "capture.failed")
		if tx := e["details"].(map[string]any)["transactions"].([]any)[0].(map[string]any); tx["response_code"] != "card_declined" {
			t.Fatalf("the refusal does not say why: %v", tx)
		}
		if got := p.payment(0); got["status"] != "verified" || got["step"] != "awaitingPreAuth" {
			t.Fatalf("payment after a declined charge %v", got)
		}
		if captured, _ := gw.Totals(); captured != 0 || len(gw.Calls("/capture")) != 0 {
			t.Fatal("a declined authorization was captured")
		}
	})
}

func TestAChargeWhoseCaptureIsRefusedVoidsItsAuthorizationAndCanBeMadeAgain(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := verifiedOrder(t, a, gw)
		pay := p.payment(0)["id"].(string)
		gw.SetMode("/capture", "decline")
		p.post("/payments/capture/payment/"+pay, map[string]any{"amount": 500}, "").wantError(t, 422, "", "capture.failed")
		if open := gw.OpenAuths(); len(open) != 0 {
			t.Fatalf("authorizations left open after a refused charge: %v", open)
		}
		if got := p.payment(0); got["status"] != "verified" || got["step"] != "awaitingPreAuth" {
			t.Fatalf("payment after a refused charge %v", got)
		}
		gw.SetMode("/capture", "")
		d := p.post("/payments/capture/payment/"+pay, map[string]any{"amount": 500}, "").wantStatus(t, 200).data(t)
		if num(d, "paid_total") != 500 {
			t.Fatalf("second charge %v", d)
		}
	})
}

func TestAChargeWhoseCaptureAnswerWasLostIsFinishedByTheFollowUpWithoutASecondAuthorization(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := verifiedOrder(t, a, gw)
		pay := p.payment(0)["id"].(string)
		gw.SetMode("/capture", "error")
		d := p.post("/payments/capture/payment/"+pay, map[string]any{"amount": 500}, "lost").wantStatus(t, 202).data(t)
		if num(d, "captured_held_total") != 500 {
			t.Fatalf("pending charge %v", d)
		}
		// The amount in doubt is held: another call cannot capture it again.
		p.post("/payments/capture/payment/"+pay, map[string]any{"amount": 500}, "another").wantError(t, 422, "", "capture.nothing_to_capture")
		gw.SetMode("/capture", "")
		a.clock.Advance(time.Minute)
		if err := a.svc.Checkout.FollowUpPendingMoves(context.Background(), 30*time.Second); err != nil {
			t.Fatal(err)
		}
		if got := p.ledger(paymenttransaction.KindCapture, paymenttransaction.StatusSucceeded); got != 500 {
			t.Fatalf("captured in the ledger after the follow-up: %d, want 500", got)
		}
		if n := len(gw.Auths()); n != 1 {
			t.Fatalf("%d authorizations at the gateway, want 1", n)
		}
		d = p.post("/payments/capture/payment/"+pay, map[string]any{"amount": 500}, "lost").wantStatus(t, 200).data(t)
		if num(d, "paid_total") != 500 {
			t.Fatalf("the retry answers %v", d)
		}
	})
}

func TestTwoConcurrentChargesOfOneVerifiedPaymentChargeItOnce(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := verifiedOrder(t, a, gw)
		pay := p.payment(0)["id"].(string)
		statuses := make([]int, 2)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = p.post("/payments/capture/payment/"+pay, map[string]any{"amount": 500}, "").Status
			}()
		}
		wg.Wait()
		if captured, _ := gw.Totals(); captured != 500 || len(gw.Auths()) != 1 {
			t.Fatalf("captured %d with %d authorizations (statuses %v), want 500 once", captured, len(gw.Auths()), statuses)
		}
	})
}

func TestAVerificationTheGatewayRefusesFailsProcessOrderWithNothingAuthorized(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		id := addGateway(t, a, gw, "Gateway")
		a.do("PATCH", "/checkout/shop/"+a.shop+"/settings", map[string]any{"verify_payments_only": true}).wantStatus(t, 200)
		c := readyCheckout(t, a, cart())
		c.pay(id, "tok_1", 0).wantStatus(t, 200)
		gw.SetMode("/retain", "decline")
		e := c.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.declined")
		if msg, _ := e["message"].(string); !strings.Contains(msg, "not verified") {
			t.Fatalf("the refusal %v", e)
		}
		if len(gw.Calls("/auth")) != 0 || c.state()["is_processed"] != false {
			t.Fatalf("after a refused verification: %d authorizations, processed %v", len(gw.Calls("/auth")), c.state()["is_processed"])
		}
	})
}
