package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/checkoutd/checkoutd/rest"
)

// measured is a mux with one route behind CommonMeasured, and its registry.
func measured(t *testing.T) (http.Handler, *prometheus.Registry) {
	t.Helper()
	reg := prometheus.NewRegistry()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "missing" {
			w.WriteHeader(http.StatusNotFound)
		}
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	return rest.CommonMeasured(mux, rest.NewHTTPMetrics(reg)), reg
}

func serve(h http.Handler, method, target string) {
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(method, target, nil))
}

// Requests are counted by the pattern that served them, never by their path (which carries ids
// without bound), with their method and status; a path no route matches, an unknown method and
// a path refused before routing fall under the catch-all "/" and "other".
func TestRequestsAreCountedByRoutePatternMethodAndStatusNeverByPath(t *testing.T) {
	h, reg := measured(t)
	serve(h, "GET", "/orders/1")
	serve(h, "GET", "/orders/2")
	serve(h, "GET", "/orders/missing")
	serve(h, "GET", "/nowhere/3")
	serve(h, "BREW", "/nowhere/4")
	serve(h, "GET", "/orders/../orders/5")
	want := `
# HELP checkoutd_http_requests_total HTTP requests answered, by route pattern, method and status.
# TYPE checkoutd_http_requests_total counter
checkoutd_http_requests_total{method="GET",pattern="/",status="400"} 1
checkoutd_http_requests_total{method="GET",pattern="/",status="404"} 1
checkoutd_http_requests_total{method="GET",pattern="GET /orders/{id}",status="200"} 2
checkoutd_http_requests_total{method="GET",pattern="GET /orders/{id}",status="404"} 1
checkoutd_http_requests_total{method="other",pattern="/",status="404"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "checkoutd_http_requests_total"); err != nil {
		t.Fatal(err)
	}
	if n := testutil.CollectAndCount(reg, "checkoutd_http_request_duration_seconds"); n != 3 {
		t.Fatalf("%d latency series, want 3 (a pattern and method each)", n)
	}
}

// The service is benchmarked per request: once a route's series exist, measuring a request
// allocates nothing.
func TestMeasuringARequestAllocatesNothingOnceItsSeriesExist(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := rest.NewHTTPMetrics(reg)
	rest.ObserveRequest(m, "GET /orders/{id}", "GET", 200)
	if allocs := testing.AllocsPerRun(1000, func() { rest.ObserveRequest(m, "GET /orders/{id}", "GET", 200) }); allocs != 0 {
		t.Fatalf("%v allocations per request measured", allocs)
	}
}
