package web_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
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

// An override's failure policy and timeout are saved as REST saves them: a policy left to the
// type is the type's default, and a timeout out of 100..10000 is refused next to its field
// with nothing saved, on a new override and on an edit.
func TestAnOverridesFailurePolicyAndTimeoutAreSavedAndATimeoutOutOfBoundsIsRefused(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		ctx := context.Background()
		stored := func() []*ent.APIOverride {
			t.Helper()
			all, err := c.svc.Shops.APIOverrides(ctx, c.shopEntity())
			if err != nil {
				t.Fatal(err)
			}
			return all
		}
		c.signIn()
		c.visit("/admin/api-overrides/new")
		c.wantText("#failure_policy-hint", "Left to its type, a new override gets refuse for shipping, discount and tax, and fallback for address_validate and inventory.")
		if got := c.value("#timeout_ms"); got != "2000" {
			t.Fatalf("a new override's timeout field holds %q, want the default 2000", got)
		}
		c.fill(map[string]string{"override_type": "shipping", "url": "https://ship.example.com", "shared_secret": "ovr-secret-7788",
			"failure_policy": "fallback", "timeout_ms": "50"})
		c.submitAndWait("#submit", "#timeout_ms-error")
		c.wantText("#timeout_ms-error", "must be from 100 to 10000")
		if got := c.value("#failure_policy"); got != "fallback" {
			t.Fatalf("the refused form lost its failure policy: %q", got)
		}
		if n := len(stored()); n != 0 {
			t.Fatalf("%d overrides saved from a refused form", n)
		}

		c.fill(map[string]string{"shared_secret": "ovr-secret-7788", "timeout_ms": "3500"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#overrides", "fallback")
		c.wantText("#overrides", "3500 ms")
		if o := stored(); len(o) != 1 || o[0].FailurePolicy != "fallback" || o[0].TimeoutMs != 3500 {
			t.Fatalf("saved: %+v", o)
		}

		c.submitAndWait("#overrides a.edit", "#override-form")
		if got, timeout := c.value("#failure_policy"), c.value("#timeout_ms"); got != "fallback" || timeout != "3500" {
			t.Fatalf("the edit form shows %q and %q", got, timeout)
		}
		c.fill(map[string]string{"failure_policy": "refuse", "timeout_ms": "50"})
		c.submitAndWait("#submit", "#timeout_ms-error")
		if o := stored(); o[0].FailurePolicy != "fallback" || o[0].TimeoutMs != 3500 {
			t.Fatalf("a refused edit changed the override: %+v", o[0])
		}
		c.fill(map[string]string{"failure_policy": "refuse", "timeout_ms": "800"})
		c.submitAndWait("#submit", "#flash")
		if o := stored(); o[0].FailurePolicy != "refuse" || o[0].TimeoutMs != 800 || o[0].SharedSecret != "ovr-secret-7788" {
			t.Fatalf("after the edit: policy %q, timeout %d", o[0].FailurePolicy, o[0].TimeoutMs)
		}

		// Left to its type, an inventory override falls back.
		c.visit("/admin/api-overrides/new")
		c.fill(map[string]string{"override_type": "inventory", "url": "https://stock.example.com", "shared_secret": "ovr-secret-9900"})
		c.submitAndWait("#submit", "#flash")
		if o := stored(); len(o) != 2 || o[1].FailurePolicy != "fallback" || o[1].TimeoutMs != 2000 {
			t.Fatalf("an inventory override left to its type: %+v", o[1])
		}
	})
}

// The remote state authority's timeout is saved, kept when the field is left as it is, and
// refused out of 100..10000 next to its field with nothing saved.
func TestTheRemoteStateAuthoritysTimeoutIsSavedWithinItsBounds(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		rsa := func() *ent.RSAConfig {
			t.Helper()
			cfg, err := c.svc.Shops.RSAConfig(context.Background(), c.shopEntity())
			if err != nil {
				t.Fatal(err)
			}
			return cfg
		}
		c.signIn()
		c.visit("/admin/remote-state-authority")
		c.fill(map[string]string{"url": "https://rsa.example.com", "shared_secret": "rsa-secret-1234", "timeout_ms": "50"})
		c.submitAndWait("#submit", "#timeout_ms-error")
		c.wantText("#timeout_ms-error", "must be from 100 to 10000")
		if cfg := rsa(); cfg != nil {
			t.Fatalf("a refused form saved %+v", cfg)
		}
		c.fill(map[string]string{"shared_secret": "rsa-secret-1234", "timeout_ms": "3500"})
		c.submitAndWait("#submit", "#flash")
		c.wantText("#rsa-current", "3500 ms")
		if cfg := rsa(); cfg == nil || cfg.TimeoutMs != 3500 {
			t.Fatalf("saved: %+v", cfg)
		}
		c.fill(map[string]string{"url": "https://rsa2.example.com"})
		c.submitAndWait("#submit", "#flash")
		if cfg := rsa(); cfg.URL != "https://rsa2.example.com" || cfg.TimeoutMs != 3500 {
			t.Fatalf("changing the URL changed the timeout: %+v", cfg)
		}
		c.fill(map[string]string{"timeout_ms": "10001"})
		c.submitAndWait("#submit", "#timeout_ms-error")
		if cfg := rsa(); cfg.TimeoutMs != 3500 {
			t.Fatalf("a refused edit saved timeout %d", cfg.TimeoutMs)
		}
	})
}
