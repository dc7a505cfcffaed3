package graph_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
)

// The order state GraphQL answers holds what REST's application_state holds.

// jsonFields are the keys a struct is encoded with.
func jsonFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// graphName is a REST key as GraphQL spells it: order_meta_data is orderMetaData, and
// platform_order_id matches platformOrderID (initialisms are compared without case).
func graphName(key string) string {
	parts := strings.Split(key, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return strings.Join(parts, "")
}

func TestTheGraphQLOrderStateHasEveryFieldOfRESTsFeesIncluded(t *testing.T) {
	schema := graph.NewSchema(&service.Service{}).Schema()
	for _, pair := range []struct {
		rest    reflect.Type
		graphql string
	}{
		{reflect.TypeFor[orders.ApplicationState](), "ApplicationState"},
		{reflect.TypeFor[orders.LineItemState](), "LineItemState"},
		{reflect.TypeFor[orders.ProductData](), "ProductData"},
		{reflect.TypeFor[orders.ShippingState](), "ShippingState"},
		{reflect.TypeFor[orders.PaymentState](), "PaymentState"},
		{reflect.TypeFor[orders.CurrencyInfo](), "CurrencyInfo"},
	} {
		def := schema.Types[pair.graphql]
		for _, key := range jsonFields(pair.rest) {
			if !slices.ContainsFunc(def.Fields, func(f *ast.FieldDefinition) bool { return strings.EqualFold(f.Name, graphName(key)) }) {
				t.Errorf("REST's %s has %s; GraphQL's %s has no %s", pair.rest.Name(), key, pair.graphql, graphName(key))
			}
		}
	}
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		st := get(g.ok(jwtToken, `query($id: String!) { order(publicOrderId: $id) { applicationState { fees lineItems { fees } } } }`,
			map[string]any{"id": id}), "order", "applicationState")
		if fees, ok := get(st, "fees").([]any); !ok || len(fees) != 0 {
			t.Fatalf("fees %v, want an empty list as REST answers", get(st, "fees"))
		}
		if fees, ok := get(st, "lineItems", 0, "fees").([]any); !ok || len(fees) != 0 {
			t.Fatalf("line fees %v, want an empty list as REST answers", get(st, "lineItems", 0, "fees"))
		}
	})
}
