package graph_test

import (
	"fmt"
	"testing"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/problem"
)

const (
	captureOrder = `mutation($id: String!, $in: CaptureInput!) { captureOrder(publicOrderId: $id, input: $in) {
		orderTotal paidTotal amountRemaining capturedHeldTotal pending partial transactions { amount status transactionID } } }`
	refundOrder = `mutation($id: String!, $in: RefundInput!) { refundOrder(publicOrderId: $id, input: $in) {
		amountRefunded partial pending transactionDetails { success amount } } }`
	cancelOrder = `mutation($id: String!, $in: CancelInput!) { cancelOrder(publicOrderId: $id, input: $in) {
		view { order { status } } voids { amount status } refund { amountRefunded } } }`
)

// processedGraphOrder is a processed order paid by one card through the test gateway.
func processedGraphOrder(t *testing.T, g *orderGraph) (string, *gatewaytest.Server) {
	gatewayID, gw := g.addGateway()
	id, jwtToken := g.readyOrder()
	g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenOK})
	g.ok(jwtToken, processOrder, map[string]any{"id": id})
	return id, gw
}

func TestCaptureRefundAndCancelThroughGraphQLGoThroughTheSameServiceMethods(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, gw := processedGraphOrder(t, g)
		c := get(g.ok(g.token, captureOrder, map[string]any{"id": id, "in": map[string]any{"amount": 1000, "idempotencyKey": "cap-1"}}), "captureOrder")
		if get(c, "paidTotal") != 1000.0 || get(c, "pending") != false || get(c, "partial") != false || get(c, "transactions", 0, "status") != "success" {
			t.Fatalf("capture %v", c)
		}
		again := get(g.ok(g.token, captureOrder, map[string]any{"id": id, "in": map[string]any{"amount": 1000, "idempotencyKey": "cap-1"}}), "captureOrder")
		if get(again, "transactions", 0, "transactionID") != get(c, "transactions", 0, "transactionID") || len(gw.Calls("/capture")) != 1 {
			t.Fatalf("the replay %v moved money again (%d captures)", again, len(gw.Calls("/capture")))
		}
		wantCode(t, g.do(g.token, captureOrder, map[string]any{"id": id, "in": map[string]any{"amount": 999, "idempotencyKey": "cap-1"}}),
			problem.CodeValidation, "idempotency.key_reused")
		r := get(g.ok(g.token, refundOrder, map[string]any{"id": id, "in": map[string]any{"amount": 400, "reason": "scratched"}}), "refundOrder")
		if get(r, "amountRefunded") != 400.0 || get(r, "partial") != false {
			t.Fatalf("refund %v", r)
		}
		wantCode(t, g.do(g.token, refundOrder, map[string]any{"id": id, "in": map[string]any{"amount": 601}}), problem.CodeValidation, "refund.exceeds_captured")
		x := get(g.ok(g.token, cancelOrder, map[string]any{"id": id, "in": map[string]any{"reason": "fraud", "refund": true}}), "cancelOrder")
		if get(x, "view", "order", "status") != "cancelled" || get(x, "refund", "amountRefunded") != 600.0 || len(get(x, "voids").([]any)) != 1 {
			t.Fatalf("cancel %v", x)
		}
		if len(gw.OpenAuths()) != 0 {
			t.Fatalf("open authorizations after cancel: %v", gw.OpenAuths())
		}
	})
}

func TestAnOrderJWTCannotMoveMoney(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gatewayID, _ := g.addGateway()
		id, jwtToken := g.readyOrder()
		g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenOK})
		g.ok(jwtToken, processOrder, map[string]any{"id": id})
		wantCode(t, g.do(jwtToken, captureOrder, map[string]any{"id": id, "in": map[string]any{}}), problem.CodeUnauthorized, "auth.unauthorized")
		wantCode(t, g.do(jwtToken, cancelOrder, map[string]any{"id": id, "in": map[string]any{"reason": "x"}}), problem.CodeUnauthorized, "auth.unauthorized")
	})
}

// A refused mutation is replayed with the same error, through the one idempotency mechanism the
// REST API uses, and the gateway is not asked again even once it would say yes.
func TestARefusedMutationIsReplayedWithTheSameErrorWithoutCallingTheGateway(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, gw := processedGraphOrder(t, g)
		gw.SetMode("/capture", "decline")
		vars := map[string]any{"id": id, "in": map[string]any{"amount": 1000, "reauth": false, "idempotencyKey": "cap-1"}}
		first := g.do(g.token, captureOrder, vars)
		if len(first.Errors) == 0 {
			t.Fatalf("a declined capture answered %v", first.Data)
		}
		gw.SetMode("/capture", "")
		again := g.do(g.token, captureOrder, vars)
		if a, b := fmt.Sprint(again.Errors), fmt.Sprint(first.Errors); a != b || len(gw.Calls("/capture")) != 1 {
			t.Fatalf("the replay answered %s, want %s (%d captures)", a, b, len(gw.Calls("/capture")))
		}
	})
}

func TestProcessOrderWithAnIdempotencyKeyIsReplayedWithoutProcessingAgain(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gatewayID, gw := g.addGateway()
		id, jwtToken := g.readyOrder()
		g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenOK})
		q := `mutation($id: String!, $key: String) { processOrder(publicOrderId: $id, idempotencyKey: $key) {
			view { applicationState { isProcessed platformOrderID } } requiresAction { publicID } } }`
		vars := map[string]any{"id": id, "key": "process-1"}
		first := get(g.ok(jwtToken, q, vars), "processOrder")
		again := get(g.ok(jwtToken, q, vars), "processOrder")
		if get(first, "view", "applicationState", "isProcessed") != true || fmt.Sprint(again) != fmt.Sprint(first) || len(gw.Calls("/auth")) != 1 {
			t.Fatalf("first %v, replay %v (%d authorizations)", first, again, len(gw.Calls("/auth")))
		}
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "key": "process-2"}), problem.CodeValidation, "order.not_open")
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id}), problem.CodeValidation, "order.not_open")
	})
}

func TestADeclinedProcessOrderIsReplayedWithTheSameErrorUnderItsKey(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gatewayID, gw := g.addGateway()
		id, jwtToken := g.readyOrder()
		g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenDecline})
		q := `mutation($id: String!, $key: String) { processOrder(publicOrderId: $id, idempotencyKey: $key) { view { publicOrderID } } }`
		vars := map[string]any{"id": id, "key": "process-1"}
		first := g.do(jwtToken, q, vars)
		wantCode(t, first, problem.CodeValidation, "payment.declined")
		calls := len(gw.Calls("/auth"))
		again := g.do(jwtToken, q, vars)
		if fmt.Sprint(again.Errors) != fmt.Sprint(first.Errors) || len(gw.Calls("/auth")) != calls {
			t.Fatalf("the replay answered %v, want %v (%d authorizations, were %d)", again.Errors, first.Errors, len(gw.Calls("/auth")), calls)
		}
	})
}

func TestAProcessOrderThatAsksTheShopperToActIsNotKeptUnderItsKey(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gatewayID, gw := g.addGateway()
		id, jwtToken := g.readyOrder()
		g.ok(jwtToken, addCard, map[string]any{"id": id, "gw": gatewayID, "token": gatewaytest.TokenAction})
		q := `mutation($id: String!, $key: String) { processOrder(publicOrderId: $id, idempotencyKey: $key) {
			view { applicationState { isProcessed } } requiresAction { publicID } } }`
		vars := map[string]any{"id": id, "key": "process-1"}
		for i := 1; i <= 2; i++ {
			res := get(g.ok(jwtToken, q, vars), "processOrder")
			if get(res, "requiresAction", "publicID") == nil || get(res, "view", "applicationState", "isProcessed") != false || len(gw.Calls("/auth")) != i {
				t.Fatalf("call %d answered %v (%d authorizations)", i, res, len(gw.Calls("/auth")))
			}
		}
	})
}

func TestAVerifiedPaymentIsChargedThroughGraphQLByCapturingIt(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		s := get(g.ok(g.token, `mutation { updateShopSettings(input: {verifyPaymentsOnly: true}) { verifyPaymentsOnly } }`, nil), "updateShopSettings")
		if get(s, "verifyPaymentsOnly") != true {
			t.Fatalf("settings %v", s)
		}
		id, gw := processedGraphOrder(t, g)
		state := g.ok(g.token, `query($id: String!) { order(publicOrderId: $id) { applicationState { payments { id status step } } } }`, map[string]any{"id": id})
		pay := get(state, "order", "applicationState", "payments", 0)
		if get(pay, "step") != "awaitingPreAuth" || len(gw.Calls("/auth")) != 0 {
			t.Fatalf("payment after processing %v", pay)
		}
		c := get(g.ok(g.token, captureOrder, map[string]any{"id": id, "in": map[string]any{"amount": 700, "paymentId": get(pay, "id")}}), "captureOrder")
		if get(c, "paidTotal") != 700.0 || get(c, "transactions", 0, "status") != "success" {
			t.Fatalf("charge %v", c)
		}
		if captured, _ := gw.Totals(); captured != 700 {
			t.Fatalf("gateway captured %d", captured)
		}
	})
}
