package rest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/service/problem"
)

func TestConfigureIntegrationSettingsAnswersAnEmptyArray(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		r := a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": "s3cret-value"}).wantStatus(t, 200)
		if r.Raw != "[]\n" {
			t.Fatalf("answered %q", r.Raw)
		}
	})
}

func TestSharedSecretIsRequired(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/integration/config"), map[string]string{}).wantError(t, 422, "", "integration.invalid_shared_secret")
	})
}

func TestWebhookTopicsAreTheSixWithTheirIDs(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		topics := a.do("GET", a.shopPath("/webhooks/topics"), nil).wantStatus(t, 200).data(t)["webhook_topics"].([]any)
		want := []string{"order/processed", "order/created", "order/fulfilled", "order/abandoned", "order/failed", "gift_card/created"}
		if len(topics) != 6 {
			t.Fatalf("topics %v", topics)
		}
		for i, tp := range topics {
			m := tp.(map[string]any)
			if int(m["id"].(float64)) != i+1 || m["webhook_topic_name"] != want[i] {
				t.Fatalf("topic %d is %v", i+1, m)
			}
		}
	})
}

func TestCreateWebhookBeforeSharedSecretIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		e := a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": 1, "callback_url": "https://hooks.example.com/x"}).
			wantError(t, 422, "", "webhook.shared_secret_not_configured")
		if !strings.Contains(e["message"].(string), "shared secret") {
			t.Fatalf("message does not say why: %v", e["message"])
		}
	})
}

func TestWebhookSubscriptionLifecycle(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": "s3cret-value"}).wantStatus(t, 200)
		created := a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": 1, "callback_url": "https://hooks.example.com/x"}).
			wantStatus(t, 200).data(t)["webhook"].(map[string]any)
		id := int64(created["id"].(float64))
		list := a.do("GET", a.shopPath("/webhooks"), nil).wantStatus(t, 200).data(t)["webhooks"].([]any)
		first := list[0].(map[string]any)
		if len(list) != 1 || first["created_at"] == nil || first["updated_at"] == nil {
			t.Fatalf("list %v", list)
		}
		up := a.do("PATCH", a.shopPath(fmt.Sprintf("/webhooks/%d", id)), map[string]any{"callback_url": "https://hooks.example.com/y"}).
			wantStatus(t, 200).data(t)["webhook"].(map[string]any)
		if up["callback_url"] != "https://hooks.example.com/y" {
			t.Fatalf("updated %v", up)
		}
		a.do("DELETE", a.shopPath(fmt.Sprintf("/webhooks/%d", id)), nil).wantStatus(t, 200)
		a.do("DELETE", a.shopPath(fmt.Sprintf("/webhooks/%d", id)), nil).wantError(t, 404, "", "webhook.not_found")
	})
}

func TestWebhookWithUnknownTopicOrBadURLIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": "s3cret-value"}).wantStatus(t, 200)
		a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": 9, "callback_url": "https://hooks.example.com/x"}).wantError(t, 422, "", "webhook.invalid_topic")
		a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": 1, "callback_url": "not a url"}).wantError(t, 422, "", "webhook.invalid_callback_url")
	})
}

func TestPatchRSAConfigBeforePostIs422_02_89(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("PATCH", a.shopPath("/rsa_config"), map[string]any{"url": "https://rsa.example.com"}).wantError(t, 422, problem.CodeRSANotSet, "rsa_config.not_configured")
	})
}

func TestRSAConfigLifecycleNeverReturnsTheSecret(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		r := a.do("POST", a.shopPath("/rsa_config"), map[string]any{"url": "https://rsa.example.com", "shared_secret": "very-secret-1234"}).wantStatus(t, 200)
		if strings.Contains(r.Raw, "very-secret") {
			t.Fatalf("secret returned: %s", r.Raw)
		}
		up := a.do("PATCH", a.shopPath("/rsa_config"), map[string]any{"url": "https://rsa2.example.com"}).wantStatus(t, 200).data(t)["rsa_config"].(map[string]any)
		if up["url"] != "https://rsa2.example.com" || up["shared_secret"] != "****1234" {
			t.Fatalf("updated %v", up)
		}
		a.do("DELETE", a.shopPath("/rsa_config"), nil).wantStatus(t, 200)
		a.do("PATCH", a.shopPath("/rsa_config"), map[string]any{"url": "https://rsa.example.com"}).wantError(t, 422, problem.CodeRSANotSet, "")
	})
}
