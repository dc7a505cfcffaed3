package rest_test

import (
	"strings"
	"testing"
)

func gateway() map[string]any {
	return map[string]any{
		"name": "Test Pay", "base_url": "https://pay.example.com/epg", "iframe_url": nil, "location": "payment_gateway",
		"http_headers": []map[string]string{{"key": "X-Merchant", "value": "m-1"}}, "api_token": "tok-abcdef-9876",
		"partial_capture": true, "additional_order_details": false, "provider_id": "prov-1", "currency": "USD",
	}
}

func TestCreateExternalPaymentGatewayMasksTheAPIToken(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		r := a.do("POST", a.shopPath("/external_payment_gateways"), gateway()).wantStatus(t, 200)
		if strings.Contains(r.Raw, "tok-abcdef") {
			t.Fatalf("api_token returned in full: %s", r.Raw)
		}
		g := r.data(t)["external_payment_gateway"].(map[string]any)
		if g["public_id"] == "" || g["api_token"] != "****9876" || g["http_headers"].([]any)[0].(map[string]any)["key"] != "X-Merchant" {
			t.Fatalf("gateway %v", g)
		}
	})
}

func TestGatewayHTTPHeadersMayBeNull(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := gateway()
		body["http_headers"] = nil
		a.do("POST", a.shopPath("/external_payment_gateways"), body).wantStatus(t, 200)
		list := a.do("GET", a.shopPath("/external_payment_gateways"), nil).wantStatus(t, 200).data(t)["external_payment_gateways"].([]any)
		if len(list) != 1 || list[0].(map[string]any)["http_headers"] != nil {
			t.Fatalf("list %v", list)
		}
	})
}

func TestGatewayMissingRequiredFieldIs422_02_91(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for _, field := range []string{"name", "base_url", "partial_capture", "additional_order_details", "provider_id", "currency"} {
			body := gateway()
			delete(body, field)
			e := a.do("POST", a.shopPath("/external_payment_gateways"), body).
				wantError(t, 422, "02-91", "external_payment_gateway.invalid_external_payment_gateway_data")
			if e["details"].(map[string]any)[field] == nil {
				t.Fatalf("details do not name %s: %v", field, e)
			}
		}
	})
}

func TestGatewayCurrencyMustBeExactly3Characters(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for _, c := range []string{"US", "USDX", ""} {
			body := gateway()
			body["currency"] = c
			a.do("POST", a.shopPath("/external_payment_gateways"), body).wantError(t, 422, "02-91", "")
		}
	})
}

func TestUpdateGatewayTakesTheSameRequiredFieldsAndKeepsTheToken(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		g := a.do("POST", a.shopPath("/external_payment_gateways"), gateway()).wantStatus(t, 200).data(t)["external_payment_gateway"].(map[string]any)
		path := a.shopPath("/external_payment_gateways/" + g["public_id"].(string))
		a.do("PATCH", path, map[string]any{"name": "Renamed"}).wantError(t, 422, "02-91", "")
		body := gateway()
		delete(body, "api_token")
		body["name"] = "Renamed"
		up := a.do("PATCH", path, body).wantStatus(t, 200).data(t)["external_payment_gateway"].(map[string]any)
		if up["name"] != "Renamed" || up["api_token"] != "****9876" {
			t.Fatalf("updated %v", up)
		}
		a.do("DELETE", path, nil).wantStatus(t, 200)
		a.do("DELETE", path, nil).wantError(t, 422, "02-91", "")
	})
}
