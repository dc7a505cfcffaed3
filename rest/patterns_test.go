package rest_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
)

// TestPatternsAreTheRoutesTheServerServes holds rest.Patterns, which tests elsewhere read the
// API's routes from, to the mux Register fills: each listed pattern is the one that serves a
// request made from it.
func TestPatternsAreTheRoutesTheServerServes(t *testing.T) {
	svc := &service.Service{}
	patterns := rest.Patterns(svc)
	mux := http.NewServeMux()
	rest.Register(mux, svc)
	wildcard := regexp.MustCompile(`\{[^}]*\}`)
	for _, p := range patterns {
		method, path, ok := strings.Cut(p, " ")
		if !ok {
			method, path = http.MethodGet, p
		}
		req := httptest.NewRequest(method, wildcard.ReplaceAllString(path, "x"), nil)
		if _, served := mux.Handler(req); served != p {
			t.Errorf("a request made from %q is served by %q", p, served)
		}
	}
	if !slices.Contains(patterns, "POST /checkout/storefront/{shop}/{order}/process_order") {
		t.Fatalf("process_order is not among the %d patterns", len(patterns))
	}
}
