package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

type gqlResult struct {
	Data   map[string]any   `json:"data"`
	Errors []map[string]any `json:"errors"`
}

func query(t *testing.T, url, token, q string, vars map[string]any) gqlResult {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out gqlResult
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

func eachGraph(t *testing.T, fn func(t *testing.T, url string, svc *service.Service)) {
	// Each test has its own server and databases: tests run side by side.
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db)
		srv := httptest.NewServer(graph.Handler(svc))
		t.Cleanup(srv.Close)
		fn(t, srv.URL, svc)
	})
}

func newShop(t *testing.T, svc *service.Service, id string) string {
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: id})
	if err != nil {
		t.Fatal(err)
	}
	return created.AccessToken
}

const createElement = `mutation($in: LifeElementInput!) { createLifeElement(input: $in) { id publicID location orderAsc } }`

var elementInput = map[string]any{"in": map[string]any{
	"location": "shipping", "inputType": "text", "inputRequired": true, "metaDataField": "door_code", "orderAsc": 1,
}}

func TestGraphQLCreatesAndListsLifeElementsOfTheTokensShop(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, createElement, elementInput)
		if len(r.Errors) > 0 {
			t.Fatalf("errors %v", r.Errors)
		}
		list := query(t, url, token, `{ shop { identifier lifeElements { totalCount edges { node { metaDataField } } } } }`, nil)
		if len(list.Errors) > 0 || list.Data["shop"].(map[string]any)["lifeElements"].(map[string]any)["totalCount"].(float64) != 1 {
			t.Fatalf("list %+v", list)
		}
	})
}

func TestGraphQLValidationErrorCarriesCodeAndTypeInExtensions(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, createElement, map[string]any{"in": map[string]any{"location": "shipping"}})
		if len(r.Errors) != 1 {
			t.Fatalf("errors %v", r.Errors)
		}
		ext := r.Errors[0]["extensions"].(map[string]any)
		if ext["code"] != "02-94" || ext["type"] != "life_element.invalid_life_element_data" {
			t.Fatalf("extensions %v", ext)
		}
	})
}

func TestShopBCannotReadOrChangeShopAThroughGraphQL(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		tokenA := newShop(t, svc, "shop-a")
		tokenB := newShop(t, svc, "shop-b")
		created := query(t, url, tokenA, createElement, elementInput).Data["createLifeElement"].(map[string]any)
		id, publicID := created["id"].(string), created["publicID"].(string)

		node := query(t, url, tokenB, fmt.Sprintf(`{ node(id: %q) { id } }`, id), nil)
		if node.Data["node"] != nil {
			t.Fatalf("shop B read shop A's element: %+v", node)
		}
		del := query(t, url, tokenB, fmt.Sprintf(`mutation { deleteLifeElement(publicId: %q) }`, publicID), nil)
		if len(del.Errors) == 0 {
			t.Fatalf("shop B deleted shop A's element")
		}
		own := query(t, url, tokenA, fmt.Sprintf(`{ node(id: %q) { id } }`, id), nil)
		if own.Data["node"] == nil {
			t.Fatalf("shop A cannot read its own element: %+v", own)
		}
	})
}

func TestGraphQLWithoutTokenIsRefused(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		r := query(t, url, "", `{ shop { identifier } }`, nil)
		if len(r.Errors) == 0 || r.Errors[0]["extensions"].(map[string]any)["type"] != "auth.unauthorized" {
			t.Fatalf("answer %+v", r)
		}
	})
}

func TestGraphQLQueryTooDeepIsRefused(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		q := "{ shop { " + strings.Repeat("lifeElements { edges { node { shop { ", 4) + "id" + strings.Repeat(" } } } }", 4) + " } }"
		r := query(t, url, token, q, nil)
		if len(r.Errors) == 0 {
			t.Fatalf("deep query accepted")
		}
	})
}

func TestANodeIDThatIsNotANumberIsNotFound(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		for _, id := range []string{"abc", "99999999999999999999", ""} {
			r := query(t, url, token, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
			if r.Data["node"] != nil {
				t.Fatalf("%q: %v", id, r.Data)
			}
			ext := r.Errors[0]["extensions"].(map[string]any)
			if ext["code"] != problem.CodeNotFound || ext["type"] != "node.not_found" || r.Errors[0]["message"] != "no object with that id" {
				t.Fatalf("%q: %v", id, r.Errors)
			}
		}
	})
}

func TestErrorsCarryTheRequestIdOfTheCall(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		h := graph.Handler(service.New(db))
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(platform.WithRequestID(r.Context(), "trace-44")))
		}))
		t.Cleanup(srv.Close)
		r := query(t, srv.URL, "", `{ shop { identifier } }`, nil)
		if len(r.Errors) == 0 || r.Errors[0]["extensions"].(map[string]any)["request_id"] != "trace-44" {
			t.Fatalf("errors %v", r.Errors)
		}
	})
}
