package rest_test

import "testing"

func TestWalletPayIs422WhileNoWalletGatewayIsConfigured(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		for _, step := range []string{"create_order", "on_shipping", "on_approve"} {
			body := map[string]any{"gateway_type": "paypal", "payment_data": map[string]any{"locale": "en"}}
			e := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/wallet_pay/"+step, body).wantError(t, 422, "", "wallet_pay.not_configured")
			if e["sub_type"] != "payment" || e["details"].(map[string]any)["step"] != step {
				t.Fatalf("%s: %v", step, e)
			}
		}
	})
}

func TestDeleteSavedPaymentMethodIs422SinceNoneIsSaved(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		e := storefront(t, a, jwt, "DELETE", "/checkout/storefront/"+a.shop+"/"+id+"/payments/saved/pm_123", nil).wantError(t, 422, "", "saved_payment_method.not_found")
		if e["details"].(map[string]any)["id"] != "pm_123" {
			t.Fatalf("error %v", e)
		}
	})
}
