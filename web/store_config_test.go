package web_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

func TestPaymentGatewaysAreCreatedTestedEditedAndDeletedWithoutShowingTheToken(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		gw := gatewaytest.New(t, "gw-secret-token-7788")
		c.signIn()
		c.visit("/admin/payment-gateways")
		c.submitAndWait("#new-gateway", "#gateway-form")
		c.fill(map[string]string{"name": "Test Pay", "base_url": gw.URL, "provider_id": gatewaytest.ProviderID, "currency": "US", "api_token": "gw-secret-token-7788"})
		c.submitAndWait("#submit", "#currency-error")
		c.wantText("#currency-error", "3 characters")
		if c.value("#api_token") != "" {
			t.Fatal("the api_token was shown back in the form")
		}
		c.fill(map[string]string{"currency": "USD", "api_token": "gw-secret-token-7788"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#gateways", "Test Pay")
		c.wantText("#gateways", "****7788")
		c.wantNoText("main", "gw-secret-token")

		c.swapAndWait("#gateways button.test-connection", ".connection-result")
		c.wantText(".connection-result", "Connected")
		if calls := gw.Calls("/void"); len(calls) != 1 {
			t.Fatalf("the gateway received %d signed test calls, want 1", len(calls))
		}

		c.submitAndWait("#gateways a.edit", "#gateway-form")
		c.wantText("#current-token", "****7788")
		c.fill(map[string]string{"name": "Test Pay EU", "http_headers": "X-Shop: a"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#gateways", "Test Pay EU")
		gws, err := c.svc.Shops.ExternalPaymentGateways(context.Background(), c.shopEntity())
		if err != nil || len(gws) != 1 || gws[0].APIToken != "gw-secret-token-7788" || len(gws[0].HTTPHeaders) != 1 {
			t.Fatalf("after an edit with a blank token the gateway is %+v (%v); the token must be kept", gws, err)
		}

		c.submitAndWait("#gateways a.delete", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No external payment gateways yet")
	})
}

func TestCheckoutFlowsAreRegisteredEnabledAndDisabled(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/flows")
		c.fill(map[string]string{"flow_id": "bad id!", "flow_name": "Mine"})
		c.submitAndWait("#submit", "#flow_id-error")
		c.wantText("#flow_id-error", "letters, digits")
		c.fill(map[string]string{"flow_id": "my-flow", "flow_name": "My flow"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#available-flows", "My flow")
		c.submitAndWait(`#available-flows button[data-flow="my-flow"]`, "#flash")
		c.wantText("#enabled-flows", "My flow")
		c.submitAndWait(`#enabled-flows button[data-flow="my-flow"]`, "#flash")
		c.wantText("#available-flows", "My flow")
		c.wantText("main", "No flow is enabled")
	})
}

func TestWebhooksNeedTheSharedSecretAndAreCreatedEditedAndDeleted(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/webhooks")
		c.wantText("#no-secret", "set it")
		c.fill(map[string]string{"webhook_topic_id": "1", "callback_url": "https://hooks.example.com/processed"})
		c.submitAndWait("#submit", "#form-error")
		c.wantText("#form-error", "shared secret")

		c.visit("/admin/integration")
		c.wantText("#shared-secret", "Not set")
		c.submitAndWait("#submit", "#shared_secret-error")
		c.wantText("#shared_secret-error", "shared_secret is required")
		c.fill(map[string]string{"shared_secret": "whsec-very-secret-9911"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#shared-secret", "****9911")
		c.wantNoText("main", "whsec-very-secret")

		c.visit("/admin/webhooks")
		c.fill(map[string]string{"webhook_topic_id": "1", "callback_url": "ftp://hooks.example.com"})
		c.submitAndWait("#submit", "#callback_url-error")
		c.wantText("#callback_url-error", "http or https")
		c.fill(map[string]string{"webhook_topic_id": "1", "callback_url": "https://hooks.example.com/processed"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#webhooks", "order/processed")

		c.submitAndWait("#webhooks a.edit", "#webhook-form")
		c.fill(map[string]string{"callback_url": "https://hooks.example.com/v2"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#webhooks", "https://hooks.example.com/v2")

		c.submitAndWait("#webhooks a.delete", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No subscriptions yet")
	})
}

func TestTheRemoteStateAuthorityIsSetChangedAndRemoved(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/remote-state-authority")
		c.fill(map[string]string{"url": "ftp://rsa.example.com", "shared_secret": "rsa-secret-1234"})
		c.submitAndWait("#submit", "#url-error")
		c.fill(map[string]string{"url": "https://rsa.example.com", "shared_secret": "rsa-secret-1234"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#rsa-current", "****1234")
		c.fill(map[string]string{"url": "https://rsa2.example.com"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#rsa-current", "https://rsa2.example.com")
		c.wantText("#rsa-current", "****1234")
		c.submitAndWait("#remove-rsa", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		if rsa, err := c.svc.Shops.RSAConfig(context.Background(), c.shopEntity()); err != nil || rsa != nil {
			t.Fatalf("remote state authority after removal: %v %v", rsa, err)
		}
	})
}

func TestCorsDomainsAreAllowedAndRemoved(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/cors")
		c.fill(map[string]string{"domain": "shop.example.com"})
		c.submitAndWait("#submit", "#domain-error")
		c.wantText("#domain-error", "protocol and host")
		c.fill(map[string]string{"domain": "https://Shop.Example.com/"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#domains", "https://shop.example.com")
		c.submitAndWait("#domains a.delete", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No domain is allowed yet")
	})
}

func TestAPIOverridesAreCreatedEditedAndDeleted(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/api-overrides")
		c.submitAndWait("#new-override", "#override-form")
		c.fill(map[string]string{"override_type": "", "url": "https://tax.example.com", "shared_secret": "ovr-secret-5566"})
		c.submitAndWait("#submit", "#override_type-error")
		c.wantText("#override_type-error", "is required")
		c.fill(map[string]string{"override_type": "tax", "shared_secret": "ovr-secret-5566"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#overrides", "****5566")
		c.submitAndWait("#overrides a.edit", "#override-form")
		c.fill(map[string]string{"url": "https://tax2.example.com"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#overrides", "https://tax2.example.com")
		c.wantText("#overrides", "****5566")
		c.submitAndWait("#overrides a.delete", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("main", "No overrides")
	})
}

func TestGiftCardsAreIssuedLookedUpAndListedWithTheirBalance(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/gift-cards")
		c.fill(map[string]string{"amount": "twenty"})
		c.submitAndWait("#issue", "#amount-error")
		c.fill(map[string]string{"amount": "25.00", "card_token": "GIFT-0001", "pin": "4321", "recipient_name": "Ada"})
		c.submitAndWait("#issue", "#issued")
		c.wantText("#issued-pin", "4321")
		c.wantText("#gift-cards", "$25.00")
		c.fill(map[string]string{"lookup_card_token": "GIFT-0001", "card_pin": "0000"})
		c.submitAndWait("#lookup", "#form-error")
		c.wantText("#form-error", "no gift card matches")
		c.fill(map[string]string{"lookup_card_token": "GIFT-0001", "card_pin": "4321"})
		c.submitAndWait("#lookup", "#found-card")
		c.wantText("#found-card .balance", "$25.00")
	})
}
