package graph_test

import (
	"fmt"
	"testing"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/problem"
)

func wantCode(t *testing.T, r gqlResult, code, typ string) {
	t.Helper()
	if len(r.Errors) == 0 {
		t.Fatalf("no error; data %v", r.Data)
	}
	ext := r.Errors[0]["extensions"].(map[string]any)
	if ext["code"] != code || ext["type"] != typ {
		t.Fatalf("extensions %v, want %s %s", ext, code, typ)
	}
}

func TestGraphQLIssuesAGiftCardWithABalanceAndLooksItUp(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `mutation { issueGiftCard(input: {amount: 2500, recipientName: "Ada"}) { pin giftCard { cardToken balance } } }`, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		issued := r.Data["issueGiftCard"].(map[string]any)
		card := issued["giftCard"].(map[string]any)
		q := fmt.Sprintf(`{ giftCardLookup(cardToken: %q, cardPin: %q) { balance recipientName } }`, card["cardToken"], issued["pin"])
		found := query(t, url, token, q, nil)
		if len(found.Errors) > 0 || found.Data["giftCardLookup"].(map[string]any)["balance"].(float64) != 2500 {
			t.Fatalf("lookup %+v", found)
		}
		wrong := query(t, url, token, fmt.Sprintf(`{ giftCardLookup(cardToken: %q, cardPin: "0000") { balance } }`, card["cardToken"]), nil)
		wantCode(t, wrong, problem.CodeValidation, "gift_card.invalid_card")
	})
}

func TestGraphQLUpdateRSAConfigBeforeCreateIs02_89(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		r := query(t, url, token, `mutation { updateRSAConfig(input: {url: "https://rsa.example.com"}) { url } }`, nil)
		wantCode(t, r, "02-89", "rsa_config.not_configured")
	})
}

func TestGraphQLWebhookNeedsTheSharedSecretFirst(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		create := `mutation { createWebhookSubscription(webhookTopicId: 1, callbackURL: "https://hooks.example.com/a") { id webhookTopicID } }`
		wantCode(t, query(t, url, token, create, nil), problem.CodeValidation, "webhook.shared_secret_not_configured")
		s := query(t, url, token, `mutation { configureSharedSecret(sharedSecret: "abcdefgh1234") { sharedSecretConfigured sharedSecretMasked } }`, nil)
		if s.Data["configureSharedSecret"].(map[string]any)["sharedSecretMasked"] != "****1234" {
			t.Fatalf("secret %+v", s)
		}
		if r := query(t, url, token, create, nil); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	})
}

func TestGraphQLFlowsAndGatewaysGoThroughTheSameRules(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		wantCode(t, query(t, url, token, `mutation { enableFlow(flowId: "nope") { flowID } }`, nil), problem.CodeNotFound, "flow.not_found")
		r := query(t, url, token, `mutation { enableFlow(flowId: "checkoutd-single-page") { flowID } }`, nil)
		if len(r.Errors) > 0 || len(r.Data["enableFlow"].([]any)) != 1 {
			t.Fatalf("enable %+v", r)
		}
		gw := `mutation { createExternalPaymentGateway(input: {name: "Pay", baseURL: "https://pay.example.com", partialCapture: true,
			additionalOrderDetails: false, providerID: "p1", currency: "EURO", apiToken: "tok-12345678"}) { publicID apiTokenMasked } }`
		wantCode(t, query(t, url, token, gw, nil), "02-91", "external_payment_gateway.invalid_external_payment_gateway_data")
	})
}

func TestShopBCannotChangeShopAsGatewayThroughGraphQL(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		tokenA := newShop(t, svc, "shop-a")
		tokenB := newShop(t, svc, "shop-b")
		gw := `mutation { createExternalPaymentGateway(input: {name: "Pay", baseURL: "https://pay.example.com", partialCapture: true,
			additionalOrderDetails: false, providerID: "p1", currency: "EUR"}) { publicID } }`
		r := query(t, url, tokenA, gw, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		id := r.Data["createExternalPaymentGateway"].(map[string]any)["publicID"].(string)
		del := query(t, url, tokenB, fmt.Sprintf(`mutation { deleteExternalPaymentGateway(publicId: %q) }`, id), nil)
		wantCode(t, del, "02-91", "external_payment_gateway.external_payment_gateway_not_configured")
		list := query(t, url, tokenB, `{ shop { externalPaymentGateways { totalCount } } }`, nil)
		if list.Data["shop"].(map[string]any)["externalPaymentGateways"].(map[string]any)["totalCount"].(float64) != 0 {
			t.Fatalf("shop B sees shop A's gateways: %+v", list)
		}
	})
}

func TestGraphQLUpdatesTheShopSettingsLeavingOutTheOnesNotGiven(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		const update = `mutation($in: ShopSettingsInput!) { updateShopSettings(input: $in) { requireBusinessName requirePhoneNumber giftCardsEnabled } }`
		r := query(t, url, token, update, map[string]any{"in": map[string]any{"requireBusinessName": true, "requirePhoneNumber": true}})
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		s := r.Data["updateShopSettings"].(map[string]any)
		if s["requireBusinessName"] != true || s["requirePhoneNumber"] != true || s["giftCardsEnabled"] != false {
			t.Fatalf("settings %v", s)
		}
		r = query(t, url, token, update, map[string]any{"in": map[string]any{"requirePhoneNumber": false}})
		if s := r.Data["updateShopSettings"].(map[string]any); s["requireBusinessName"] != true || s["requirePhoneNumber"] != false {
			t.Fatalf("settings after leaving one out %v", s)
		}
	})
}
