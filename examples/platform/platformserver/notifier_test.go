package platformserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

type received struct {
	method, path, auth string
	body               map[string]map[string]map[string]any
}

func TestNotifierSendsEachEvent(t *testing.T) {
	var got []received
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc := received{method: r.Method, path: r.URL.Path, auth: r.Header.Get("Authorization")}
		if err := json.Unmarshal(b, &rc.body); err != nil {
			t.Errorf("%s: body %q: %v", r.URL.Path, b, err)
		}
		got = append(got, rc)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer ts.Close()
	n := &Notifier{BaseURL: ts.URL + "/", AccessToken: "ckd_tok", Client: ts.Client()}
	ctx := context.Background()
	at := time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC)
	cust := Customer{PlatformID: "cus_1", PlatformUpdatedAt: at, FirstName: "Ada", Addresses: []Address{{PlatformID: "adr_1", City: "London"}}}
	cat := Category{PlatformID: "cat_1", PlatformUpdatedAt: at, Name: "Mugs", ImageURL: "https://img/x.png"}
	steps := []struct {
		call     func() error
		path     string
		member   string
		wantKeys []string
	}{
		{func() error { return n.CustomerSaved(ctx, "demo", cust) }, "/customers/v1/shops/demo/platforms/custom/webhooks/customers/saved", "customer", []string{"platform_id", "addresses", "platform_updated_at"}},
		{func() error { return n.CustomerDeleted(ctx, "demo", "cus_1", at) }, "/customers/v1/shops/demo/platforms/custom/webhooks/customers/deleted", "customer", []string{"platform_id", "platform_deleted_at"}},
		{func() error {
			return n.ProductSaved(ctx, "demo", Product{PlatformID: "prd_1", PlatformUpdatedAt: at, Variants: []Variant{{PlatformID: "v1", Price: "9.99"}}})
		}, "/products/v1/shops/demo/platforms/custom/webhooks/products/saved", "product", []string{"platform_id", "variants", "options", "images", "categories"}},
		{func() error { return n.ProductDeleted(ctx, "demo", "prd_1", at) }, "/products/v1/shops/demo/platforms/custom/webhooks/products/deleted", "product", []string{"platform_id", "platform_deleted_at"}},
		{func() error { return n.CategorySaved(ctx, "demo", cat) }, "/products/v1/shops/demo/platforms/custom/webhooks/categories/saved", "category", []string{"platform_id", "platform_updated_at", "image_url", "name"}},
		{func() error { return n.CategoryDeleted(ctx, "demo", "cat_1", at) }, "/products/v1/shops/demo/platforms/custom/webhooks/categories/deleted", "category", []string{"platform_id", "platform_deleted_at"}},
		{func() error {
			return n.OrderSaved(ctx, "demo", Order{PlatformID: "ord_1", PlatformUpdatedAt: at, PlacedAt: at, Total: "21.50"})
		}, "/orders/v1/shops/demo/platforms/custom/webhooks/orders/saved", "order", []string{"platform_id", "total", "line_items", "placed_at"}},
		{func() error { return n.OrderDeleted(ctx, "demo", "ord_1", at) }, "/orders/v1/shops/demo/platforms/custom/webhooks/orders/deleted", "order", []string{"platform_id", "platform_deleted_at"}},
	}
	for _, s := range steps {
		if err := s.call(); err != nil {
			t.Fatalf("%s: %v", s.path, err)
		}
	}
	if len(got) != len(steps) {
		t.Fatalf("%d calls, want %d", len(got), len(steps))
	}
	for i, s := range steps {
		r := got[i]
		if r.method != "POST" || r.path != s.path || r.auth != "Bearer ckd_tok" {
			t.Errorf("call %d: %s %s %q, want POST %s with the bearer token", i, r.method, r.path, r.auth, s.path)
		}
		m := r.body["data"][s.member]
		if m == nil {
			t.Errorf("%s: no data.%s in %v", s.path, s.member, r.body)
			continue
		}
		for _, k := range s.wantKeys {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: data.%s has no %s: %v", s.path, s.member, k, m)
			}
		}
	}
	if d := got[1].body["data"]["customer"]; d["platform_deleted_at"] != "2026-11-25T23:00:00Z" || len(d) != 2 {
		t.Errorf("customer deleted body %v", d)
	}
	if a := got[0].body["data"]["customer"]["addresses"].([]any); len(a) != 1 {
		t.Errorf("customer saved without its addresses: %v", a)
	}
}

func TestNotifierReportsOtherStatuses(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"errors":[{"message":"bad"}]}`, http.StatusBadRequest)
	}))
	defer ts.Close()
	n := &Notifier{BaseURL: ts.URL, AccessToken: "t"}
	err := n.CustomerDeleted(context.Background(), "demo", "cus_1", time.Now())
	var se *StatusError
	if !errors.As(err, &se) || se.StatusCode != 400 || se.Body == "" {
		t.Fatalf("err = %v, want a StatusError 400 with the body", err)
	}
}
