package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/problem"
)

// refusedQuickly sends q and wants it refused with code and typ within a second.
func refusedQuickly(t *testing.T, url, token, q string, vars map[string]any, code, typ string) {
	t.Helper()
	start := time.Now()
	r := query(t, url, token, q, vars)
	if elapsed := time.Since(start); elapsed > time.Second {
		t.Errorf("answered after %v", elapsed)
	}
	wantCode(t, r, code, typ)
}

// fanOut is query{...F0} where each Fi spreads F(i+1) twice, down to F30: 2^30 spreads of F30.
func fanOut() string {
	var b strings.Builder
	b.WriteString("query{...F0}\n")
	for i := range 30 {
		fmt.Fprintf(&b, "fragment F%d on Query{...F%d ...F%d}\n", i, i+1, i+1)
	}
	b.WriteString("fragment F30 on Query{shop{id}}")
	return b.String()
}

// fragmentChain is query{...F0} where each of n fragments holds fields and spreads the next.
func fragmentChain(n int, fields string) string {
	var b strings.Builder
	b.WriteString("query{...F0}\n")
	for i := range n {
		fmt.Fprintf(&b, "fragment F%d on Query{%s ...F%d}\n", i, fields, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on Query{shop{id}}", n)
	return b.String()
}

func TestAFragmentFanOutIsRefusedInLinearTime(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		// F25 already collects shop 32 times at the top of the query.
		refusedQuickly(t, url, token, fanOut(), nil, problem.CodeValidation, "graphql.field_repeated")
	})
}

func TestOneFieldRepeatedThousandsOfTimesIsRefusedBeforeValidation(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		refusedQuickly(t, url, token, "{shop{"+strings.Repeat("id ", 20_000)+"}}", nil, problem.CodeValidation, "graphql.token_limit")
		refusedQuickly(t, url, token, "{shop{"+strings.Repeat("id ", 2_000)+"}}", nil, problem.CodeValidation, "graphql.field_repeated")
	})
}

func TestAlternatingAliasesAreRefusedBeforeValidation(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		var b strings.Builder
		for i := range 2_000 {
			if i%2 == 0 {
				b.WriteString("x: id ")
			} else {
				b.WriteString("x: name ")
			}
		}
		refusedQuickly(t, url, token, "{shop{"+b.String()+"}}", nil, problem.CodeValidation, "graphql.field_repeated")
		b.Reset()
		for i := range graph.MaxAliases + 1 {
			fmt.Fprintf(&b, "a%d: id ", i)
		}
		refusedQuickly(t, url, token, "{shop{"+b.String()+"}}", nil, problem.CodeValidation, "graphql.too_many_aliases")
	})
}

func TestALongFragmentChainIsRefusedBeforeValidation(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		// The chain of 5,000 is over the size of a request; 500 fits in one and in the
		// token limit.
		refusedQuickly(t, url, token, fragmentChain(5_000, "shop{id}"), nil, problem.CodeBodyTooLarge, "request.body_too_large")
		refusedQuickly(t, url, token, fragmentChain(500, "shop{id}"), nil, problem.CodeValidation, "graphql.too_many_fragments")
		if r := query(t, url, token, fragmentChain(graph.MaxFragments-1, ""), nil); len(r.Errors) > 0 {
			t.Fatalf("a chain within the limit: %v", r.Errors)
		}
	})
}

func TestAGraphQLRequestOverTheSizeLimitIsRefusedWith413(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		body, _ := json.Marshal(map[string]any{"query": "{shop{id}}", "variables": map[string]any{"pad": strings.Repeat("x", graph.MaxRequestBytes)}})
		for _, length := range []string{"known", "chunked"} {
			var reader io.Reader = bytes.NewReader(body)
			if length == "chunked" {
				reader = io.MultiReader(reader) // hides the length: sent chunked
			}
			req, _ := http.NewRequest("POST", url, reader)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			start := time.Now()
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var out gqlResult
			_ = json.NewDecoder(res.Body).Decode(&out)
			res.Body.Close()
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("%s: answered after %v", length, elapsed)
			}
			if res.StatusCode != http.StatusRequestEntityTooLarge {
				t.Errorf("%s: status %d", length, res.StatusCode)
			}
			wantCode(t, out, problem.CodeBodyTooLarge, "request.body_too_large")
		}
	})
}

func TestAFilterTextOverItsBoundIsRefusedAsTooLong(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		long := strings.Repeat("a", 50_001)
		q := `query($s: String!) { orders(where: {publicOrderIDContains: $s}) { totalCount } }`
		refusedQuickly(t, url, token, q, map[string]any{"s": long}, problem.CodeValidation, "request.text_too_long")
		nested := `query($s: String!) { orders(where: {or: [{publicOrderID: "x"}, {publicOrderIDHasPrefix: $s}]}) { totalCount } }`
		r := query(t, url, token, nested, map[string]any{"s": long})
		wantCode(t, r, problem.CodeValidation, "request.text_too_long")
		if d := r.Errors[0]["extensions"].(map[string]any)["details"].(map[string]any); d["field"] != "where.or[1].publicOrderIDHasPrefix" {
			t.Errorf("details %v", d)
		}
		if r := query(t, url, token, q, map[string]any{"s": strings.Repeat("a", graph.MaxFilterText)}); len(r.Errors) > 0 {
			t.Fatalf("a filter text at the bound: %v", r.Errors)
		}
	})
}

func TestAnArgumentThatCannotBeDecodedIsTheClientsError(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `{ orders(after: "not a cursor") { totalCount } }`, nil)
		wantCode(t, r, problem.CodeValidation, "request.invalid_argument")
		if msg := r.Errors[0]["message"].(string); strings.Contains(msg, "cursor") || strings.Contains(msg, "msgpack") || strings.Contains(msg, "base64") {
			t.Errorf("message %q names internals", msg)
		}
	})
}

func TestARequestPastItsDeadlineAnswersTimeout(t *testing.T) {
	eachGraph(t, func(t *testing.T, _ string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		srv := httptest.NewServer(graph.Handler(svc, graph.WithRequestTimeout(time.Nanosecond)))
		t.Cleanup(srv.Close)
		refusedQuickly(t, srv.URL, token, `{ shop { id orders { totalCount } } }`, nil, problem.CodeInternal, "request.timeout")
	})
}

func TestTheDemoDocumentAndIntrospectionStayWithinTheLimits(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		for name, doc := range map[string]string{"introspection": introspectionQuery, "demo": demoDocument(t)} {
			r := query(t, url, token, doc, nil)
			for _, e := range r.Errors {
				ext, _ := e["extensions"].(map[string]any)
				if typ := fmt.Sprint(ext["type"]); strings.HasPrefix(typ, "graphql.") || ext["code"] == "COMPLEXITY_LIMIT_EXCEEDED" {
					t.Errorf("%s refused by a limit: %v", name, e)
				}
			}
		}
	})
}

func demoDocument(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("../web/demo/static/operations.graphql")
	if err != nil {
		t.Fatal(err)
	}
	return string(doc)
}

// introspectionQuery is the standard introspection query, with every part a client may ask for:
// graphql-js 16.9's getIntrospectionQuery({specifiedByUrl, directiveIsRepeatable,
// schemaDescription, inputValueDeprecation}). GraphiQL and code generators send it or a part of
// it; its type references nest ofType nine deep.
const introspectionQuery = `query IntrospectionQuery {
  __schema {
    description
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives {
      name description isRepeatable locations
      args(includeDeprecated: true) { ...InputValue }
    }
  }
}
fragment FullType on __Type {
  kind name description specifiedByURL
  fields(includeDeprecated: true) {
    name description
    args(includeDeprecated: true) { ...InputValue }
    type { ...TypeRef }
    isDeprecated deprecationReason
  }
  inputFields(includeDeprecated: true) { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue {
  name description type { ...TypeRef } defaultValue isDeprecated deprecationReason
}
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } } }
}`
