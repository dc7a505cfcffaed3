package graph_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/problem"
)

// typeNames reads the names of __schema { types { name } }.
func typeNames(t *testing.T, r gqlResult) []string {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("errors %v", r.Errors)
	}
	schema, _ := r.Data["__schema"].(map[string]any)
	types, _ := schema["types"].([]any)
	var names []string
	for _, ty := range types {
		names = append(names, ty.(map[string]any)["name"].(string))
	}
	return names
}

// GraphiQL and code generators read the schema before anyone has a token: introspection answers
// with or without one.
func TestIntrospectionAnswersTheSchema(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		for _, credential := range []string{"", token} {
			names := typeNames(t, query(t, url, credential, `{ __schema { types { name } } }`, nil))
			for _, want := range []string{"Query", "Mutation", "Shop", "OrderView", "LifeElement", "__Type"} {
				if !slices.Contains(names, want) {
					t.Fatalf("the schema's types %v lack %s", names, want)
				}
			}

			r := query(t, url, credential, introspectionQuery, nil)
			if len(r.Errors) > 0 {
				t.Fatalf("the standard introspection query: %v", r.Errors)
			}
			schema := r.Data["__schema"].(map[string]any)
			if schema["queryType"].(map[string]any)["name"] != "Query" || schema["mutationType"].(map[string]any)["name"] != "Mutation" {
				t.Fatalf("root types %v %v", schema["queryType"], schema["mutationType"])
			}
			var shop map[string]any
			for _, ty := range schema["types"].([]any) {
				if ty := ty.(map[string]any); ty["name"] == "Shop" {
					shop = ty
				}
			}
			if shop == nil || !strings.Contains(fmtFields(shop), "identifier: NON_NULL SCALAR String") {
				t.Fatalf("Shop as introspected: %v", shop)
			}
		}
	})
}

// fmtFields writes a type's fields as "name: KIND KIND Name", its type reference unwrapped.
func fmtFields(ty map[string]any) string {
	var b strings.Builder
	fields, _ := ty["fields"].([]any)
	for _, f := range fields {
		f := f.(map[string]any)
		b.WriteString(f["name"].(string) + ":")
		for ref, _ := f["type"].(map[string]any); ref != nil; ref, _ = ref["ofType"].(map[string]any) {
			b.WriteString(" " + ref["kind"].(string))
			if name, ok := ref["name"].(string); ok {
				b.WriteString(" " + name)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestIntrospectionIsRefusedWhenTurnedOff(t *testing.T) {
	eachGraph(t, func(t *testing.T, _ string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		srv := httptest.NewServer(graph.Handler(svc, graph.WithIntrospection(false)))
		t.Cleanup(srv.Close)
		for name, doc := range map[string]string{
			"types":    `{ __schema { types { name } } }`,
			"standard": introspectionQuery,
			"__type":   `{ shop { identifier } __type(name: "Shop") { name } }`,
			"fragment": `{ ...F } fragment F on Query { __schema { queryType { name } } }`,
		} {
			r := query(t, srv.URL, token, doc, nil)
			if r.Data != nil {
				t.Errorf("%s answered data %v", name, r.Data)
			}
			wantCode(t, r, problem.CodeValidation, "graphql.introspection_disabled")
		}
		r := query(t, srv.URL, token, `{ __typename shop { identifier } }`, nil)
		if len(r.Errors) > 0 || r.Data["__typename"] != "Query" || r.Data["shop"].(map[string]any)["identifier"] != "shop-a" {
			t.Fatalf("a query without introspection: %+v", r)
		}
	})
}

// Each of introspection's lists multiplies the answer by the schema's size, and gqlgen's
// complexity leaves introspection out: two nested lists are allowed, as graphql-js allows them.
// A chain of ofType costs nothing per link and does not count towards the depth.
func TestIntrospectionListsNestAtMostTwoDeep(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		for _, doc := range []string{
			`{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }`,
			`{ __type(name: "Shop") { ...A } }
			fragment A on __Type { fields { type { ...B } } }
			fragment B on __Type { possibleTypes { ...C } }
			fragment C on __Type { interfaces { name } }`,
			`{ __schema { types { ... on __Type { inputFields { type { inputFields { type { inputFields { name } } } } } } } } }`,
		} {
			refusedQuickly(t, url, "", doc, nil, problem.CodeValidation, "graphql.introspection_depth_limit")
		}
		chain := `{ __schema { types { fields { type { ` + strings.Repeat("ofType { ", 20) + `fields { name }` + strings.Repeat(" }", 20) + ` } } } } }`
		if r := query(t, url, "", chain, nil); len(r.Errors) > 0 {
			t.Fatalf("two lists and a chain of ofType: %v", r.Errors)
		}
		// The same depth outside introspection is refused.
		refusedQuickly(t, url, "", `{ shop { `+strings.Repeat("lifeElements { edges { node { shop { ", 3)+`id`+strings.Repeat(" } } } }", 3)+` } }`,
			nil, problem.CodeValidation, "graphql.depth_limit")
	})
}
