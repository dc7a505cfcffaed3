package graph

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/99designs/gqlgen/graphql"

	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Pages of GraphQL lists (docs/api.md "GraphQL limits"). Every field paged by first (or last)
// reads at most MaxPage rows. A list of the shop's (the queries' and Shop's, a product's
// variants, a webhook's deliveries) asked for neither reads DefaultPage (remoteExchanges
// RemoteExchangesPage), its pageInfo saying whether more follow, and its complexity counts its
// selection once per row of the page asked for, so that MaxComplexity bounds the rows one query
// reads, not only its fields. An order's own lists (its lines, at most orders.MaxLineItems, its
// payments, transactions and events) are read whole and batched across the orders of a page
// when asked for neither, and count as one field.
const (
	MaxPage     = filter.MaxLimit
	DefaultPage = filter.DefaultLimit
)

// orderOwned are the types whose lists are an order's own.
var orderOwned = map[string]bool{"Order": true, "OrderPayment": true}

// pagedSchema is the executable schema with the complexity of paged fields.
type pagedSchema struct {
	graphql.ExecutableSchema
	// paged are the fields (Type.field) that take first, with the page they read when neither
	// first nor last is given.
	paged map[string]int
}

func withPages(es graphql.ExecutableSchema) pagedSchema {
	s := pagedSchema{ExecutableSchema: es, paged: map[string]int{}}
	for _, t := range es.Schema().Types {
		if orderOwned[t.Name] {
			continue
		}
		for _, f := range t.Fields {
			if f.Arguments.ForName("first") != nil {
				s.paged[t.Name+"."+f.Name] = DefaultPage
			}
		}
	}
	s.paged["Query.remoteExchanges"] = RemoteExchangesPage
	return s
}

func (s pagedSchema) Complexity(ctx context.Context, typeName, field string, child int, args map[string]any) (int, bool) {
	if c, ok := s.ExecutableSchema.Complexity(ctx, typeName, field, child, args); ok {
		return c, ok
	}
	page, ok := s.paged[typeName+"."+field]
	if !ok {
		return 0, false
	}
	for _, name := range []string{"first", "last"} {
		if n, ok := argInt(args[name]); ok {
			page = int(min(max(n, 1), MaxPage))
			break
		}
	}
	return 1 + child*page, true
}

// argInt is an Int argument as the complexity walker has it: a literal's int64, or a variable's
// value as decoded from JSON.
func argInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		return int64(n), true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// pageBounds refuses first or last over MaxPage, and gives a paged field asked for neither its
// default page (pagedSchema.paged), before its resolver reads.
type pageBounds struct{ paged map[string]int }

var _ interface {
	graphql.FieldInterceptor
	graphql.HandlerExtension
} = pageBounds{}

func (pageBounds) ExtensionName() string                   { return "PageBounds" }
func (pageBounds) Validate(graphql.ExecutableSchema) error { return nil }

func (b pageBounds) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || fc.Field.Field == nil {
		return next(ctx)
	}
	page, ok := b.paged[fc.Object+"."+fc.Field.Name]
	if !ok {
		return next(ctx)
	}
	first, _ := fc.Args["first"].(*int)
	last, _ := fc.Args["last"].(*int)
	for _, arg := range []struct {
		name string
		n    *int
	}{{"first", first}, {"last", last}} {
		if name, n := arg.name, arg.n; n != nil && *n > MaxPage {
			message := fmt.Sprintf("%s is over %d: ask for the rows that follow with after (or before) and the page's cursor", name, MaxPage)
			return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "request.page_too_large",
				Message: message, Details: map[string]any{"field": name, "max": MaxPage}}
		}
	}
	if first == nil && last == nil {
		if _, takesFirst := fc.Args["first"]; takesFirst {
			fc.Args["first"] = &page
		}
	}
	return next(ctx)
}
