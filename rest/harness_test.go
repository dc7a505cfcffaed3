package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// api is a running REST server on one database with one shop.
type api struct {
	t      *testing.T
	url    string
	svc    *service.Service
	shop   string
	token  string
	header http.Header
	clock  *fakeClock
}

// fakeClock is the service's clock in tests, moved by hand instead of by sleeping.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func eachAPI(t *testing.T, fn func(t *testing.T, a *api)) { eachAPIWith(t, nil, fn) }

// eachAPIWith is eachAPI with more service options.
func eachAPIWith(t *testing.T, opts []service.Option, fn func(t *testing.T, a *api)) {
	// Each test has its own server and databases: tests run side by side.
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		clock := &fakeClock{now: time.Now()}
		// The test gateways and receivers listen on loopback; a test of the outbound guard turns
		// this off in opts.
		svc := service.New(db, append([]service.Option{service.WithClock(clock.Now), service.WithGatewayTimeout(time.Second),
			service.WithOutboundAllowPrivate(true)}, opts...)...)
		mux := http.NewServeMux()
		rest.Register(mux, svc)
		// Every request and answer is held to docs/openapi.yaml (openapi_test.go).
		srv := httptest.NewServer(validated(t, rest.Common(mux)))
		t.Cleanup(srv.Close)
		created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-a", Name: "Shop A"})
		if err != nil {
			t.Fatal(err)
		}
		fn(t, &api{t: t, url: srv.URL, svc: svc, shop: "shop-a", token: created.AccessToken, clock: clock})
	})
}

type response struct {
	Status int
	Body   map[string]any
	Raw    string
	Header http.Header
}

func (a *api) do(method, path string, body any) response {
	a.t.Helper()
	return a.doAs(a.token, method, path, body)
}

// doWithHeader calls with the access token and extra headers.
func (a *api) doWithHeader(method, path string, body any, h http.Header) response {
	a.t.Helper()
	return a.call(a.token, method, path, body, h)
}

// doAs calls with the given credential; it changes nothing on a, so goroutines may share it.
func (a *api) doAs(token, method, path string, body any) response {
	a.t.Helper()
	return a.call(token, method, path, body, nil)
}

func (a *api) call(token, method, path string, body any, extra http.Header) response {
	a.t.Helper()
	var rdr io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rdr = bytes.NewBufferString(b)
	case []byte:
		rdr = bytes.NewReader(b)
	default:
		buf, _ := json.Marshal(b)
		rdr = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, a.url+path, rdr)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range a.header {
		req.Header[k] = v
	}
	for k, v := range extra {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{Status: res.StatusCode, Raw: string(raw), Header: res.Header}
	_ = json.Unmarshal(raw, &out.Body)
	return out
}

func (a *api) shopPath(suffix string) string { return "/checkout/shop/" + a.shop + suffix }

func (r response) wantStatus(t *testing.T, status int) response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Raw)
	}
	return r
}

// wantError checks the documented error envelope and its first code and type.
func (r response) wantError(t *testing.T, status int, code, typ string) map[string]any {
	t.Helper()
	r.wantStatus(t, status)
	errs, ok := r.Body["errors"].([]any)
	if !ok || len(errs) == 0 {
		t.Fatalf("no errors array in %s", r.Raw)
	}
	e := errs[0].(map[string]any)
	for _, k := range []string{"code", "type", "message", "details"} {
		if _, ok := e[k]; !ok {
			t.Fatalf("error lacks %q: %s", k, r.Raw)
		}
	}
	if code != "" && e["code"] != code {
		t.Fatalf("code %v, want %s: %s", e["code"], code, r.Raw)
	}
	if typ != "" && e["type"] != typ {
		t.Fatalf("type %v, want %s: %s", e["type"], typ, r.Raw)
	}
	return e
}

func (r response) data(t *testing.T) map[string]any {
	t.Helper()
	d, ok := r.Body["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data object in %s", r.Raw)
	}
	return d
}

// noRedirects answers a redirect itself instead of following it.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// send is call without the harness's manners: the path goes out as written (dot segments and
// all), Content-Type only when contentType is not empty, with chunked the body has no declared
// length, and a redirect is answered, not followed.
func (a *api) send(token, method, path, contentType string, body []byte, chunked bool) response {
	a.t.Helper()
	var rdr io.Reader
	if body != nil {
		rdr = bytes.NewReader(body)
		if chunked {
			rdr = io.MultiReader(rdr)
		}
	}
	req, err := http.NewRequest(method, a.url+path, rdr)
	if err != nil {
		a.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := noRedirects.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := response{Status: res.StatusCode, Raw: string(raw), Header: res.Header}
	_ = json.Unmarshal(raw, &out.Body)
	return out
}
