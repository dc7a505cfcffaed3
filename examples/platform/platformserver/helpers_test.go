package platformserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

var (
	testNow    = time.Date(2026, 11, 25, 23, 59, 0, 0, time.UTC)
	testSecret = []byte("shared-secret-of-demo")
)

const testShop = "demo"

// fixture is a Server mounted under /platform, as checkoutd's tests mount it, and a client
// that signs like checkoutd.
type fixture struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv := New(map[string][]byte{testShop: testSecret}, WithClock(func() time.Time { return testNow }))
	mux := http.NewServeMux()
	mux.Handle("/platform/", srv)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return &fixture{t: t, srv: srv, ts: ts}
}

// url is the connector URL of path (relative to the shop) under the destination.
func (f *fixture) url(path string) string {
	return f.ts.URL + "/platform/v1/shops/" + testShop + "/" + path
}

// do sends a signed call and decodes a JSON answer into out (when not nil).
func (f *fixture) do(method, path string, body any, out any, hdr ...string) *http.Response {
	f.t.Helper()
	req := f.request(method, path, body)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return f.send(req, out)
}

func (f *fixture) request(method, path string, body any) *http.Request {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.url(path), rd)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("User-Agent", "checkoutd-test")
	req.Header.Set("Content-Type", "application/json")
	Sign(req.Header, testSecret, testNow)
	return req
}

func (f *fixture) send(req *http.Request, out any) *http.Response {
	f.t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			f.t.Fatalf("%s %s: answer %q: %v", req.Method, req.URL.Path, b, err)
		}
	}
	return resp
}

func wantStatus(t *testing.T, resp *http.Response, want int) {
	t.Helper()
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, want)
	}
}

// data wraps v as {data:{name:v}}.
func data(name string, v any) map[string]any { return map[string]any{"data": map[string]any{name: v}} }

type customerAnswer struct {
	Data struct {
		Customer Customer `json:"customer"`
	} `json:"data"`
}

type addressAnswer struct {
	Data struct {
		Address Address `json:"address"`
	} `json:"data"`
}

type customersAnswer struct {
	Data struct {
		Customers []Customer `json:"customers"`
	} `json:"data"`
	Pagination Pagination `json:"pagination"`
}

type errorAnswer struct {
	Errors []struct {
		Message string `json:"message"`
	} `json:"errors"`
}
