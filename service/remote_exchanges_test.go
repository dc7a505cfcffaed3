package service_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/remoteexchange"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/remote"
	"github.com/checkoutd/checkoutd/service/remotelog"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

const remoteSecret = "rsa-shared-secret-never-stored"

// remoteServer is a remote state authority that verifies every call's signature (401 when it
// does not verify) and answers a path's status and body: /validate_address refuses, /boom
// fails, anything else answers the order state back. It keeps the signatures it was sent.
type remoteServer struct {
	*httptest.Server
	signatures chan string
}

func newRemoteServer(t *testing.T) *remoteServer {
	t.Helper()
	s := &remoteServer{signatures: make(chan string, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := hmacsig.Verify(r.Header, []byte(remoteSecret), time.Now()); err != nil {
			http.Error(w, `{"error":"bad signature"}`, http.StatusUnauthorized)
			return
		}
		s.signatures <- r.Header.Get("X-HMAC")
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/validate_address"):
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"errors":[{"message":"we do not ship to <b>Mars</b>"}]}`))
		case strings.HasSuffix(r.URL.Path, "/boom"):
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write([]byte(`upstream down`))
		default:
			_, _ = fmt.Fprintf(w, `{"order":%s}`, body)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func newRemoteService(t *testing.T, db *platform.Database, opts ...service.Option) *service.Service {
	t.Helper()
	return service.New(db, append([]service.Option{service.WithOutboundAllowPrivate(true)}, opts...)...)
}

// callRemote makes one signed call, as the RSA and overrides do, about order o-1.
func callRemote(t *testing.T, svc *service.Service, sh *ent.Shop, kind, call, url string, body any) {
	t.Helper()
	_, _, _ = svc.Remote.Do(context.Background(), remote.Request{Remote: kind + ":" + url, Kind: kind, Call: call,
		ShopID: sh.ID, PublicOrderID: "o-1", URL: url, Secret: []byte(remoteSecret), Body: body})
}

func TestEveryExchangeWithARemoteIsKeptForSupportWithItsRequestAnswerLatencyAndOutcome(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := newRemoteService(t, db)
		sh := newShop(t, svc)
		rsa := newRemoteServer(t)
		base := rsa.URL + "/shops/shop-a/orders/o-1"
		callRemote(t, svc, sh, remote.KindRSA, "process_order_events", base+"/process_order_events",
			map[string]any{"event_name": "set_shipping_address", "data": map[string]any{"city": "Lyon"}})
		callRemote(t, svc, sh, remote.KindRSA, "validate_address", base+"/validate_address", map[string]any{"city": "Mars"})
		callRemote(t, svc, sh, remote.KindOverride, "tax", rsa.URL+"/boom", map[string]any{"order": "o-1"})
		svc.RemoteLog.Flush(ctx)

		rows := svc.Client().RemoteExchange.Query().Order(ent.Asc(remoteexchange.FieldID)).AllX(ctx)
		if len(rows) != 3 {
			t.Fatalf("%d exchanges kept, want 3", len(rows))
		}
		want := []struct {
			kind, call, outcome string
			status              int
			answer              string
		}{
			{"rsa", "process_order_events", "answered", 200, `"Lyon"`},
			{"rsa", "validate_address", "refused", 400, "Mars"},
			{"override", "tax", "failed", 502, "upstream down"},
		}
		for i, w := range want {
			r := rows[i]
			if r.ShopID != sh.ID || r.Kind != w.kind || r.Call != w.call || r.Outcome != w.outcome || r.PublicOrderID != "o-1" {
				t.Errorf("exchange %d = %s %s %s order %q, want %s %s %s o-1", i, r.Kind, r.Call, r.Outcome, r.PublicOrderID, w.kind, w.call, w.outcome)
			}
			if r.StatusCode == nil || *r.StatusCode != w.status || !strings.Contains(r.ResponseBody, w.answer) {
				t.Errorf("exchange %d answered %v %q, want %d with %s", i, r.StatusCode, r.ResponseBody, w.status, w.answer)
			}
			if !json.Valid([]byte(r.RequestBody)) || r.RequestSize != len(r.RequestBody) || r.LatencyMs < 0 || r.At.IsZero() {
				t.Errorf("exchange %d: request %q (%d bytes), latency %d ms, at %v", i, r.RequestBody, r.RequestSize, r.LatencyMs, r.At)
			}
		}
		if rows[0].URL != base+"/process_order_events" {
			t.Errorf("url %q", rows[0].URL)
		}
	})
}

func TestAnExchangeThatGotNoAnswerIsKeptWithWhyNot(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := newRemoteService(t, db)
		sh := newShop(t, svc)
		stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// The body read, the server notices the client leaving.
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-time.After(time.Second):
			}
		}))
		defer stalled.Close()
		_, _, err := svc.Remote.Do(ctx, remote.Request{Remote: "override:shipping", Kind: remote.KindOverride, Call: "shipping",
			ShopID: sh.ID, URL: stalled.URL + "/shipping", Secret: []byte(remoteSecret), Timeout: 50 * time.Millisecond, Body: map[string]any{}})
		if err == nil {
			t.Fatal("a remote that never answers answered")
		}
		svc.RemoteLog.Flush(ctx)
		r := svc.Client().RemoteExchange.Query().OnlyX(ctx)
		if r.Outcome != "timeout" || r.StatusCode != nil || r.Error == nil || *r.Error == "" || r.ResponseBody != "" {
			t.Fatalf("kept %s, status %v, error %v, answer %q; want a timeout with its reason", r.Outcome, r.StatusCode, r.Error, r.ResponseBody)
		}
	})
}

func TestAnExchangeKeepsNoSecretNorSignature(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := newRemoteService(t, db)
		sh := newShop(t, svc)
		rsa := newRemoteServer(t)
		callRemote(t, svc, sh, remote.KindRSA, "validate_inventory", rsa.URL+"/validate_inventory?key=query-credential",
			map[string]any{"stage": "initial"})
		callRemote(t, svc, sh, remote.KindRSA, "validate_address", rsa.URL+"/validate_address", map[string]any{"city": "Mars"})
		svc.RemoteLog.Flush(ctx)
		forbidden := []string{remoteSecret, "query-credential"}
		for range 2 {
			forbidden = append(forbidden, <-rsa.signatures)
		}
		for _, row := range rawRows(t, db, "remote_exchanges") {
			for _, secret := range forbidden {
				if strings.Contains(row, secret) {
					t.Fatalf("a row of remote_exchanges holds %q: %s", secret, row)
				}
			}
		}
	})
}

// rawRows reads every row of table as the database holds it, each column as text.
func rawRows(t *testing.T, db *platform.Database, table string) []string {
	t.Helper()
	rows, err := db.SQL.QueryContext(context.Background(), "SELECT * FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for i, v := range vals {
			fmt.Fprintf(&b, "%s=%s ", cols[i], v.String)
		}
		out = append(out, b.String())
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s is empty", table)
	}
	return out
}

func TestAnExchangeKeepsTheFirst16KiBOfEachBodyAndItsSize(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := newRemoteService(t, db)
		sh := newShop(t, svc)
		rsa := newRemoteServer(t)
		// A note of multi-byte characters, so that the cut falls inside one.
		note := strings.Repeat("é", 20_000)
		callRemote(t, svc, sh, remote.KindRSA, "process_order_events", rsa.URL+"/process_order_events", map[string]any{"note": note})
		svc.RemoteLog.Flush(ctx)
		r := svc.Client().RemoteExchange.Query().OnlyX(ctx)
		if len(r.RequestBody) > remotelog.MaxBody || len(r.ResponseBody) > remotelog.MaxBody || len(r.RequestBody) < remotelog.MaxBody-1 {
			t.Fatalf("kept %d and %d bytes, want at most %d", len(r.RequestBody), len(r.ResponseBody), remotelog.MaxBody)
		}
		if r.RequestSize <= 40_000 || r.ResponseSize <= r.RequestSize || !strings.HasSuffix(r.RequestBody, "é") {
			t.Fatalf("sizes %d and %d, request ends %q", r.RequestSize, r.ResponseSize, r.RequestBody[len(r.RequestBody)-4:])
		}
	})
}

func TestTheExchangeLogIsNarrowedByKindAndOrderAndIsTheShopsOwn(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := newRemoteService(t, db)
		sh := newShop(t, svc)
		other := newShopNamed(t, svc, "shop-b")
		c := svc.Client()
		now := time.Now()
		for _, x := range []struct {
			shop        int
			kind, order string
		}{{sh.ID, "rsa", "o-1"}, {sh.ID, "override", "o-1"}, {sh.ID, "override", "o-2"}, {other.ID, "rsa", "o-1"}} {
			c.RemoteExchange.Create().SetShopID(x.shop).SetKind(x.kind).SetCall("tax").SetPublicOrderID(x.order).
				SetURL("https://example.com/tax").SetAt(now).SetLatencyMs(1).SetOutcome("answered").SaveX(ctx)
		}
		count := func(f remotelog.Filter) int {
			q, err := svc.RemoteLog.Exchanges(sh, f)
			if err != nil {
				t.Fatal(err)
			}
			return q.CountX(ctx)
		}
		if n := count(remotelog.Filter{}); n != 3 {
			t.Errorf("%d exchanges, want the shop's 3", n)
		}
		if n := count(remotelog.Filter{Kind: "override"}); n != 2 {
			t.Errorf("%d override exchanges, want 2", n)
		}
		if n := count(remotelog.Filter{Kind: "rsa", PublicOrderID: "o-1"}); n != 1 {
			t.Errorf("%d rsa exchanges of o-1, want 1", n)
		}
		_, err := svc.RemoteLog.Exchanges(sh, remotelog.Filter{Kind: "gateway"})
		if p, ok := problem.As(err); !ok || p.Type != "remote_exchange.invalid_kind" {
			t.Errorf("kind gateway: %v, want remote_exchange.invalid_kind", err)
		}
	})
}

func TestRetentionDeletesExchangesOlderThanTheyAreKept(t *testing.T) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		now := time.Now()
		svc := newRemoteService(t, db, service.WithClock(func() time.Time { return now }))
		sh := newShop(t, svc)
		c := svc.Client()
		for _, at := range []time.Time{now.Add(-8 * 24 * time.Hour), now.Add(-7*24*time.Hour - time.Minute), now.Add(-6 * 24 * time.Hour), now} {
			c.RemoteExchange.Create().SetShopID(sh.ID).SetKind("rsa").SetCall("process_order_events").
				SetURL("https://example.com/rsa").SetAt(at).SetLatencyMs(1).SetOutcome("answered").SaveX(ctx)
		}
		deleted, err := svc.PruneOldRecords(ctx, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if deleted["remote_exchanges"] != 2 {
			t.Fatalf("deleted %v, want the two exchanges older than 7 days", deleted)
		}
		if n := c.RemoteExchange.Query().Where(remoteexchange.AtGT(now.Add(-7 * 24 * time.Hour))).CountX(ctx); n != 2 {
			t.Fatalf("%d recent exchanges left, want 2", n)
		}
	})
}

func newShopNamed(t *testing.T, svc *service.Service, identifier string) *ent.Shop {
	t.Helper()
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: identifier})
	if err != nil {
		t.Fatal(err)
	}
	return created.Shop
}
