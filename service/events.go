package service

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
)

// Event topics, with the ids clients look them up by.
const (
	TopicOrderProcessed  = "order/processed"
	TopicOrderCreated    = "order/created"
	TopicOrderFulfilled  = "order/fulfilled"
	TopicOrderAbandoned  = "order/abandoned"
	TopicOrderFailed     = "order/failed"
	TopicGiftCardCreated = "gift_card/created"
	// TopicConnectorRestock is not a webhook topic: it records returned stock for the platform
	// connector to push.
	TopicConnectorRestock = "connector/restock"
)

// recordOrderEvent writes an event of the order in tx, the transaction of the change that
// causes it: no change without its event, no event without its change. The payload carries the
// order's state as it is at that moment.
func (s *Service) recordOrderEvent(ctx context.Context, tx *ent.Tx, sh *ent.Shop, o *ent.Order, topic string, extra map[string]any) error {
	v, err := s.viewOf(ctx, tx.Client(), sh, o, nil)
	if err != nil {
		return err
	}
	payload := map[string]any{
		"public_order_id":   o.PublicOrderID,
		"platform_order_id": o.PlatformOrderID,
		"application_state": v.State(),
	}
	for k, val := range extra {
		payload[k] = val
	}
	return tx.Event.Create().SetShopID(sh.ID).SetOrderID(o.ID).SetEventID(newPublicID()).SetTopic(topic).
		SetPayload(payload).SetCreatedAt(s.clock()).Exec(ctx)
}
