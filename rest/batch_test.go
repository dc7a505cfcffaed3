package rest_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent/order"
)

func TestBatchRunsSubRequestsInOrderWithTheirOwnStatus(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		body := map[string]any{"sub_requests": []map[string]any{
			{"method": "POST", "endpoint": "/customer/guest", "payload": guest()},
			{"method": "POST", "endpoint": "/customer/guest", "payload": `{"first_name":"A","last_name":"B","email_address":"a@example.com"}`},
			{"method": "POST", "endpoint": "/addresses/shipping", "payload": usAddress()},
			{"method": "GET", "endpoint": "/refresh", "payload": nil},
		}}
		r := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/batch", body).wantStatus(t, 200)
		results := r.Body["data"].([]any)
		want := []float64{200, 422, 200, 200}
		for i, res := range results {
			m := res.(map[string]any)
			if m["status_code"].(float64) != want[i] {
				t.Fatalf("sub-request %d: %v", i, m)
			}
		}
		if results[0].(map[string]any)["endpoint"] != "/customer/guest" {
			t.Fatalf("endpoint %v", results[0])
		}
		state := results[3].(map[string]any)["data"].(map[string]any)["application_state"].(map[string]any)
		if state["customer"].(map[string]any)["first_name"] != "Ada" {
			t.Fatalf("state after batch %v", state["customer"])
		}
	})
}

func TestLogIsAccepted(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/log", map[string]any{"message": "hi", "level": "info"}).wantStatus(t, 200)
	})
}

func TestBatchAnswersTheOrderStateAfterItsLastSubRequestAtTheTopLevel(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		first, second := guest(), guest()
		first["last_name"], second["last_name"] = "Byron", "King"
		body := map[string]any{"sub_requests": []map[string]any{
			{"method": "POST", "endpoint": "/customer/guest", "payload": first},
			{"method": "PUT", "endpoint": "/customer", "payload": second},
		}}
		r := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/batch", body).wantStatus(t, 200)
		state, ok := r.Body["application_state"].(map[string]any)
		if !ok {
			t.Fatalf("no top-level application_state: %s", r.Raw)
		}
		if state["customer"].(map[string]any)["last_name"] != "King" {
			t.Fatalf("top-level state is not the last one: %v", state["customer"])
		}
	})
}

// subResults runs a batch and answers each sub-request's status and error type ("" when none).
func subResults(t *testing.T, a *api, id, jwt string, subs []map[string]any) ([]float64, []string) {
	t.Helper()
	r := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/batch", map[string]any{"sub_requests": subs}).wantStatus(t, 200)
	results := r.Body["data"].([]any)
	if len(results) != len(subs) {
		t.Fatalf("%d results for %d sub-requests: %s", len(results), len(subs), r.Raw)
	}
	statuses, types := make([]float64, len(results)), make([]string, len(results))
	for i, res := range results {
		m := res.(map[string]any)
		statuses[i] = m["status_code"].(float64)
		if d, ok := m["data"].(map[string]any); ok {
			if errs, ok := d["errors"].([]any); ok {
				e := errs[0].(map[string]any)
				for _, k := range []string{"code", "type", "message", "details"} {
					if _, ok := e[k]; !ok {
						t.Fatalf("sub-request %d error lacks %s: %v", i, k, e)
					}
				}
				types[i] = e["type"].(string)
			}
		}
	}
	return statuses, types
}

// The endpoint is decoded and cleaned once, before any check: /%62atch is /batch.
func TestBatchInsideABatchIsRefusedHoweverItIsWritten(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		inner := map[string]any{"sub_requests": []map[string]any{{"method": "GET", "endpoint": "/refresh"}}}
		var subs []map[string]any
		for _, e := range []string{"/batch", "batch", "/%62atch", "/%62%61%74%63%68", "/b%61tch", "/batch/"} {
			subs = append(subs, map[string]any{"method": "POST", "endpoint": e, "payload": inner})
		}
		statuses, types := subResults(t, a, id, jwt, subs)
		for i := range subs[:5] {
			if statuses[i] != 422 || types[i] != "batch.nested" {
				t.Fatalf("sub-request %v: %v %v", subs[i]["endpoint"], statuses[i], types[i])
			}
		}
		if statuses[5] != 422 || types[5] != "batch.nested" {
			t.Fatalf("/batch/: %v %v", statuses[5], types[5])
		}
	})
}

// Non-canonical endpoints are refused in the sub-response, so a sub-request never leaves its
// order's storefront prefix; a query string is taken on GET only.
func TestBatchSubRequestEndpointMustBeCanonicalAndStayInItsOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		other, _, _ := initOrder(t, a)
		cases := []struct {
			method, endpoint string
			status           float64
			typ              string
		}{
			{"POST", "/../" + other + "/customer/guest", 400, "request.non_canonical_path"},
			{"POST", "/../../shop-b/" + other + "/customer/guest", 400, "request.non_canonical_path"},
			{"POST", "/%2e%2e/" + other + "/customer/guest", 400, "request.non_canonical_path"},
			{"POST", "/customer%2F..%2F..%2F" + other + "%2Fcustomer%2Fguest", 400, "request.non_canonical_path"},
			{"POST", "//customer/guest", 400, "request.non_canonical_path"},
			{"POST", "/./customer/guest", 400, "request.non_canonical_path"},
			{"POST", "/customer/guest/.", 400, "request.non_canonical_path"},
			{"POST", "/customer/guest?x=1", 422, "batch.invalid_sub_request"},
			{"POST", "/customer/guest#x", 422, "batch.invalid_sub_request"},
			{"POST", "/customer/%zzguest", 422, "batch.invalid_sub_request"},
			{"POST", "/customer/%00guest", 422, "batch.invalid_sub_request"},
			{"POST", "/customer/%ffguest", 422, "batch.invalid_sub_request"},
			{"OPTIONS", "/customer/guest", 422, "batch.invalid_sub_request"},
			{"CONNECT", "/customer/guest", 422, "batch.invalid_sub_request"},
			{"POST BAD", "/customer/guest", 422, "batch.invalid_sub_request"},
			{"GET", "/validate_email_address?email_address=%zz", 422, "batch.invalid_sub_request"},
			{"GET", "/nothing-here", 404, "route.not_found"},
		}
		var subs []map[string]any
		for _, c := range cases {
			subs = append(subs, map[string]any{"method": c.method, "endpoint": c.endpoint, "payload": guest()})
		}
		statuses, types := subResults(t, a, id, jwt, subs)
		for i, c := range cases {
			if statuses[i] != c.status || types[i] != c.typ {
				t.Errorf("%s %s: %v %q, want %v %q", c.method, c.endpoint, statuses[i], types[i], c.status, c.typ)
			}
		}
		for _, public := range []string{id, other} {
			o, err := a.svc.Client().Order.Query().Where(order.PublicOrderID(public)).Only(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if o.Customer != nil || o.Version != 1 {
				t.Fatalf("order %s changed through refused sub-requests: version %d, customer %v", public, o.Version, o.Customer)
			}
		}
		statuses, _ = subResults(t, a, id, jwt, []map[string]any{
			{"method": "get", "endpoint": "/validate_email_address?email_address=ada%40example.com"},
			{"method": "POST", "endpoint": "customer/guest", "payload": guest()},
			{"method": "GET", "endpoint": "/%72efresh"},
		})
		if statuses[0] != 200 || statuses[1] != 200 || statuses[2] != 200 {
			t.Fatalf("canonical sub-requests: %v", statuses)
		}
	})
}

// Every sub-request authenticates with the JWT that opened the batch, never one it carries.
func TestBatchSubRequestsRunWithTheBatchsOwnJWT(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, _, _ := initOrder(t, a)
		_, otherJWT, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/batch"
		body := []byte(`{"sub_requests":[{"method":"GET","endpoint":"/refresh?token=` + otherJWT + `"}]}`)
		a.send("", "POST", path+"?token="+otherJWT, "application/json", body, false).wantError(t, 401, "", "auth.unauthorized")
	})
}

func TestBatchOfMoreThan50SubRequestsIsRefused(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		subs := make([]map[string]any, 51)
		for i := range subs {
			subs[i] = map[string]any{"method": "GET", "endpoint": "/refresh"}
		}
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/batch", map[string]any{"sub_requests": subs}).
			wantError(t, 422, "", "batch.invalid_sub_requests")
	})
}
