package rest_test

import "testing"

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
