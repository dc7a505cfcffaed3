package rest_test

import (
	"strings"
	"testing"
)

func TestAPIOverrideLifecycle(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		r := a.do("POST", a.shopPath("/overrides"), map[string]any{"override_type": "tax", "url": "https://tax.example.com", "shared_secret": "override-secret-42"}).wantStatus(t, 200)
		if strings.Contains(r.Raw, "override-secret") {
			t.Fatalf("secret returned: %s", r.Raw)
		}
		o := r.data(t)["override"].(map[string]any)
		path := a.shopPath("/overrides/" + o["public_id"].(string))
		list := a.do("GET", a.shopPath("/overrides"), nil).wantStatus(t, 200).data(t)["overrides"].([]any)
		if len(list) != 1 {
			t.Fatalf("list %v", list)
		}
		up := a.do("PATCH", path, map[string]any{"url": "https://tax2.example.com"}).wantStatus(t, 200).data(t)["override"].(map[string]any)
		if up["url"] != "https://tax2.example.com" || up["override_type"] != "tax" {
			t.Fatalf("updated %v", up)
		}
		a.do("DELETE", path, nil).wantStatus(t, 200)
		a.do("DELETE", path, nil).wantError(t, 404, "", "api_override.not_found")
	})
}

func TestAPIOverrideTypeMustBeOneOfTheFive(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/overrides"), map[string]any{"override_type": "payments", "url": "https://x.example.com", "shared_secret": "s"}).
			wantError(t, 422, "", "api_override.invalid_api_override_data")
		a.do("POST", a.shopPath("/overrides"), map[string]any{"override_type": "tax"}).wantError(t, 422, "", "api_override.invalid_api_override_data")
	})
}

func TestAPIOverrideFailurePolicyDefaultsByTypeAndTimeoutIsBounded(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		tax := a.do("POST", a.shopPath("/overrides"), map[string]any{"override_type": "tax", "url": "https://tax.example.com", "shared_secret": "s"}).
			wantStatus(t, 200).data(t)["override"].(map[string]any)
		if tax["failure_policy"] != "refuse" || tax["timeout_ms"].(float64) != 2000 {
			t.Fatalf("tax override %v: want refuse, 2000 ms", tax)
		}
		addr := a.do("POST", a.shopPath("/overrides"), map[string]any{"override_type": "address_validate", "url": "https://addr.example.com", "shared_secret": "s", "timeout_ms": 500}).
			wantStatus(t, 200).data(t)["override"].(map[string]any)
		if addr["failure_policy"] != "fallback" || addr["timeout_ms"].(float64) != 500 {
			t.Fatalf("address override %v: want fallback, 500 ms", addr)
		}
		up := a.do("PATCH", a.shopPath("/overrides/"+tax["public_id"].(string)), map[string]any{"failure_policy": "fallback", "timeout_ms": 10000}).
			wantStatus(t, 200).data(t)["override"].(map[string]any)
		if up["failure_policy"] != "fallback" || up["timeout_ms"].(float64) != 10000 {
			t.Fatalf("patched %v", up)
		}
		for _, bad := range []map[string]any{{"failure_policy": "retry"}, {"timeout_ms": 99}, {"timeout_ms": 10001}} {
			a.do("PATCH", a.shopPath("/overrides/"+tax["public_id"].(string)), bad).wantError(t, 422, "", "api_override.invalid_api_override_data")
		}
	})
}

func TestRSAConfigTimeoutIsBounded(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		c := a.do("POST", a.shopPath("/rsa_config"), map[string]any{"url": "https://rsa.example.com", "shared_secret": "s"}).wantStatus(t, 200).data(t)["rsa_config"].(map[string]any)
		if c["timeout_ms"].(float64) != 2000 {
			t.Fatalf("rsa config %v: want 2000 ms", c)
		}
		c = a.do("PATCH", a.shopPath("/rsa_config"), map[string]any{"timeout_ms": 750}).wantStatus(t, 200).data(t)["rsa_config"].(map[string]any)
		if c["timeout_ms"].(float64) != 750 {
			t.Fatalf("rsa config %v: want 750 ms", c)
		}
		a.do("PATCH", a.shopPath("/rsa_config"), map[string]any{"timeout_ms": 20000}).wantError(t, 422, "", "rsa_config.invalid_rsa_config")
	})
}

func TestInitTakesPerOrderOverridesByTheShopsRules(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := cart()
		body["api_overrides"] = []map[string]any{{"override_type": "tax", "url": "https://tax.example.com", "shared_secret": "order-secret", "failure_policy": "fallback", "timeout_ms": 300}}
		d := a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantStatus(t, 200).data(t)
		if fb := d["application_state"].(map[string]any)["override_fallbacks"].([]any); len(fb) != 0 {
			t.Fatalf("override_fallbacks %v", fb)
		}
		for _, bad := range []map[string]any{
			{"override_type": "payments", "url": "https://x.example.com", "shared_secret": "s"},
			{"override_type": "tax", "url": "ftp://x.example.com", "shared_secret": "s"},
			{"override_type": "tax", "url": "https://x.example.com", "shared_secret": ""},
			{"override_type": "tax", "url": "https://x.example.com", "shared_secret": "s", "timeout_ms": 50},
		} {
			body["api_overrides"] = []map[string]any{bad}
			a.do("POST", "/checkout/orders/"+a.shop+"/init", body).wantError(t, 422, "", "api_override.invalid_api_override_data")
		}
	})
}
