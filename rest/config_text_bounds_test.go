package rest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent/flow"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/shops"
)

func TestOverLongStoreConfigurationTextsAre422AndNothingIsStored(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n+1) }
	longURL := func(n int) string { return "https://shop.example.com/" + long(n-len("https://shop.example.com/")) }
	with := func(base map[string]any, field string, value any) map[string]any {
		out := map[string]any{}
		for k, v := range base {
			out[k] = v
		}
		out[field] = value
		return out
	}
	headers := func(n int, key, value string) []map[string]string {
		out := make([]map[string]string, n)
		for i := range out {
			out[i] = map[string]string{"key": key, "value": value}
		}
		return out
	}
	override := map[string]any{"override_type": "tax", "url": "https://tax.example.com", "shared_secret": "s"}
	rsa := map[string]any{"url": "https://rsa.example.com", "shared_secret": "s"}
	cases := []struct {
		name, path, typ string
		body            any
	}{
		{"cors domain", "/cors", "request.text_too_long", map[string]any{"domain": longURL(input.MaxURLText)}},
		{"life element input_label", "/life_elements", "life_element.invalid_life_element_data", with(lifeElement(), "input_label", long(input.MaxShortText))},
		{"life element input_placeholder", "/life_elements", "life_element.invalid_life_element_data", with(lifeElement(), "input_placeholder", long(input.MaxShortText))},
		{"life element input_default", "/life_elements", "life_element.invalid_life_element_data", with(lifeElement(), "input_default", long(input.MaxLongText))},
		{"life element meta_data_field", "/life_elements", "life_element.invalid_life_element_data", with(lifeElement(), "meta_data_field", long(input.MaxShortText))},
		{"life element input_regex", "/life_elements", "life_element.invalid_life_element_data", with(lifeElement(), "input_regex", long(shops.MaxRegexText))},
		{"life element input_regex that writes out too large", "/life_elements", "life_element.invalid_life_element_data",
			with(lifeElement(), "input_regex", strings.Repeat(`\pL{1,1000}`, 11))},
		{"gateway name", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data", with(gateway(), "name", long(input.MaxShortText))},
		{"gateway base_url", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data", with(gateway(), "base_url", longURL(input.MaxURLText))},
		{"gateway iframe_url", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data", with(gateway(), "iframe_url", longURL(input.MaxURLText))},
		{"gateway location", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data", with(gateway(), "location", long(input.MaxShortText))},
		{"gateway api_token", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data", with(gateway(), "api_token", long(input.MaxSecretText))},
		{"gateway provider_id", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data", with(gateway(), "provider_id", long(input.MaxShortText))},
		{"gateway http_headers count", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data",
			with(gateway(), "http_headers", headers(shops.MaxGatewayHTTPHeaders+1, "X-A", "v"))},
		{"gateway http_headers key", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data",
			with(gateway(), "http_headers", headers(1, long(input.MaxShortText), "v"))},
		{"gateway http_headers value", "/external_payment_gateways", "external_payment_gateway.invalid_external_payment_gateway_data",
			with(gateway(), "http_headers", headers(1, "X-A", long(input.MaxSecretText)))},
		{"integration shared_secret", "/integration/config", "integration.invalid_shared_secret", map[string]any{"shared_secret": long(input.MaxSecretText)}},
		{"API override url", "/overrides", "api_override.invalid_api_override_data", with(override, "url", longURL(input.MaxURLText))},
		{"API override shared_secret", "/overrides", "api_override.invalid_api_override_data", with(override, "shared_secret", long(input.MaxSecretText))},
		{"rsa_config url", "/rsa_config", "rsa_config.invalid_rsa_config", with(rsa, "url", longURL(input.MaxURLText))},
		{"rsa_config shared_secret", "/rsa_config", "rsa_config.invalid_rsa_config", with(rsa, "shared_secret", long(input.MaxSecretText))},
		{"custom flow flow_name", "/flows", "flow.invalid_flow_data", map[string]any{"flow_id": "my-flow", "flow_name": long(input.MaxShortText)}},
	}
	eachAPI(t, func(t *testing.T, a *api) {
		for _, c := range cases {
			e := a.do("POST", a.shopPath(c.path), c.body).wantError(t, 422, "", c.typ)
			if !strings.Contains(e["message"].(string), "longer than") && !strings.Contains(e["message"].(string), "more than") {
				t.Fatalf("%s: message %q does not give the bound", c.name, e["message"])
			}
		}
		// The webhook needs the shared secret first; its callback_url is then the text too long.
		a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": hookSecret}).wantStatus(t, 200)
		a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": 1, "callback_url": longURL(input.MaxURLText)}).
			wantError(t, 422, "", "webhook.invalid_callback_url")

		ctx, c := context.Background(), a.svc.Client()
		stored := map[string]int{
			"cors domains": c.CorsDomain.Query().CountX(ctx), "life elements": c.LifeElement.Query().CountX(ctx),
			"gateways": c.ExternalPaymentGateway.Query().CountX(ctx), "API overrides": c.APIOverride.Query().CountX(ctx),
			"rsa configs": c.RSAConfig.Query().CountX(ctx), "webhooks": c.WebhookSubscription.Query().CountX(ctx),
			"custom flows": c.Flow.Query().Where(flow.FlowType("custom")).CountX(ctx),
		}
		for what, n := range stored {
			if n != 0 {
				t.Errorf("%d %s stored from over-long texts", n, what)
			}
		}
		if sh := c.Shop.Query().OnlyX(ctx); sh.SharedSecret != hookSecret {
			t.Errorf("shared secret %v, want the one set after the over-long one was refused", sh.SharedSecret)
		}
	})
}

// The longest texts within the bounds are taken, so that the bounds are the documented ones.
func TestStoreConfigurationTextsAtTheirBoundsAreTaken(t *testing.T) {
	exactly := func(n int) string { return strings.Repeat("é", n) } // counted in characters, not bytes
	eachAPI(t, func(t *testing.T, a *api) {
		el := lifeElement()
		el["input_label"], el["input_default"], el["input_regex"] = exactly(input.MaxShortText), exactly(input.MaxLongText), exactly(shops.MaxRegexText)
		a.do("POST", a.shopPath("/life_elements"), el).wantStatus(t, 200)
		g := gateway()
		g["name"], g["api_token"] = exactly(input.MaxShortText), exactly(input.MaxSecretText)
		g["http_headers"] = []map[string]string{{"key": "X-" + strings.Repeat("a", input.MaxShortText-2), "value": exactly(input.MaxSecretText)}}
		a.do("POST", a.shopPath("/external_payment_gateways"), g).wantStatus(t, 200)
		a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": exactly(input.MaxSecretText)}).wantStatus(t, 200)
	})
}
