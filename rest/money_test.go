package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// processed is a processed order paid through test gateways, seen from the back office.
type processed struct {
	*checkout
	total   int64
	backend string
}

// processedOrder processes an order of cart() (5500 with shipping) paid by the gateways in turn:
// each but the last pays 1000, the last pays the rest.
func processedOrder(t *testing.T, a *api, gws ...*gatewaytest.Server) *processed {
	t.Helper()
	ids := make([]string, len(gws))
	for i, gw := range gws {
		ids[i] = addGateway(t, a, gw, fmt.Sprintf("Gateway %d", i))
	}
	c := readyCheckout(t, a, cart())
	for i, id := range ids {
		amount := int64(1000)
		if i == len(ids)-1 {
			amount = 0
		}
		c.pay(id, fmt.Sprintf("tok_%d", i), amount).wantStatus(t, 200)
	}
	c.call("POST", "/process_order", nil).wantStatus(t, 200)
	return &processed{checkout: c, total: c.total(), backend: "/checkout/orders/" + a.shop + "/" + c.id}
}

func (p *processed) post(path string, body any, key string) response {
	p.t.Helper()
	if key == "" {
		return p.a.do("POST", p.backend+path, body)
	}
	return p.a.doWithHeader("POST", p.backend+path, body, http.Header{"Idempotency-Key": {key}})
}

func (p *processed) ledger(kind paymenttransaction.Kind, status paymenttransaction.Status) int64 {
	p.t.Helper()
	entries, err := p.a.svc.Client().PaymentTransaction.Query().Where(paymenttransaction.HasOrderWith(order.PublicOrderID(p.id)),
		paymenttransaction.KindEQ(kind), paymenttransaction.StatusEQ(status)).All(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	var sum int64
	for _, e := range entries {
		sum += e.Amount
	}
	return sum
}

func num(m map[string]any, k string) int64 { return int64(m[k].(float64)) }

func TestCaptureForTheFullOrderAmountAnswersTheCaptureResult(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw1, gw2)
		d := p.post("/payments/capture/full", map[string]any{"reauth": true, "capture_data": map[string]any{"note": "ship day"}}, "").wantStatus(t, 200).data(t)
		if num(d, "order_total") != p.total || num(d, "paid_total") != p.total || num(d, "amount_remaining") != 0 || num(d, "captured_held_total") != 0 {
			t.Fatalf("capture result %v", d)
		}
		txs := d["transactions"].([]any)
		if len(txs) != 2 || txs[0].(map[string]any)["status"] != "success" || txs[0].(map[string]any)["transaction_id"] == "" {
			t.Fatalf("transactions %v", txs)
		}
		c1, _ := gw1.Totals()
		c2, _ := gw2.Totals()
		if c1 != 1000 || c2 != p.total-1000 {
			t.Fatalf("gateways captured %d and %d", c1, c2)
		}
		p.post("/payments/capture/full", map[string]any{}, "").wantError(t, 422, "", "capture.nothing_to_capture")
	})
}

func TestCaptureOfAnArbitraryAmountIsSpreadInTenderOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw1, gw2)
		d := p.post("/payments/capture", map[string]any{"amount": 1500}, "").wantStatus(t, 200).data(t)
		if num(d, "paid_total") != 1500 || num(d, "amount_remaining") != p.total-1500 {
			t.Fatalf("capture result %v", d)
		}
		c1, _ := gw1.Totals()
		c2, _ := gw2.Totals()
		if c1 != 1000 || c2 != 500 {
			t.Fatalf("gateways captured %d and %d, want 1000 then 500", c1, c2)
		}
	})
}

func TestCaptureMoreThanIsAuthorizedAndNotCapturedIs422AndNoGatewayIsCalled(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		p.post("/payments/capture", map[string]any{"amount": 2000}, "").wantStatus(t, 200)
		e := p.post("/payments/capture", map[string]any{"amount": p.total - 2000 + 1}, "").wantError(t, 422, "", "capture.exceeds_authorized")
		if num(e["details"].(map[string]any), "capturable") != p.total-2000 {
			t.Fatalf("details %v", e["details"])
		}
		p.post("/payments/capture", map[string]any{}, "").wantError(t, 422, "", "capture.invalid_amount")
		if n := len(gw.Calls("/capture")); n != 1 {
			t.Fatalf("%d captures reached the gateway, want 1", n)
		}
	})
}

func TestCaptureOfASpecificPayment(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw1, gw2)
		second := p.state()["payments"].([]any)[1].(map[string]any)["id"].(string)
		p.post("/payments/capture/payment/"+second, map[string]any{"amount": 700}, "").wantStatus(t, 200)
		c1, _ := gw1.Totals()
		c2, _ := gw2.Totals()
		if c1 != 0 || c2 != 700 {
			t.Fatalf("gateways captured %d and %d, want 0 and 700", c1, c2)
		}
		p.post("/payments/capture/payment/nope", map[string]any{"amount": 1}, "").wantError(t, 422, "", "capture.payment_not_found")
	})
}

func TestTwentyConcurrentFullCapturesCaptureExactlyTheOrderTotal(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw1, gw2)
		statuses := make([]int, 20)
		var wg sync.WaitGroup
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = a.doAs(a.token, "POST", p.backend+"/payments/capture/full", map[string]any{}).Status
			}()
		}
		wg.Wait()
		ok := 0
		for _, s := range statuses {
			switch s {
			case 200:
				ok++
			case 422:
			default:
				t.Fatalf("status %d among %v", s, statuses)
			}
		}
		c1, _ := gw1.Totals()
		c2, _ := gw2.Totals()
		if ok != 1 || c1+c2 != p.total {
			t.Fatalf("%d captures succeeded and the gateways captured %d, want one and %d", ok, c1+c2, p.total)
		}
	})
}

func TestTwentyConcurrentFullRefundsRefundExactlyTheCapturedAmount(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw1, gw2)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		var wg sync.WaitGroup
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a.doAs(a.token, "POST", p.backend+"/refunds/full", map[string]any{"reason": "returned"})
			}()
		}
		wg.Wait()
		_, r1 := gw1.Totals()
		_, r2 := gw2.Totals()
		if r1+r2 != p.total || p.ledger(paymenttransaction.KindRefund, paymenttransaction.StatusSucceeded) != p.total {
			t.Fatalf("refunded %d at the gateways, want exactly %d", r1+r2, p.total)
		}
	})
}

func TestRefundAboveWhatIsLeftIs422AndNoGatewayIsCalled(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		p.post("/refunds", map[string]any{"amount": 100}, "").wantError(t, 422, "", "refund.nothing_to_refund")
		p.post("/payments/capture", map[string]any{"amount": 3000}, "").wantStatus(t, 200)
		d := p.post("/refunds", map[string]any{"amount": 1000, "reason": "damaged"}, "").wantStatus(t, 200).data(t)
		if num(d, "amount_refunded") != 1000 || d["transaction_details"].([]any)[0].(map[string]any)["success"] != true {
			t.Fatalf("refund result %v", d)
		}
		e := p.post("/refunds", map[string]any{"amount": 2001}, "").wantError(t, 422, "", "refund.exceeds_captured")
		if num(e["details"].(map[string]any), "refundable") != 2000 {
			t.Fatalf("details %v", e["details"])
		}
		if n := len(gw.Calls("/refund")); n != 1 {
			t.Fatalf("%d refunds reached the gateway, want 1", n)
		}
	})
}

func TestFullRefundReturnsEverythingCapturedIncludingShippingAndTaxes(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		d := p.post("/refunds/full", map[string]any{"reason": "cancelled by customer", "refund_meta_data": map[string]any{"ticket": "T-1"}}, "").wantStatus(t, 200).data(t)
		if num(d, "amount_refunded") != p.total {
			t.Fatalf("refunded %v, want %d", d["amount_refunded"], p.total)
		}
	})
}

func TestRefundWhereSomePaymentsFailAnswers207SayingWhich(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		good, bad := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, good, bad)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		bad.SetMode("/refund", "decline")
		r := p.post("/refunds/full", map[string]any{}, "").wantStatus(t, 207)
		d := r.data(t)
		details := d["transaction_details"].([]any)
		if len(details) != 2 || num(d, "amount_refunded") != 1000 {
			t.Fatalf("refund result %v", d)
		}
		outcomes := map[bool]int64{}
		for _, x := range details {
			m := x.(map[string]any)
			outcomes[m["success"].(bool)] += num(m, "amount")
		}
		if outcomes[true] != 1000 || outcomes[false] != p.total-1000 {
			t.Fatalf("which succeeded: %v", outcomes)
		}
	})
}

func TestAnIdempotentReplayAnswersTheFirstResponseWithoutCallingAGateway(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		first := p.post("/payments/capture", map[string]any{"amount": 1000}, "key-1").wantStatus(t, 200)
		again := p.post("/payments/capture", map[string]any{"amount": 1000}, "key-1").wantStatus(t, 200)
		if first.Raw != again.Raw {
			t.Fatalf("replay differs:\n%s\n%s", first.Raw, again.Raw)
		}
		byBody := p.post("/payments/capture", map[string]any{"amount": 1000, "idempotent_key": "key-2"}, "").wantStatus(t, 200)
		p.post("/payments/capture", map[string]any{"amount": 1000, "idempotent_key": "key-2"}, "").wantStatus(t, 200)
		if n := len(gw.Calls("/capture")); n != 2 {
			t.Fatalf("%d captures reached the gateway, want 2 (one per key)", n)
		}
		_ = byBody
		p.post("/payments/capture", map[string]any{"amount": 999}, "key-1").wantError(t, 422, "", "idempotency.key_reused")
	})
}

func TestARepeatWhileTheFirstIsRunningIs409(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		gw.SetMode("/capture", "hang")
		done := make(chan response)
		go func() {
			done <- a.doWithHeader("POST", p.backend+"/payments/capture", map[string]any{"amount": 1000}, http.Header{"Idempotency-Key": {"slow"}})
		}()
		for deadline := time.Now().Add(5 * time.Second); len(gw.Calls("/capture")) == 0; {
			if time.Now().After(deadline) {
				t.Fatal("the first capture never reached the gateway")
			}
			time.Sleep(5 * time.Millisecond)
		}
		p.post("/payments/capture", map[string]any{"amount": 1000}, "slow").wantError(t, 409, "", "idempotency.in_progress")
		gw.Release()
		(<-done).wantStatus(t, 200)
		if captured, _ := gw.Totals(); captured != 1000 {
			t.Fatalf("captured %d, want 1000 once", captured)
		}
	})
}

// A capture whose gateway keeps failing is reported pending (202), never done; a retry with
// the same key, once the gateway is back, finishes it exactly once.
func TestAFailingGatewayIsReportedPendingAndARetryWithTheSameKeyFinishesOnce(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		gw.SetMode("/capture", "error")
		d := p.post("/payments/capture/full", map[string]any{}, "retry-me").wantStatus(t, 202).data(t)
		if num(d, "paid_total") != 0 || num(d, "captured_held_total") != p.total || d["transactions"].([]any)[0].(map[string]any)["status"] != "pending" {
			t.Fatalf("pending result %v", d)
		}
		p.post("/payments/capture/full", map[string]any{}, "another").wantError(t, 422, "", "capture.nothing_to_capture")
		gw.SetMode("/capture", "")
		d = p.post("/payments/capture/full", map[string]any{}, "retry-me").wantStatus(t, 200).data(t)
		if num(d, "paid_total") != p.total {
			t.Fatalf("after the retry %v", d)
		}
		if captured, _ := gw.Totals(); captured != p.total {
			t.Fatalf("the gateway captured %d, want %d once", captured, p.total)
		}
	})
}

// A gateway that answers 202 has accepted the capture without settling it; the follow-up
// sweep asks again under the same key and records the outcome.
func TestACaptureTheGatewayAcceptsIs202AndTheFollowUpRecordsItsOutcome(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		gw.SetMode("/capture", "accept")
		d := p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 202).data(t)
		if num(d, "captured_held_total") != p.total {
			t.Fatalf("202 result %v", d)
		}
		gw.SettleAccepted()
		a.clock.Advance(time.Minute)
		if err := a.svc.Checkout.FollowUpPendingMoves(context.Background(), 30*time.Second); err != nil {
			t.Fatal(err)
		}
		if got := p.ledger(paymenttransaction.KindCapture, paymenttransaction.StatusSucceeded); got != p.total {
			t.Fatalf("captured in the ledger after the follow-up: %d, want %d", got, p.total)
		}
	})
}

func TestCaptureReauthorizesAnExpiredAuthorizationUnlessToldNotTo(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		gw.ExpireAuthorizations()
		p.post("/payments/capture", map[string]any{"amount": 1000, "reauth": false}, "").wantError(t, 422, "", "capture.failed")
		p.post("/payments/capture", map[string]any{"amount": 1000}, "").wantStatus(t, 200)
		if captured, _ := gw.Totals(); captured != 1000 || len(gw.Calls("/auth")) != 2 {
			t.Fatalf("captured %d with %d authorizations, want 1000 on a new one", captured, len(gw.Calls("/auth")))
		}
	})
}

func TestCancelVoidsOpenAuthorizationsRefundsWhenAskedAndGivesTheStockBack(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		p.post("/cancel", map[string]any{}, "").wantError(t, 422, "", "order.cancel_reason_required")
		p.post("/payments/capture", map[string]any{"amount": 2000}, "").wantStatus(t, 200)
		d := p.post("/cancel", map[string]any{"reason": "out of stock", "refund": true}, "").wantStatus(t, 200).data(t)
		if len(d["voids"].([]any)) != 1 || num(d["refund"].(map[string]any), "amount_refunded") != 2000 {
			t.Fatalf("cancel result voids %v refund %v", d["voids"], d["refund"])
		}
		if _, refunded := gw.Totals(); refunded != 2000 || len(gw.OpenAuths()) != 0 || len(gw.Calls("/void")) != 1 {
			t.Fatalf("refunded %d, open auths %v", refunded, gw.OpenAuths())
		}
		if p.orderStatus() != order.StatusCancelled {
			t.Fatalf("status %s", p.orderStatus())
		}
		p.post("/cancel", map[string]any{"reason": "again"}, "").wantError(t, 422, "", "order.not_open")
		p.post("/payments/capture", map[string]any{"amount": 1}, "").wantError(t, 422, "", "order.not_open")
	})
}

func TestAGiftCardNeverGoesBelowZeroWhateverRunsAtTheSameTime(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		card := issueCard(t, a) // 5000
		twoThousand := map[string]any{"cart_items": []map[string]any{{"sku": "GIFT", "title": "Gift", "price": 1000, "quantity": 1, "line_item_key": "g"}}}
		shoppers := make([]*checkout, 5)
		for i := range shoppers {
			shoppers[i] = readyCheckout(t, a, twoThousand)
			shoppers[i].call("POST", "/payments", map[string]any{"type": "gift_card", "token": card.GiftCard.CardToken, "pin": card.Pin}).wantStatus(t, 200)
		}
		statuses := make([]int, len(shoppers))
		var wg sync.WaitGroup
		for i, c := range shoppers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = a.doAs(c.jwt, "POST", c.base+"/process_order", nil).Status
			}()
		}
		wg.Wait()
		ok := 0
		for _, s := range statuses {
			if s == 200 {
				ok++
			}
		}
		g, err := a.svc.Client().GiftCard.Get(context.Background(), card.GiftCard.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ok != 2 || g.Balance != 1000 {
			t.Fatalf("%d orders paid by the card (statuses %v), balance %d; want 2 and 1000", ok, statuses, g.Balance)
		}
	})
}

func TestGiftCardCaptureAndRefundMoveItsBalanceInsideCheckoutd(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		card := issueCard(t, a) // 5000
		c := readyCheckout(t, a, map[string]any{"cart_items": []map[string]any{{"sku": "GIFT", "title": "Gift", "price": 1000, "quantity": 1, "line_item_key": "g"}}})
		c.call("POST", "/payments", map[string]any{"type": "gift_card", "token": card.GiftCard.CardToken, "pin": card.Pin}).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		p := &processed{checkout: c, total: 2000, backend: "/checkout/orders/" + a.shop + "/" + c.id}
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		p.post("/refunds", map[string]any{"amount": 500}, "").wantStatus(t, 200)
		g, _ := a.svc.Client().GiftCard.Get(context.Background(), card.GiftCard.ID)
		if g.Balance != 3500 {
			t.Fatalf("balance %d after paying 2000 and a refund of 500, want 3500", g.Balance)
		}
	})
}

func TestAProcessedOrdersTotalDoesNotMoveWhenTheShopsZonesChange(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
		if err != nil {
			t.Fatal(err)
		}
		zone, err := a.svc.Shops.CreateTaxZone(context.Background(), sh, shops.TaxZoneInput{Name: "NY", CountryCode: "US", ProvinceCode: "NY", RatePpm: 40000})
		if err != nil {
			t.Fatal(err)
		}
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Cards")
		c := readyCheckout(t, a, cart())
		c.call("POST", "/taxes", nil).wantStatus(t, 200)
		c.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		processedTotal := stateOf(t, c.call("POST", "/process_order", nil).wantStatus(t, 200))["order_total"]
		rate := 200000
		if _, err := a.svc.Shops.UpdateTaxZone(context.Background(), sh, zone.ID, shops.TaxZonePatch{RatePpm: &rate}); err != nil {
			t.Fatal(err)
		}
		if got := c.state()["order_total"]; got != processedTotal {
			t.Fatalf("the processed order's total moved from %v to %v with the tax zone", processedTotal, got)
		}
		p := &processed{checkout: c, total: int64(processedTotal.(float64)), backend: "/checkout/orders/" + a.shop + "/" + c.id}
		d := p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200).data(t)
		if num(d, "order_total") != p.total || num(d, "amount_remaining") != 0 {
			t.Fatalf("capture result %v", d)
		}
	})
}

func TestCaptureWhereSomePaymentsFailAnswers207SayingWhich(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		good, bad := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, good, bad)
		bad.SetMode("/capture", "decline")
		first := p.post("/payments/capture/full", map[string]any{}, "partial").wantStatus(t, 207)
		d := first.data(t)
		if num(d, "paid_total") != 1000 || num(d, "amount_remaining") != p.total-1000 {
			t.Fatalf("capture result %v", d)
		}
		outcomes := map[string]int64{}
		for _, x := range d["transactions"].([]any) {
			m := x.(map[string]any)
			outcomes[m["status"].(string)] += num(m, "amount")
		}
		if outcomes["success"] != 1000 || outcomes["failure"] != p.total-1000 {
			t.Fatalf("which succeeded: %v", outcomes)
		}
		wantReplay(t, first, p.post("/payments/capture/full", map[string]any{}, "partial"))
	})
}

func TestRefundOfASpecificPaymentRefundsThatPaymentOnly(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw1, gw2 := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw1, gw2)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		second := p.state()["payments"].([]any)[1].(map[string]any)["id"].(string)
		d := p.post("/refunds/payment/"+second, map[string]any{"amount": 700}, "").wantStatus(t, 200).data(t)
		if num(d, "amount_refunded") != 700 {
			t.Fatalf("refund %v", d)
		}
		_, r1 := gw1.Totals()
		_, r2 := gw2.Totals()
		if r1 != 0 || r2 != 700 {
			t.Fatalf("gateways refunded %d and %d, want 0 and 700", r1, r2)
		}
		p.post("/refunds/payment/"+second, map[string]any{"amount": p.total}, "").wantError(t, 422, "", "refund.exceeds_captured")
		p.post("/refunds/payment/nope", map[string]any{"amount": 1}, "").wantError(t, 422, "", "refund.payment_not_found")
	})
}
