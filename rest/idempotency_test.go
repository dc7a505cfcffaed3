package rest_test

import (
	"net/http"
	"testing"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

// wantReplay asks again with the same key and request and wants the first answer, byte for byte.
func wantReplay(t *testing.T, first, again response) {
	t.Helper()
	if again.Status != first.Status || again.Raw != first.Raw {
		t.Fatalf("the replay differs from the first answer:\n%d %s\n%d %s", first.Status, first.Raw, again.Status, again.Raw)
	}
}

// A refusal is replayed as it was first answered, details included (the refused refunds, whose
// fields keep their order), and the gateway is not asked again even once it would say yes.
func TestARefusalIsReplayedByteForByteWithoutCallingTheGateway(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, gw)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		gw.SetMode("/refund", "decline")
		first := p.post("/refunds", map[string]any{"amount": 1000}, "refund-1")
		first.wantError(t, 422, "", "refund.failed")
		gw.SetMode("/refund", "")
		wantReplay(t, first, p.post("/refunds", map[string]any{"amount": 1000}, "refund-1"))
		if n := len(gw.Calls("/refund")); n != 1 {
			t.Fatalf("%d refunds reached the gateway, want 1", n)
		}
	})
}

// A partial refund is kept with what makes it partial: its replay is the same 207.
func TestAPartialRefundIsReplayedAsTheSame207(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		good, bad := gatewaytest.New(t, gatewayAPIToken), gatewaytest.New(t, gatewayAPIToken)
		p := processedOrder(t, a, good, bad)
		p.post("/payments/capture/full", map[string]any{}, "").wantStatus(t, 200)
		bad.SetMode("/refund", "decline")
		first := p.post("/refunds/full", map[string]any{}, "partial").wantStatus(t, 207)
		wantReplay(t, first, p.post("/refunds/full", map[string]any{}, "partial"))
	})
}

// process_order and cancel answer the order's application state, whose addresses and shipping
// lines are structs: a replay keeps their fields in their order, and shows the state as it was.
func TestProcessOrderAndCancelAreReplayedByteForByte(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		c := readyCheckout(t, a, cart())
		c.pay(addGateway(t, a, gw, "Gateway"), gatewaytest.TokenOK, 0).wantStatus(t, 200)
		process := func() response {
			return a.call(c.jwt, "POST", c.base+"/process_order", nil, http.Header{"Idempotency-Key": {"process-1"}})
		}
		first := process().wantStatus(t, 200)
		wantReplay(t, first, process())
		if n := len(gw.Calls("/auth")); n != 1 {
			t.Fatalf("%d authorizations reached the gateway, want 1", n)
		}

		p := &processed{checkout: c, total: c.total(), backend: "/checkout/orders/" + a.shop + "/" + c.id}
		cancelled := p.post("/cancel", map[string]any{"reason": "changed my mind"}, "cancel-1").wantStatus(t, 200)
		wantReplay(t, cancelled, p.post("/cancel", map[string]any{"reason": "changed my mind"}, "cancel-1"))
		wantReplay(t, first, process())
	})
}
