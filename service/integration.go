package service

import (
	"context"
	"fmt"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/rsaconfig"
	"github.com/checkoutd/checkoutd/ent/webhooksubscription"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/problem"
)

// ConfigureSharedSecret sets or rotates the secret that signs the shop's webhook callbacks.
func (s *Service) ConfigureSharedSecret(ctx context.Context, sh *ent.Shop, secret string) (*ent.Shop, error) {
	if secret == "" {
		return nil, problem.Validation("integration.invalid_shared_secret", "shared_secret is required", map[string]any{"field": "shared_secret"})
	}
	if input.TooLong(secret, input.MaxSecretText) {
		return nil, problem.Validation("integration.invalid_shared_secret", fmt.Sprintf("shared_secret is longer than %d characters", input.MaxSecretText),
			map[string]any{"field": "shared_secret", "max_length": input.MaxSecretText})
	}
	return s.db.Client.Shop.UpdateOneID(sh.ID).SetSharedSecret(secret).Save(ctx)
}

// MaskSecret shows the last four characters of a secret and nothing else.
func MaskSecret(secret string) string {
	if len(secret) <= 4 {
		return "****"
	}
	return "****" + secret[len(secret)-4:]
}

// WebhookTopic is one kind of event a subscription can receive.
type WebhookTopic struct {
	ID   int    `json:"id"`
	Name string `json:"webhook_topic_name"`
}

// WebhookTopics are the six topics, with the ids clients look them up by.
var WebhookTopics = []WebhookTopic{
	{1, "order/processed"}, {2, "order/created"}, {3, "order/fulfilled"},
	{4, "order/abandoned"}, {5, "order/failed"}, {6, "gift_card/created"},
}

func webhookTopicName(id int) (string, bool) {
	for _, t := range WebhookTopics {
		if t.ID == id {
			return t.Name, true
		}
	}
	return "", false
}

// WebhookSubscriptions lists the shop's subscriptions, oldest first.
func (s *Service) WebhookSubscriptions(ctx context.Context, sh *ent.Shop) ([]*ent.WebhookSubscription, error) {
	return s.db.Read.WebhookSubscription.Query().Where(webhooksubscription.ShopID(sh.ID)).Order(webhooksubscription.ByID()).All(ctx)
}

// validateCallbackURL refuses a callback URL that is too long, not http(s), or pointing where
// the outbound policy refuses to call.
func validateCallbackURL(policy outbound.Policy, u string) error {
	if why := input.OutboundURLProblem(policy, u); why != "" {
		return problem.Validation("webhook.invalid_callback_url", "callback_url "+why, map[string]any{"field": "callback_url"})
	}
	return nil
}

// CreateWebhookSubscription subscribes a callback URL to a topic. Callbacks are signed with the
// shared secret, so there is no subscription before there is a secret.
func (s *Service) CreateWebhookSubscription(ctx context.Context, sh *ent.Shop, topicID int, callbackURL string) (*ent.WebhookSubscription, error) {
	if _, ok := webhookTopicName(topicID); !ok {
		return nil, problem.Validation("webhook.invalid_topic", "webhook_topic_id must be one of the ids of GET /webhooks/topics", map[string]any{"field": "webhook_topic_id"})
	}
	if err := validateCallbackURL(s.outbound, callbackURL); err != nil {
		return nil, err
	}
	var out *ent.WebhookSubscription
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		current, err := tx.Shop.Get(ctx, sh.ID)
		if err != nil {
			return err
		}
		if current.SharedSecret == nil {
			return problem.Validation("webhook.shared_secret_not_configured",
				"configure the integration shared secret (POST /integration/config) before creating webhooks: callbacks are signed with it", nil)
		}
		out, err = tx.WebhookSubscription.Create().SetShopID(sh.ID).SetWebhookTopicID(topicID).SetCallbackURL(callbackURL).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

func webhookNotFound() *problem.Error {
	return problem.NotFoundError("webhook.not_found", "no webhook with that id")
}

// UpdateWebhookCallbackURL points a subscription at another URL.
func (s *Service) UpdateWebhookCallbackURL(ctx context.Context, sh *ent.Shop, id int, callbackURL string) (*ent.WebhookSubscription, error) {
	if err := validateCallbackURL(s.outbound, callbackURL); err != nil {
		return nil, err
	}
	n, err := s.db.Client.WebhookSubscription.Update().Where(webhooksubscription.ShopID(sh.ID), webhooksubscription.ID(id)).
		SetCallbackURL(callbackURL).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, webhookNotFound()
	}
	return s.db.Read.WebhookSubscription.Get(ctx, id)
}

// DeleteWebhookSubscription removes a subscription.
func (s *Service) DeleteWebhookSubscription(ctx context.Context, sh *ent.Shop, id int) error {
	n, err := s.db.Client.WebhookSubscription.Delete().Where(webhooksubscription.ShopID(sh.ID), webhooksubscription.ID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return webhookNotFound()
	}
	return nil
}

// RSAConfigInput is the remote state authority's address and secret; on PATCH, absent fields stay.
type RSAConfigInput struct {
	URL          *string `json:"url"`
	SharedSecret *string `json:"shared_secret"`
}

func (in RSAConfigInput) validate(creating bool, policy outbound.Policy) error {
	p := input.Problems{}
	if in.URL == nil && creating {
		p.Add("url", "is required")
	} else if in.URL != nil {
		if why := input.OutboundURLProblem(policy, *in.URL); why != "" {
			p.Add("url", why)
		}
	}
	if in.SharedSecret == nil && creating {
		p.Add("shared_secret", "is required")
	} else if in.SharedSecret != nil && *in.SharedSecret == "" {
		p.Add("shared_secret", "cannot be blank")
	} else if in.SharedSecret != nil {
		p.Text("shared_secret", *in.SharedSecret, input.MaxSecretText)
	}
	if len(p) > 0 {
		return problem.Validation("rsa_config.invalid_rsa_config", "invalid remote state authority config: "+p.Message(), p.Details())
	}
	return nil
}

// RSAConfig returns the shop's remote state authority config, if any.
func (s *Service) RSAConfig(ctx context.Context, sh *ent.Shop) (*ent.RSAConfig, error) {
	c, err := s.db.Read.RSAConfig.Query().Where(rsaconfig.ShopID(sh.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return c, err
}

// CreateRSAConfig configures the remote state authority, replacing any earlier config.
func (s *Service) CreateRSAConfig(ctx context.Context, sh *ent.Shop, in RSAConfigInput) (*ent.RSAConfig, error) {
	if err := in.validate(true, s.outbound); err != nil {
		return nil, err
	}
	var out *ent.RSAConfig
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		if _, err := tx.RSAConfig.Delete().Where(rsaconfig.ShopID(sh.ID)).Exec(ctx); err != nil {
			return err
		}
		var err error
		out, err = tx.RSAConfig.Create().SetShopID(sh.ID).SetURL(*in.URL).SetSharedSecret(*in.SharedSecret).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

// UpdateRSAConfig changes the given fields; there must be a config to change.
func (s *Service) UpdateRSAConfig(ctx context.Context, sh *ent.Shop, in RSAConfigInput) (*ent.RSAConfig, error) {
	if err := in.validate(false, s.outbound); err != nil {
		return nil, err
	}
	var out *ent.RSAConfig
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		c, err := tx.RSAConfig.Query().Where(rsaconfig.ShopID(sh.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return &problem.Error{Kind: problem.Invalid, Code: problem.CodeRSANotSet, Type: "rsa_config.not_configured",
				Message: "no remote state authority is configured for this shop: POST /rsa_config first"}
		}
		if err != nil {
			return err
		}
		u := c.Update()
		if in.URL != nil {
			u.SetURL(*in.URL)
		}
		if in.SharedSecret != nil {
			u.SetSharedSecret(*in.SharedSecret)
		}
		out, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

// DeleteRSAConfig removes the remote state authority; the shop's checkout owns its state again.
func (s *Service) DeleteRSAConfig(ctx context.Context, sh *ent.Shop) error {
	n, err := s.db.Client.RSAConfig.Delete().Where(rsaconfig.ShopID(sh.ID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return &problem.Error{Kind: problem.Invalid, Code: problem.CodeRSANotSet, Type: "rsa_config.not_configured",
			Message: "no remote state authority is configured for this shop"}
	}
	return nil
}
