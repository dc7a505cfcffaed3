package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// rest.Common wraps the whole surface, but its JSON content-type rule is the REST routes':
// GraphQL's POSTs and GraphiQL, the console's forms and pages keep working, while a REST body
// sent as text/plain and a non-canonical path anywhere are answered in the error envelope.
func TestTheFrontDoorRulesLeaveGraphQLAndTheConsoleWorking(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		srv, _, token := newServer(t, db)
		noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		send := func(method, path, contentType, body string) (int, string, string) {
			t.Helper()
			req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+token)
			if contentType != "" {
				req.Header.Set("Content-Type", contentType)
			}
			res, err := noRedirects.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			raw, _ := io.ReadAll(res.Body)
			return res.StatusCode, res.Header.Get("Content-Type"), string(raw)
		}

		status, _, body := send("POST", "/graphql", "application/json", `{"query":"{ __typename }"}`)
		if status != 200 || !strings.Contains(body, `"__typename"`) {
			t.Fatalf("GraphQL POST: %d %s", status, body)
		}
		status, _, body = send("POST", "/graphql", "application/json; charset=utf-8", `{"query":"{ __typename }"}`)
		if status != 200 || !strings.Contains(body, `"__typename"`) {
			t.Fatalf("GraphQL POST with a charset: %d %s", status, body)
		}
		status, ct, _ := send("GET", "/graphql", "", "")
		if status != 200 || !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("GraphiQL: %d %s", status, ct)
		}
		status, ct, _ = send("GET", "/admin/signin", "", "")
		if status != 200 || !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("console sign-in page: %d %s", status, ct)
		}
		status, _, body = send("POST", "/admin/signin", "application/x-www-form-urlencoded", "token=nope")
		if status == http.StatusUnsupportedMediaType {
			t.Fatalf("console form refused as a media type: %s", body)
		}

		status, _, body = send("POST", "/checkout/shop/acme/cors", "text/plain", `{"domain":"https://a.example.com"}`)
		if status != http.StatusUnsupportedMediaType || !strings.Contains(body, `"request.unsupported_media_type"`) {
			t.Fatalf("REST body as text/plain: %d %s", status, body)
		}
		for _, p := range []string{"/checkout/shop/x/../acme/cors", "/graphql/.", "//admin/signin"} {
			status, _, body = send("GET", p, "", "")
			if status != http.StatusBadRequest || !strings.Contains(body, `"request.non_canonical_path"`) {
				t.Fatalf("GET %s: %d %s", p, status, body)
			}
		}
	})
}

// Introspection is on unless the operator turns it off; serve reads the setting.
func TestCheckoutGraphQLIntrospectionFalseTurnsIntrospectionOff(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, url string) {
		env := []string{"CHECKOUT_DATABASE_URL=" + url}
		runBinary(t, env, "migrate")
		introspect := func(p *process) (int, string) {
			t.Helper()
			res, err := http.Post(p.url+"/graphql", "application/json", strings.NewReader(`{"query":"{ __schema { queryType { name } } }"}`))
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			raw, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(raw)
		}
		if status, body := introspect(serveProcess(t, env)); status != 200 || !strings.Contains(body, `"queryType":{"name":"Query"}`) {
			t.Fatalf("introspection by default: %d %s", status, body)
		}
		off := serveProcess(t, append(env, "CHECKOUT_GRAPHQL_INTROSPECTION=false"))
		if status, body := introspect(off); status != http.StatusUnprocessableEntity || !strings.Contains(body, `"graphql.introspection_disabled"`) {
			t.Fatalf("introspection turned off: %d %s", status, body)
		}
	})
}
