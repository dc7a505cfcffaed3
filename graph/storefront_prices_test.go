package graph_test

import (
	"testing"

	"github.com/checkoutd/checkoutd/service/problem"
)

func TestAStorefrontCannotSetALinePriceThroughGraphQL(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		total := `query($id: String!) { order(publicOrderId: $id) { applicationState { orderTotal } } }`
		before := get(g.ok(jwtToken, total, map[string]any{"id": id}), "order", "applicationState", "orderTotal")
		for _, input := range []string{
			`{lineItemKey: "cheap", platformID: "mug-white", price: 1, quantity: 1}`,
			`{lineItemKey: "inline", title: "Anything", price: 1, quantity: 1}`,
		} {
			r := g.do(jwtToken, `mutation($id: String!) { addLineItem(publicOrderId: $id, input: `+input+`) { publicOrderID } }`, map[string]any{"id": id})
			wantCode(t, r, problem.CodeValidation, "line_item.invalid_line_item")
		}
		if after := get(g.ok(jwtToken, total, map[string]any{"id": id}), "order", "applicationState", "orderTotal"); after != before {
			t.Fatalf("total moved from %v to %v", before, after)
		}
		// The shop's access token is the backend: it may add a line at its own price.
		r := g.ok(g.token, `mutation($id: String!) { addLineItem(publicOrderId: $id, input: {lineItemKey: "wrap", title: "Gift wrap", price: 250, quantity: 1}) { applicationState { orderTotal } } }`, map[string]any{"id": id})
		if got := get(r, "addLineItem", "applicationState", "orderTotal"); got != before.(float64)+250 {
			t.Fatalf("backend inline line: total %v, was %v", got, before)
		}
	})
}
