package graph_test

import (
	"testing"

	"github.com/checkoutd/checkoutd/service/problem"
)

// Fulfilled quantities, REST's backend PATCH /line_items and /line_items/{key}: how a back office
// reaches order/fulfilled through GraphQL.

const setFulfilled = `mutation($id: String!, $lines: [FulfilledQuantityInput!]!) {
	r: setFulfilledQuantities(publicOrderId: $id, lineItems: $lines) { ...view } }` + orderViewFragment

// topics counts the events recorded for an order by topic.
func (g *orderGraph) topics(id string) map[string]int {
	g.t.Helper()
	data := g.ok(g.token, `query($id: String!) { order(publicOrderId: $id) { order { events { edges { node { topic } } } } } }`, map[string]any{"id": id})
	out := map[string]int{}
	for _, e := range get(data, "order", "order", "events", "edges").([]any) {
		out[get(e, "node", "topic").(string)]++
	}
	return out
}

func TestSetFulfilledQuantitiesRecordsFulfilmentAndSendsOrderFulfilledOnceEveryLineIs(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, _ := processedGraphOrder(t, g)
		fulfil := func(n int) map[string]any {
			return map[string]any{"id": id, "lines": []any{map[string]any{"lineItemKey": "mug", "fulfilledQuantity": n}}}
		}
		st := get(g.ok(g.token, setFulfilled, fulfil(1)), "r", "applicationState")
		if get(st, "lineItems", 0, "fulfilledQuantity") != 1.0 || g.topics(id)["order/processed"] != 1 || g.topics(id)["order/fulfilled"] != 0 {
			t.Fatalf("one of two mugs fulfilled: state %v, events %v", st, g.topics(id))
		}
		st = get(g.ok(g.token, setFulfilled, fulfil(2)), "r", "applicationState")
		g.ok(g.token, setFulfilled, fulfil(2)) // fulfilled already: no second event
		if get(st, "lineItems", 0, "fulfilledQuantity") != 2.0 || g.topics(id)["order/fulfilled"] != 1 {
			t.Fatalf("both mugs fulfilled: state %v, events %v", st, g.topics(id))
		}
		r := g.do(g.token, setFulfilled, fulfil(3))
		wantCode(t, r, problem.CodeValidation, "line_item.invalid_fulfillment")
		if get(r.Errors[0], "extensions", "details", "line_item_key") != "mug" {
			t.Fatalf("extensions %v", r.Errors[0]["extensions"])
		}
		wantCode(t, g.do(g.token, setFulfilled, map[string]any{"id": id, "lines": []any{}}), problem.CodeValidation, "line_item.invalid_fulfillment")
		wantCode(t, g.do(g.token, setFulfilled, map[string]any{"id": id, "lines": []any{map[string]any{"lineItemKey": "nope", "fulfilledQuantity": 1}}}),
			problem.CodeValidation, "line_item.not_found")
	})
}

func TestOnlyTheAccessTokenSetsFulfilledQuantities(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		vars := map[string]any{"id": id, "lines": []any{map[string]any{"lineItemKey": "mug", "fulfilledQuantity": 1}}}
		wantCode(t, g.do(jwtToken, setFulfilled, vars), problem.CodeUnauthorized, "auth.unauthorized")
		wantCode(t, g.do(g.newShop("shop-b"), setFulfilled, vars), problem.CodeNotFound, "order.not_found")
	})
}
