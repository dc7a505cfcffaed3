package platform

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
)

// Outbox writes events in the transaction of the change that causes them: no change without its
// event, no event without its change. What happens to an event next (a webhook delivery, a
// push to the platform) is the business of the domains that subscribe, in the same transaction.
type Outbox struct {
	p           *Platform
	subscribers []EventSubscriber
}

// EventSubscriber hears of events as they are written, in their transaction.
type EventSubscriber interface {
	EventsRecorded(ctx context.Context, tx *ent.Tx, shopID int, orderID *int, events []*ent.Event) error
}

// Subscribe adds a subscriber; the wiring calls it before the service serves.
func (o *Outbox) Subscribe(s EventSubscriber) { o.subscribers = append(o.subscribers, s) }

// Record writes one event of each topic with the same payload, in the order given, in one
// statement, and hands them to the subscribers.
func (o *Outbox) Record(ctx context.Context, tx *ent.Tx, shopID int, orderID *int, topics []string, payload map[string]any) error {
	now := o.p.Clock()
	creates := make([]*ent.EventCreate, len(topics))
	for i, topic := range topics {
		creates[i] = tx.Event.Create().SetShopID(shopID).SetNillableOrderID(orderID).SetEventID(NewPublicID()).SetTopic(topic).
			SetPayload(payload).SetCreatedAt(now)
	}
	written, err := tx.Event.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return err
	}
	for _, s := range o.subscribers {
		if err := s.EventsRecorded(ctx, tx, shopID, orderID, written); err != nil {
			return err
		}
	}
	return nil
}
