package webhooks

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/webhooksubscription"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Topic is one kind of event a subscription can receive.
type Topic struct {
	ID   int    `json:"id"`
	Name string `json:"webhook_topic_name"`
}

// Topics are the six topics, with the ids clients look them up by.
var Topics = []Topic{
	{1, "order/processed"}, {2, "order/created"}, {3, "order/fulfilled"},
	{4, "order/abandoned"}, {5, "order/failed"}, {6, "gift_card/created"},
}

func webhookTopicName(id int) (string, bool) {
	for _, t := range Topics {
		if t.ID == id {
			return t.Name, true
		}
	}
	return "", false
}

// WebhookSubscriptions lists the shop's subscriptions, oldest first.
func (s *Service) WebhookSubscriptions(ctx context.Context, sh *ent.Shop) ([]*ent.WebhookSubscription, error) {
	return s.p.DB.Read.WebhookSubscription.Query().Where(webhooksubscription.ShopID(sh.ID)).Order(webhooksubscription.ByID()).All(ctx)
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
		if current.SharedSecret == "" {
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
	n, err := s.p.DB.Client.WebhookSubscription.Update().Where(webhooksubscription.ShopID(sh.ID), webhooksubscription.ID(id)).
		SetCallbackURL(callbackURL).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, webhookNotFound()
	}
	return s.p.DB.Read.WebhookSubscription.Get(ctx, id)
}

// DeleteWebhookSubscription removes a subscription.
func (s *Service) DeleteWebhookSubscription(ctx context.Context, sh *ent.Shop, id int) error {
	n, err := s.p.DB.Client.WebhookSubscription.Delete().Where(webhooksubscription.ShopID(sh.ID), webhooksubscription.ID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return webhookNotFound()
	}
	return nil
}
