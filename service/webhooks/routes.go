package webhooks

import (
	"context"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/webhooksubscription"
	"github.com/checkoutd/checkoutd/service/platform"
)

// subscribedTopic is what recording an event needs of a webhook subscription.
type subscribedTopic struct{ subscriptionID, topicID int }

// subscribedTopics are the shop's webhook subscriptions as events are routed to them, in the
// order they were made, through the cache; read through c (a transaction's client inside one,
// where asking the pool for a second connection could wait forever).
func (s *Service) subscribedTopics(ctx context.Context, c *ent.Client, shopID int) ([]subscribedTopic, error) {
	return s.subscriptions.Get(shopID, s.p.Clock, func() ([]subscribedTopic, error) {
		var rows []struct {
			ID             int `json:"id"`
			WebhookTopicID int `json:"webhook_topic_id"`
		}
		err := c.WebhookSubscription.Query().Where(webhooksubscription.ShopID(shopID)).Order(webhooksubscription.ByID()).
			Select(webhooksubscription.FieldID, webhooksubscription.FieldWebhookTopicID).Scan(ctx, &rows)
		out := make([]subscribedTopic, len(rows))
		for i, r := range rows {
			out[i] = subscribedTopic{subscriptionID: r.ID, topicID: r.WebhookTopicID}
		}
		return out, err
	})
}

// watchSubscriptions clears the routes cache after a write that changes how events are routed:
// deliveries keep their subscription's health up to date, and do not clear it.
func (s *Service) watchSubscriptions() {
	s.p.DB.Client.WebhookSubscription.Use(platform.ClearingHook(s.subscriptions.Clear, func(m ent.Mutation) bool {
		return !m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) || slices.Contains(m.Fields(), webhooksubscription.FieldWebhookTopicID)
	}))
}
