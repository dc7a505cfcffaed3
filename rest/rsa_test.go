package rest_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/rsa"
)

// newTestRSA is a remote state authority that checks signatures, sets the addresses it is sent,
// adds a 2.50 handling fee, and refuses PO boxes.
func newTestRSA(t *testing.T, secret string) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /shops/{shop}/orders/{id}/validate_address", func(w http.ResponseWriter, r *http.Request) {
		var a rsa.Address
		_ = json.NewDecoder(r.Body).Decode(&a)
		if strings.Contains(a.AddressLine1, "PO Box") {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"message":"no deliveries to PO boxes"}`))
			return
		}
		_, _ = w.Write([]byte(`{}`))
	})
	mux.HandleFunc("POST /shops/{shop}/orders/{id}/validate_inventory", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{}`)) })
	mux.HandleFunc("POST /shops/{shop}/orders/{id}/process_order_events", func(w http.ResponseWriter, r *http.Request) {
		var body rsa.ProcessOrderEvents
		dec := json.NewDecoder(r.Body)
		dec.UseNumber()
		if err := dec.Decode(&body); err != nil {
			http.Error(w, `{"message":"unreadable"}`, http.StatusBadRequest)
			return
		}
		st := body.OrderState
		for _, ev := range body.Events {
			switch ev.EventName {
			case "set_shipping_address":
				raw, _ := json.Marshal(ev.Data)
				_ = json.Unmarshal(raw, &st.ShippingAddress)
			case "get_shipping_lines":
				st.ShippingOptions = []rsa.ShippingOption{{RateName: "Courier", Cost: "7.00", Code: "courier"}}
			}
		}
		st.Fees = []rsa.Fee{{Description: "Handling", Value: "2.50"}}
		_ = json.NewEncoder(w).Encode(st)
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hmacsig.Verify(r.Header, []byte(secret), time.Now()) != nil {
			http.Error(w, `{"message":"bad signature"}`, http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestStorefrontChangesGoThroughTheShopsRemoteStateAuthority(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		srv := newTestRSA(t, "rsa-secret-1234")
		a.do("POST", a.shopPath("/rsa_config"), map[string]any{"url": srv.URL, "shared_secret": "rsa-secret-1234"}).wantStatus(t, 200)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/addresses/shipping", usAddress()).wantStatus(t, 200))
		if state["order_total"].(float64) != 4500+250 || len(state["fees"].([]any)) != 1 {
			t.Fatalf("total %v, fees %v; want the RSA's fee in the total", state["order_total"], state["fees"])
		}
		po := usAddress()
		po["address_line_1"] = "PO Box 12"
		e := storefront(t, a, jwt, "POST", base+"/addresses/shipping", po).wantError(t, 422, "02-22", "rsa.address_refused")
		if !strings.Contains(e["message"].(string), "no deliveries to PO boxes") {
			t.Fatalf("refusal %v, want the RSA's reason", e)
		}
		a.do("DELETE", a.shopPath("/rsa_config"), nil).wantStatus(t, 200)
		state = stateOf(t, storefront(t, a, jwt, "POST", base+"/addresses/shipping", po).wantStatus(t, 200))
		if state["order_total"].(float64) != 4500 {
			t.Fatalf("total %v after the RSA was deleted, want the built-in 4500", state["order_total"])
		}
	})
}

func TestGetShippingLinesAsksTheShopsRemoteStateAuthority(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		srv := newTestRSA(t, "rsa-secret-1234")
		a.do("POST", a.shopPath("/rsa_config"), map[string]any{"url": srv.URL, "shared_secret": "rsa-secret-1234"}).wantStatus(t, 200)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", usAddress()).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "GET", base+"/shipping_lines", nil).wantStatus(t, 200))
		lines, _ := state["shipping"].(map[string]any)["available_shipping_lines"].([]any)
		if len(lines) != 1 || lines[0].(map[string]any)["code"] != "courier" || lines[0].(map[string]any)["amount"].(float64) != 700 {
			t.Fatalf("available shipping lines %v, want the RSA's answer to get_shipping_lines", lines)
		}
	})
}
