package rest_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/hmacsig"
)

const platformSecret = "platform-s3cret"

// testConnector is a platform's connector server that answers the verification: it checks the
// call's signature and User-Agent and signs its answer, as mode says.
type testConnector struct {
	*httptest.Server
	mu    sync.Mutex
	mode  string // "": a signed 200; "unsigned", "wrong_secret", "500", "slow"
	calls []string
	bad   []string // what was wrong with calls it received
}

func newTestConnector(t *testing.T) *testConnector {
	c := &testConnector{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		mode := c.mode
		c.calls = append(c.calls, r.Method+" "+r.URL.Path)
		if err := hmacsig.Verify(r.Header, []byte(platformSecret), time.Now()); err != nil {
			c.bad = append(c.bad, err.Error())
		}
		if r.Header.Get("User-Agent") != connector.UserAgent {
			c.bad = append(c.bad, "User-Agent "+r.Header.Get("User-Agent"))
		}
		c.mu.Unlock()
		switch mode {
		case "500":
			w.WriteHeader(500)
			return
		case "slow":
			time.Sleep(300 * time.Millisecond)
		case "wrong_secret":
			hmacsig.Sign(w.Header(), []byte("not-the-secret"), time.Now())
		}
		if mode != "unsigned" && mode != "wrong_secret" {
			hmacsig.Sign(w.Header(), []byte(platformSecret), time.Now())
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *testConnector) set(mode string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mode = mode
}

func (c *testConnector) received() (calls, bad []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.calls...), append([]string(nil), c.bad...)
}

func destinationsPath(a *api) string {
	return "/integrations/v1/shops/" + a.shop + "/platform_connector_destinations"
}

func destinationBody(fields map[string]any) map[string]any {
	return map[string]any{"data": map[string]any{"destination": fields}}
}

// withPlatformSecret gives the shop the shared secret connector calls are signed with.
func withPlatformSecret(t *testing.T, a *api) {
	a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": platformSecret}).wantStatus(t, 200)
}

func destinationOf(t *testing.T, r response) map[string]any {
	t.Helper()
	return r.data(t)["destination"].(map[string]any)
}

func TestCreatingADestinationVerifiesTheConnectorServerWithASignedCall(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		withPlatformSecret(t, a)
		pc := newTestConnector(t)
		d := destinationOf(t, a.do("POST", destinationsPath(a), destinationBody(map[string]any{"shop_identifier": a.shop, "topic": "customers",
			"destination": pc.URL + "/platform", "version": "v1", "timeout_ms": 2000})).wantStatus(t, 200))
		if d["topic"] != "customers" || d["timeout_ms"] != 2000.0 || d["version"] != "v1" || d["deleted_at"] != nil || d["id"] == nil || d["shop_identifier"] != a.shop {
			t.Fatalf("destination %v", d)
		}
		calls, bad := pc.received()
		if len(calls) != 1 || calls[0] != "GET /platform/v1/shops/"+a.shop+"/verification" || len(bad) != 0 {
			t.Fatalf("the platform received %v (wrong: %v)", calls, bad)
		}
		list := a.do("GET", destinationsPath(a), nil).wantStatus(t, 200).data(t)["destination"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["id"] != d["id"] {
			t.Fatalf("list %v", list)
		}
	})
}

func TestAFailedVerificationFailsTheCreateAndStoresNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		withPlatformSecret(t, a)
		pc := newTestConnector(t)
		create := destinationBody(map[string]any{"topic": "orders", "destination": pc.URL, "timeout_ms": 150})
		for _, mode := range []string{"500", "unsigned", "wrong_secret", "slow"} {
			pc.set(mode)
			e := a.do("POST", destinationsPath(a), create).wantError(t, 400, "", "destination.verification_failed")
			if msg, _ := e["message"].(string); msg == "" {
				t.Fatalf("%s: no reason given: %v", mode, e)
			}
		}
		if list := a.do("GET", destinationsPath(a), nil).wantStatus(t, 200).data(t)["destination"].([]any); len(list) != 0 {
			t.Fatalf("failed verifications stored %v", list)
		}
	})
}

func TestAShopHasOneDestinationPerTopic(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		withPlatformSecret(t, a)
		pc := newTestConnector(t)
		create := destinationBody(map[string]any{"topic": "products", "destination": pc.URL})
		first := destinationOf(t, a.do("POST", destinationsPath(a), create).wantStatus(t, 200))
		if first["timeout_ms"] != float64(connector.DefaultTimeoutMS) || first["version"] != "v1" {
			t.Fatalf("defaults %v", first)
		}
		a.do("POST", destinationsPath(a), create).wantError(t, 400, "", "destination.topic_taken")
		a.do("DELETE", destinationsPath(a)+"/"+itoa(first["id"]), nil).wantStatus(t, 204)
		a.do("POST", destinationsPath(a), create).wantStatus(t, 200)
	})
}

func TestUpdatingADestinationChangesOnlyTheFieldsGivenAndVerifiesAgain(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		withPlatformSecret(t, a)
		pc := newTestConnector(t)
		d := destinationOf(t, a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "customers", "destination": pc.URL})).wantStatus(t, 200))
		path := destinationsPath(a) + "/" + itoa(d["id"])
		u := destinationOf(t, a.do("PATCH", path, destinationBody(map[string]any{"id": d["id"], "timeout_ms": 9000})).wantStatus(t, 200))
		if u["timeout_ms"] != 9000.0 || u["destination"] != pc.URL || u["topic"] != "customers" {
			t.Fatalf("updated %v", u)
		}
		if calls, _ := pc.received(); len(calls) != 2 {
			t.Fatalf("the update did not verify again: %v", calls)
		}
		pc.set("500")
		a.do("PATCH", path, destinationBody(map[string]any{"timeout_ms": 1000})).wantError(t, 400, "", "destination.verification_failed")
		if got := destinationOf(t, a.do("GET", path, nil).wantStatus(t, 200)); got["timeout_ms"] != 9000.0 {
			t.Fatalf("a failed verification changed the destination: %v", got)
		}
		a.do("PATCH", path, destinationBody(map[string]any{"id": 12345})).wantError(t, 400, "", "destination.invalid")
	})
}

func TestADeletedDestinationIsKeptWithDeletedAtAndIsCalledNoMore(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		withPlatformSecret(t, a)
		pc := newTestConnector(t)
		d := destinationOf(t, a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "orders", "destination": pc.URL})).wantStatus(t, 200))
		path := destinationsPath(a) + "/" + itoa(d["id"])
		a.do("DELETE", path, nil).wantStatus(t, 204)
		if got := destinationOf(t, a.do("GET", path, nil).wantStatus(t, 200)); got["deleted_at"] == nil {
			t.Fatalf("deleted destination %v", got)
		}
		if list := a.do("GET", destinationsPath(a), nil).wantStatus(t, 200).data(t)["destination"].([]any); len(list) != 0 {
			t.Fatalf("list shows a deleted destination: %v", list)
		}
		a.do("DELETE", path, nil).wantError(t, 404, "", "destination.not_found")
		a.do("PATCH", path, destinationBody(map[string]any{"timeout_ms": 1000})).wantError(t, 404, "", "destination.not_found")
		a.do("GET", destinationsPath(a)+"/999999", nil).wantError(t, 404, "", "destination.not_found")
		a.do("GET", destinationsPath(a)+"/abc", nil).wantError(t, 404, "", "destination.not_found")
	})
}

func TestADestinationOutsideItsBoundsIsRefusedWith400(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		pc := newTestConnector(t)
		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "orders", "destination": pc.URL})).
			wantError(t, 400, "", "destination.no_shared_secret")
		withPlatformSecret(t, a)
		for _, c := range []struct {
			field  string
			fields map[string]any
		}{
			{"topic", map[string]any{"topic": "carts", "destination": pc.URL}},
			{"topic", map[string]any{"destination": pc.URL}},
			{"destination", map[string]any{"topic": "orders"}},
			{"destination", map[string]any{"topic": "orders", "destination": "http://169.254.169.254/latest"}},
			{"destination", map[string]any{"topic": "orders", "destination": "ftp://example.com"}},
			{"version", map[string]any{"topic": "orders", "destination": pc.URL, "version": "v2"}},
			{"timeout_ms", map[string]any{"topic": "orders", "destination": pc.URL, "timeout_ms": 50}},
			{"timeout_ms", map[string]any{"topic": "orders", "destination": pc.URL, "timeout_ms": 30001}},
			{"shop_identifier", map[string]any{"topic": "orders", "destination": pc.URL, "shop_identifier": "another-shop"}},
		} {
			e := a.do("POST", destinationsPath(a), destinationBody(c.fields)).wantError(t, 400, "", "destination.invalid")
			if e["details"].(map[string]any)["field"] != c.field {
				t.Fatalf("%v: %v, want field %s", c.fields, e, c.field)
			}
		}
		a.do("POST", destinationsPath(a), map[string]any{"topic": "orders"}).wantError(t, 400, "", "destination.invalid")
		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "orders", "destination": pc.URL, "timeout_ms": "fast"})).
			wantError(t, 422, "", "request.invalid_field_type")
		if calls, _ := pc.received(); len(calls) != 0 {
			t.Fatalf("refused destinations were called: %v", calls)
		}
		a.doAs("wrong-token", "GET", destinationsPath(a), nil).wantError(t, 401, "", "auth.unauthorized")
	})
}

// itoa is a JSON number as a path segment.
func itoa(v any) string { return strconv.Itoa(int(v.(float64))) }

func TestACallSignedWithAnotherSecretIsRefusedByTheExamplePlatform(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		withPlatformSecret(t, a)
		pf := platformserver.New(map[string][]byte{platformserver.AnyShop: []byte("the-platforms-own-secret")})
		srv := httptest.NewServer(pf)
		t.Cleanup(srv.Close)
		e := a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "orders", "destination": srv.URL})).
			wantError(t, 400, "", "destination.verification_failed")
		if msg, _ := e["message"].(string); !strings.Contains(msg, "401") {
			t.Fatalf("the refusal does not say the platform answered 401: %s", msg)
		}
		calls := pf.Calls()
		if len(calls) != 1 || calls[0].SignatureValid || calls[0].Status != http.StatusUnauthorized {
			t.Fatalf("the platform saw %+v", calls)
		}
	})
}
