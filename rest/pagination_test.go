package rest_test

import (
	"strings"
	"testing"
)

// The read lists' pages (customers, products) as their tests walk them.

// pagination is a list answer's pagination object.
func pagination(t *testing.T, r response) map[string]any {
	t.Helper()
	p, ok := r.Body["pagination"].(map[string]any)
	if !ok {
		t.Fatalf("no pagination in %s", r.Raw)
	}
	return p
}

// follow calls a page's next_url or previous_url, which must be a URL of the test server, and
// wants it answered.
func follow(t *testing.T, a *api, link any) response {
	t.Helper()
	s, ok := link.(string)
	if !ok || !strings.HasPrefix(s, a.url) {
		t.Fatalf("link %v is not a URL of the server", link)
	}
	return a.do("GET", strings.TrimPrefix(s, a.url), nil).wantStatus(t, 200)
}
