// Package checkoutdtest runs checkoutd's REST API inside a test, on each database checkoutd
// supports, with one shop, so that the examples' end-to-end tests can drive a real checkoutd
// against the example servers.
package checkoutdtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// Checkoutd is a running checkoutd with one shop.
type Checkoutd struct {
	URL  string
	Svc  *service.Service
	Shop string
	// Token is the shop's access token.
	Token string

	t *testing.T
}

// Each runs fn as a subtest on SQLite and on PostgreSQL (skipped where unreachable, except
// under CI=true), each with a checkoutd of its own. The examples listen on loopback, so
// checkoutd may call private addresses (CHECKOUT_OUTBOUND_ALLOW_PRIVATE).
func Each(t *testing.T, opts []service.Option, fn func(t *testing.T, c *Checkoutd)) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db, append([]service.Option{service.WithOutboundAllowPrivate(true), service.WithGatewayTimeout(2 * time.Second)}, opts...)...)
		mux := http.NewServeMux()
		rest.Register(mux, svc)
		srv := httptest.NewServer(rest.Common(mux))
		t.Cleanup(srv.Close)
		created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "example-shop", Name: "Example shop"})
		if err != nil {
			t.Fatal(err)
		}
		fn(t, &Checkoutd{URL: srv.URL, Svc: svc, Shop: created.Shop.Identifier, Token: created.AccessToken, t: t})
	})
}

// StartJobs runs the job queue (webhook deliveries among its jobs) until the test ends.
func (c *Checkoutd) StartJobs() {
	ctx, cancel := context.WithCancel(context.Background())
	if err := c.Svc.StartJobs(ctx); err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() {
		stop, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = c.Svc.StopJobs(stop)
		cancel()
	})
}

// Response is one answer of the REST API.
type Response struct {
	Status int
	Body   map[string]any
	Raw    string
}

// Do calls path with the shop's access token.
func (c *Checkoutd) Do(method, path string, body any) Response {
	c.t.Helper()
	return c.DoAs(c.Token, method, path, body)
}

// DoAs calls path with the bearer credential given: an access token, or an order's JWT for the
// storefront paths.
func (c *Checkoutd) DoAs(bearer, method, path string, body any) Response {
	c.t.Helper()
	var rdr io.Reader
	if body != nil {
		buf, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rdr = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, c.URL+path, rdr)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := Response{Status: res.StatusCode, Raw: string(raw)}
	_ = json.Unmarshal(raw, &out.Body)
	return out
}

// Want fails the test unless the answer has status.
func (r Response) Want(t *testing.T, status int) Response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Raw)
	}
	return r
}

// Data is the answer's data object.
func (r Response) Data(t *testing.T) map[string]any {
	t.Helper()
	d, ok := r.Body["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data object in %s", r.Raw)
	}
	return d
}

// FirstError is the answer's first error ({code, type, message, details}), empty when it has
// none.
func (r Response) FirstError() map[string]any {
	errs, _ := r.Body["errors"].([]any)
	if len(errs) == 0 {
		return map[string]any{}
	}
	e, _ := errs[0].(map[string]any)
	return e
}
