package graph_test

import (
	"testing"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/problem"
)

// The storefront's payment calls beyond tenders: the payment page, its styles, wallets and saved
// payment methods, each answering (or refusing) as REST does.

func TestPaymentIframeListsTheGatewaysOfTheOrdersCurrencyAndTheOriginsOfItsPage(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		gw := gatewaytest.New(t, "gw-api-token")
		create := `mutation($in: ExternalPaymentGatewayInput!) { createExternalPaymentGateway(input: $in) { publicID } }`
		gateway := func(name, currency, iframeURL string) string {
			in := map[string]any{"name": name, "baseURL": gw.URL, "apiToken": "gw-api-token", "partialCapture": true, "additionalOrderDetails": false,
				"providerID": gatewaytest.ProviderID, "currency": currency, "location": "payment", "iframeURL": iframeURL}
			return get(g.ok(g.token, create, map[string]any{"in": in}), "createExternalPaymentGateway", "publicID").(string)
		}
		card := gateway("Cards", "USD", "https://pay.example.com/frame?x=1")
		gateway("Euro cards", "EUR", "https://eu.example.com/frame")
		g.ok(g.token, `mutation { addCorsDomain(domain: "https://shop.example.com") { domain } }`, nil)
		id, jwtToken := g.init(g.token)
		q := `query($id: String!) { paymentIframe(publicOrderId: $id) {
			publicOrderID currency gateways { publicID name iframeURL location } frameSources frameAncestors } }`
		page := get(g.ok(jwtToken, q, map[string]any{"id": id}), "paymentIframe")
		if get(page, "publicOrderID") != id || get(page, "currency") != "USD" || len(get(page, "gateways").([]any)) != 1 ||
			get(page, "gateways", 0, "publicID") != card || get(page, "gateways", 0, "name") != "Cards" ||
			get(page, "gateways", 0, "iframeURL") != "https://pay.example.com/frame?x=1" || get(page, "gateways", 0, "location") != "payment" {
			t.Fatalf("page %v", page)
		}
		if len(get(page, "frameSources").([]any)) != 1 || get(page, "frameSources", 0) != "https://pay.example.com" ||
			len(get(page, "frameAncestors").([]any)) != 1 || get(page, "frameAncestors", 0) != "https://shop.example.com" {
			t.Fatalf("origins %v %v", get(page, "frameSources"), get(page, "frameAncestors"))
		}
	})
}

func TestCheckPaymentIframeStylesAnswersTheSheetBackAndRefusesOneOverTheBound(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		q := `query($id: String!, $sheet: PaymentIframeStylesInput!) { checkPaymentIframeStyles(publicOrderId: $id, styleSheet: $sheet) {
			cssRules { cssText } mediaRules { conditionText cssRules { cssText } } } }`
		sheet := map[string]any{"cssRules": []any{map[string]any{"cssText": "body { color: #222 }"}},
			"mediaRules": []any{map[string]any{"conditionText": "(max-width: 600px)", "cssRules": []any{map[string]any{"cssText": "body { padding: 0 }"}}}}}
		back := get(g.ok(jwtToken, q, map[string]any{"id": id, "sheet": sheet}), "checkPaymentIframeStyles")
		if get(back, "cssRules", 0, "cssText") != "body { color: #222 }" || get(back, "mediaRules", 0, "conditionText") != "(max-width: 600px)" ||
			get(back, "mediaRules", 0, "cssRules", 0, "cssText") != "body { padding: 0 }" {
			t.Fatalf("sheet answered %v", back)
		}
		if empty := get(g.ok(jwtToken, q, map[string]any{"id": id, "sheet": map[string]any{}}), "checkPaymentIframeStyles"); len(get(empty, "cssRules").([]any)) != 0 ||
			len(get(empty, "mediaRules").([]any)) != 0 {
			t.Fatalf("an empty sheet answered %v", empty)
		}
		rules := make([]any, orders.MaxPaymentIframeStyleRules)
		for i := range rules {
			rules[i] = map[string]any{"cssText": "p{}"}
		}
		over := map[string]any{"cssRules": rules, "mediaRules": []any{map[string]any{"conditionText": "print", "cssRules": []any{map[string]any{"cssText": "p{}"}}}}}
		wantCode(t, g.do(jwtToken, q, map[string]any{"id": id, "sheet": over}), problem.CodeValidation, "payment_iframe.too_many_style_rules")
	})
}

func TestWalletPayIsRefusedAsOnRESTWhileAShopHasNoWalletGateway(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		q := `mutation($id: String!, $step: WalletPayStep!) { walletPay(publicOrderId: $id, step: $step, input: {gatewayType: "paypal", paymentData: {a: 1}}) {
			paymentData view { publicOrderID } } }`
		for _, step := range []string{orders.WalletPayCreateOrder, orders.WalletPayOnShipping, orders.WalletPayOnApprove} {
			r := g.do(jwtToken, q, map[string]any{"id": id, "step": step})
			wantCode(t, r, problem.CodeValidation, "wallet_pay.not_configured")
			if get(r.Errors[0], "extensions", "details", "step") != step || get(r.Errors[0], "extensions", "details", "gateway_type") != "paypal" {
				t.Fatalf("extensions %v", r.Errors[0]["extensions"])
			}
		}
		if r := g.do(jwtToken, q, map[string]any{"id": id, "step": "refund_everything"}); len(r.Errors) == 0 || r.Data != nil && get(r.Data, "walletPay") != nil {
			t.Fatalf("a step REST has no route for answered %v", r)
		}
	})
}

func TestDeleteSavedPaymentMethodIsRefusedSinceNothingIsVaulted(t *testing.T) {
	eachOrderGraph(t, func(t *testing.T, g *orderGraph) {
		id, jwtToken := g.init(g.token)
		r := g.do(jwtToken, `mutation($id: String!) { deleteSavedPaymentMethod(publicOrderId: $id, id: "pm-1") { publicOrderID } }`, map[string]any{"id": id})
		wantCode(t, r, problem.CodeValidation, "saved_payment_method.not_found")
		if get(r.Errors[0], "extensions", "details", "id") != "pm-1" {
			t.Fatalf("extensions %v", r.Errors[0]["extensions"])
		}
	})
}
