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
