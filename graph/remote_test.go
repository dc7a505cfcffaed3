package graph_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/remote"
)

const remoteSecret = "override-secret"

// signedRemote is an override endpoint that verifies each call's signature and answers the
// body back, or refuses a discount code with a 400.
func signedRemote(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := hmacsig.Verify(r.Header, []byte(remoteSecret), time.Now()); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/discount") {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"message":"<script>alert(1)</script> expired"}`))
			return
		}
		_, _ = fmt.Fprintf(w, `{"echo":%s}`, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

const remoteExchanges = `query($kind: String, $order: String, $first: Int) {
  remoteExchanges(kind: $kind, publicOrderId: $order, first: $first) {
    totalCount edges { node { id kind call publicOrderID url statusCode outcome latencyMs requestBody responseBody error } }
  }
}`

func TestRemoteExchangesShowTheShopsLastCallsNewestFirstNarrowedByKindAndOrder(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		ctx := context.Background()
		srv := signedRemote(t)
		sh, err := g.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ kind, call, order string }{
			{remote.KindRSA, "process_order_events", "o-1"}, {remote.KindOverride, "tax", "o-1"}, {remote.KindOverride, "discount", "o-2"},
		} {
			_, _, _ = g.svc.Remote.Do(ctx, remote.Request{Remote: c.kind + c.call, Kind: c.kind, Call: c.call, ShopID: sh.ID,
				PublicOrderID: c.order, URL: srv.URL + "/" + c.call, Secret: []byte(remoteSecret), Body: map[string]any{"order": c.order}})
		}
		g.svc.RemoteLog.Flush(ctx)

		all := get(g.ok(g.token, remoteExchanges, nil), "remoteExchanges")
		if get(all, "totalCount") != 3.0 {
			t.Fatalf("%v exchanges, want 3", get(all, "totalCount"))
		}
		newest := get(all, "edges", 0, "node")
		if get(newest, "call") != "discount" || get(newest, "outcome") != "refused" || get(newest, "statusCode") != 400.0 ||
			!strings.Contains(get(newest, "responseBody").(string), "expired") || get(newest, "requestBody") != `{"order":"o-2"}` {
			t.Fatalf("the newest exchange %v", newest)
		}
		overrides := get(g.ok(g.token, remoteExchanges, map[string]any{"kind": "override", "order": "o-1"}), "remoteExchanges")
		if get(overrides, "totalCount") != 1.0 || get(overrides, "edges", 0, "node", "call") != "tax" ||
			get(overrides, "edges", 0, "node", "outcome") != "answered" {
			t.Fatalf("override exchanges of o-1 %v", overrides)
		}
		r := g.do(g.token, remoteExchanges, map[string]any{"kind": "gateway"})
		if len(r.Errors) == 0 || r.Errors[0]["extensions"].(map[string]any)["type"] != "remote_exchange.invalid_kind" {
			t.Fatalf("kind gateway answered %v", r.Errors)
		}
		// Another shop sees none of it.
		other := g.newShop("shop-b")
		if n := get(g.ok(other, remoteExchanges, nil), "remoteExchanges", "totalCount"); n != 0.0 {
			t.Fatalf("another shop sees %v exchanges", n)
		}
		node := `query($id: ID!) { node(id: $id) { ... on RemoteExchange { call } } }`
		if got := get(g.ok(g.token, node, map[string]any{"id": get(newest, "id")}), "node", "call"); got != "discount" {
			t.Fatalf("node of the shop's exchange: %v", got)
		}
		if r := g.do(other, node, map[string]any{"id": get(newest, "id")}); len(r.Errors) == 0 ||
			r.Errors[0]["extensions"].(map[string]any)["type"] != "node.not_found" {
			t.Fatalf("another shop's node of the exchange: %v", r)
		}
	})
}

func TestAPageOfExchangesCountsEachExchangeTowardsTheComplexityLimit(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		r := g.do(g.token, remoteExchanges, map[string]any{"first": 500})
		if len(r.Errors) == 0 || r.Errors[0]["extensions"].(map[string]any)["code"] != "COMPLEXITY_LIMIT_EXCEEDED" {
			t.Fatalf("500 exchanges with their bodies answered %v", r.Errors)
		}
		g.ok(g.token, remoteExchanges, map[string]any{"first": 50})
		if graph.RemoteExchangesPage*12 > graph.MaxComplexity {
			t.Fatal("the default page of exchanges is over the complexity limit")
		}
	})
}

const orderRemoteControl = `query($id: String!) { orders(first: 1, where: {publicOrderID: $id}) { edges { node {
  remoteControl { underRemoteStateAuthority overrides { overrideType source inEffect } } } } } }`

func TestAnOrderSaysWhetherItIsUnderARemoteStateAuthorityAndWhichOverridesApply(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		srv := signedRemote(t)
		id, _ := g.init(g.token)
		control := func() any {
			return get(g.ok(g.token, orderRemoteControl, map[string]any{"id": id}), "orders", "edges", 0, "node", "remoteControl")
		}
		if c := control(); get(c, "underRemoteStateAuthority") != false || len(get(c, "overrides").([]any)) != 0 {
			t.Fatalf("an order of a shop with neither %v", c)
		}
		g.ok(g.token, `mutation($url: String!, $secret: String!) { createAPIOverride(input: {overrideType: "tax", url: $url, sharedSecret: $secret}) { id } }`,
			map[string]any{"url": srv.URL + "/tax", "secret": remoteSecret})
		c := control()
		if get(c, "underRemoteStateAuthority") != false || get(c, "overrides", 0, "overrideType") != "tax" ||
			get(c, "overrides", 0, "source") != "SHOP" || get(c, "overrides", 0, "inEffect") != true {
			t.Fatalf("with a shop's tax override %v", c)
		}
		g.ok(g.token, `mutation($url: String!, $secret: String!) { createRSAConfig(input: {url: $url, sharedSecret: $secret}) { id } }`,
			map[string]any{"url": srv.URL, "secret": remoteSecret})
		c = control()
		if get(c, "underRemoteStateAuthority") != true || get(c, "overrides", 0, "inEffect") != false {
			t.Fatalf("with a remote state authority too %v", c)
		}
	})
}
