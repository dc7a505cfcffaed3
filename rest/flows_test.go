package rest_test

import "testing"

func flowIDs(t *testing.T, r response) []string {
	t.Helper()
	var ids []string
	for _, f := range r.data(t)["flows"].([]any) {
		ids = append(ids, f.(map[string]any)["flow_id"].(string))
	}
	return ids
}

func TestEnableFlowMovesItFromAvailableToEnabled(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		avail := flowIDs(t, a.do("GET", a.shopPath("/flows/available"), nil).wantStatus(t, 200))
		if len(avail) != 2 {
			t.Fatalf("available %v", avail)
		}
		if got := flowIDs(t, a.do("GET", a.shopPath("/flows"), nil).wantStatus(t, 200)); len(got) != 0 {
			t.Fatalf("enabled before enabling: %v", got)
		}
		enabled := flowIDs(t, a.do("PUT", a.shopPath("/flows/"+avail[0]), nil).wantStatus(t, 200))
		if len(enabled) != 1 || enabled[0] != avail[0] {
			t.Fatalf("enabled %v", enabled)
		}
		after := flowIDs(t, a.do("GET", a.shopPath("/flows/available"), nil).wantStatus(t, 200))
		if len(after) != 1 || after[0] == avail[0] {
			t.Fatalf("available list still has the enabled flow: %v", after)
		}
	})
}

func TestDisableFlowMakesItAvailableAgain(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("PUT", a.shopPath("/flows/checkoutd-single-page"), nil).wantStatus(t, 200)
		if got := flowIDs(t, a.do("DELETE", a.shopPath("/flows/checkoutd-single-page"), nil).wantStatus(t, 200)); len(got) != 0 {
			t.Fatalf("still enabled: %v", got)
		}
		if got := flowIDs(t, a.do("GET", a.shopPath("/flows/available"), nil)); len(got) != 2 {
			t.Fatalf("available %v", got)
		}
		a.do("DELETE", a.shopPath("/flows/checkoutd-single-page"), nil).wantError(t, 422, "", "flow.not_enabled")
	})
}

func TestEnableOrDisableUnknownFlowIs404(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("PUT", a.shopPath("/flows/nope"), nil).wantError(t, 404, "", "flow.not_found")
		a.do("DELETE", a.shopPath("/flows/nope"), nil).wantError(t, 404, "", "flow.not_found")
	})
}

func TestEnableEnabledFlowIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("PUT", a.shopPath("/flows/checkoutd-three-step"), nil).wantStatus(t, 200)
		a.do("PUT", a.shopPath("/flows/checkoutd-three-step"), nil).wantError(t, 422, "", "flow.already_enabled")
	})
}

func TestRegisterCustomFlowMakesItAvailable(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := map[string]any{"flow_id": "my-flow", "flow_name": "My flow", "flow_type": "custom"}
		avail := flowIDs(t, a.do("POST", a.shopPath("/flows"), body).wantStatus(t, 200))
		if len(avail) != 3 || avail[2] != "my-flow" {
			t.Fatalf("available %v", avail)
		}
		a.do("POST", a.shopPath("/flows"), body).wantError(t, 422, "", "flow.already_exists")
		a.do("PUT", a.shopPath("/flows/my-flow"), nil).wantStatus(t, 200)
		a.do("POST", a.shopPath("/flows"), map[string]any{"flow_id": "x"}).wantError(t, 422, "", "flow.invalid_flow_data")
	})
}
