package rest_test

import (
	"fmt"
	"testing"
)

func TestEmptyCorsAllowlistIsAnEmptyObject(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		r := a.do("GET", a.shopPath("/cors"), nil).wantStatus(t, 200)
		if d, ok := r.Body["data"].(map[string]any); !ok || len(d) != 0 {
			t.Fatalf("want data {}, got %s", r.Raw)
		}
	})
}

func TestAddDomainToCorsAllowlistAnswersTheList(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/cors"), map[string]string{"domain": "https://shop.example.com"}).wantStatus(t, 200)
		r := a.do("POST", a.shopPath("/cors"), map[string]string{"domain": "https://other.example.com"}).wantStatus(t, 200)
		list := r.Body["data"].([]any)
		if len(list) != 2 || list[0].(map[string]any)["domain"] != "https://shop.example.com" {
			t.Fatalf("list %s", r.Raw)
		}
		got := a.do("GET", a.shopPath("/cors"), nil).wantStatus(t, 200).Body["data"].([]any)
		if len(got) != 2 {
			t.Fatalf("listed %v", got)
		}
	})
}

func TestCorsDomainWithoutProtocolIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/cors"), map[string]string{"domain": "shop.example.com"}).wantError(t, 422, "", "cors.invalid_domain")
	})
}

func TestDeleteDomainFromCorsAllowlist(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		r := a.do("POST", a.shopPath("/cors"), map[string]string{"domain": "https://shop.example.com"}).wantStatus(t, 200)
		id := r.Body["data"].([]any)[0].(map[string]any)["domain_id"].(float64)
		del := a.do("DELETE", a.shopPath(fmt.Sprintf("/cors/%d", int64(id))), nil).wantStatus(t, 200)
		if del.Raw != "[]\n" {
			t.Fatalf("delete answered %q, want an empty array", del.Raw)
		}
		a.do("DELETE", a.shopPath(fmt.Sprintf("/cors/%d", int64(id))), nil).wantError(t, 404, "", "cors.domain_not_found")
	})
}
