package rest_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
)

// TestRoutesAreTheRoutesTheServerServes holds rest.Routes, which tests elsewhere read the API's
// routes from, to the mux Register fills: each listed pattern is the one that serves a request
// made from it, and each names its handler and where it is registered.
func TestRoutesAreTheRoutesTheServerServes(t *testing.T) {
	svc := &service.Service{}
	routes := rest.Routes(svc)
	mux := http.NewServeMux()
	rest.Register(mux, svc)
	wildcard := regexp.MustCompile(`\{[^}]*\}`)
	found := map[string]rest.Route{}
	for _, rt := range routes {
		found[rt.Pattern] = rt
		method, path, ok := strings.Cut(rt.Pattern, " ")
		if !ok {
			method, path = http.MethodGet, rt.Pattern
		}
		req := httptest.NewRequest(method, wildcard.ReplaceAllString(path, "x"), nil)
		if _, served := mux.Handler(req); served != rt.Pattern {
			t.Errorf("a request made from %q is served by %q", rt.Pattern, served)
		}
		if !strings.HasPrefix(method, "OPTIONS") && rt.Handler == "" || !regexp.MustCompile(`^[a-z_]+\.go:\d+$`).MatchString(rt.Registered) {
			t.Errorf("%+v", rt)
		}
	}
	for pattern, want := range map[string]rest.Route{
		"POST /checkout/storefront/{shop}/{order}/process_order":     {Handler: "processOrder", Registered: "payments.go"},
		"PUT /checkout/orders/{shop}/{order}/addresses/billing":      {Handler: "putAddress", Registered: "order_customer.go"},
		"POST /checkout/storefront/{shop}/{order}/payments":          {Handler: "changePayment", Registered: "payments.go"},
		"POST /checkout/orders/{shop}/{order}/payments/capture/full": {Handler: "capture", Registered: "money.go"},
		"GET /readyz": {Handler: "readyz", Registered: "server.go"},
		"/":           {Handler: "routeNotFound", Registered: "server.go"},
	} {
		if got := found[pattern]; got.Handler != want.Handler || !strings.HasPrefix(got.Registered, want.Registered+":") {
			t.Errorf("%s: %+v, want the handler %s registered in %s", pattern, got, want.Handler, want.Registered)
		}
	}
}
