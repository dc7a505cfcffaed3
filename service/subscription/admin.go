package subscription

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/subscription"
	"github.com/checkoutd/checkoutd/service/problem"
)

// The console's and GraphQL's actions on a subscription: pause, resume, skip the next order,
// place it now. Each is one conditional update on the statuses it applies to, so that it never
// races a sweep placing the subscription (processing).

func notAllowed(action string, status subscription.SubscriptionStatus) *problem.Error {
	return problem.Validation("subscription.not_allowed", "a subscription "+string(status)+" cannot be "+action,
		map[string]any{"field": "subscription_status", "subscription_status": string(status)})
}

var (
	placeable = []subscription.SubscriptionStatus{subscription.SubscriptionStatusActive, subscription.SubscriptionStatusScheduled}
	settled   = []subscription.SubscriptionStatus{subscription.SubscriptionStatusActive, subscription.SubscriptionStatusScheduled, subscription.SubscriptionStatusPaused}
)

// change applies update to the shop's subscription id when its status is one of from, and
// answers it; otherwise the subscription's absence or its status refuses.
func (s *Service) change(ctx context.Context, sh *ent.Shop, id int, action string, from []subscription.SubscriptionStatus,
	update func(sub *ent.Subscription, u *ent.SubscriptionUpdate) error) (*View, error) {
	sub, err := s.p.DB.Client.Subscription.Query().Where(subscription.ShopID(sh.ID), subscription.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFound()
	}
	if err != nil {
		return nil, err
	}
	allowed := false
	for _, st := range from {
		allowed = allowed || sub.SubscriptionStatus == st
	}
	if !allowed {
		return nil, notAllowed(action, sub.SubscriptionStatus)
	}
	u := s.p.DB.Client.Subscription.Update().Where(subscription.ID(id), subscription.SubscriptionStatusEQ(sub.SubscriptionStatus),
		subscription.UpdatedAt(sub.UpdatedAt))
	if err := update(sub, u); err != nil {
		return nil, err
	}
	n, err := u.Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, &problem.Error{Kind: problem.Conflict, Code: problem.CodeConflict, Type: "subscription.changed",
			Message: "the subscription changed meanwhile (an order being placed): read it and try again"}
	}
	return s.Subscription(ctx, sh, id, false)
}

// Pause stops the subscription's orders until Resume; a failing due date is given up.
func (s *Service) Pause(ctx context.Context, sh *ent.Shop, id int) (*View, error) {
	return s.change(ctx, sh, id, "paused", placeable, func(_ *ent.Subscription, u *ent.SubscriptionUpdate) error {
		u.SetSubscriptionStatus(subscription.SubscriptionStatusPaused).SetStatusChangedAt(s.p.Clock().UTC()).ClearRetryAt()
		return nil
	})
}

// Resume makes a paused subscription active again from the rule's next date after now: the
// dates that passed while it was paused are not placed.
func (s *Service) Resume(ctx context.Context, sh *ent.Shop, id int) (*View, error) {
	return s.change(ctx, sh, id, "resumed", []subscription.SubscriptionStatus{subscription.SubscriptionStatusPaused},
		func(sub *ent.Subscription, u *ent.SubscriptionUpdate) error {
			now := s.p.Clock().UTC()
			next := sub.NextOrderDatetime
			if next == nil || next.Before(now) {
				next = nextDue(sub, now)
			}
			if next == nil {
				return problem.Validation("subscription.rule_ended", "the subscription's order_rrule has no date left", map[string]any{"field": "order_rrule"})
			}
			u.SetSubscriptionStatus(subscription.SubscriptionStatusActive).SetStatusChangedAt(now).SetCurrentRetries(0).ClearRetryAt().
				SetNextOrderDatetime(*next).SetNextPaymentDatetime(*next).SetNextProcessingDatetime(*next)
			return nil
		})
}

// SkipNext moves the subscription's next order to the rule's date after it; with none left the
// subscription is inactive.
func (s *Service) SkipNext(ctx context.Context, sh *ent.Shop, id int) (*View, error) {
	return s.change(ctx, sh, id, "skipped", settled, func(sub *ent.Subscription, u *ent.SubscriptionUpdate) error {
		after := s.p.Clock().UTC()
		if sub.NextOrderDatetime != nil && sub.NextOrderDatetime.After(after) {
			after = *sub.NextOrderDatetime
		}
		u.SetCurrentRetries(0).ClearRetryAt()
		if next := nextDue(sub, after); next != nil {
			u.SetNextOrderDatetime(*next).SetNextPaymentDatetime(*next).SetNextProcessingDatetime(*next)
		} else {
			u.SetSubscriptionStatus(subscription.SubscriptionStatusInactive).SetStatusChangedAt(s.p.Clock().UTC()).
				ClearNextOrderDatetime().ClearNextPaymentDatetime().ClearNextProcessingDatetime()
		}
		return nil
	})
}

// PlaceNow places the subscription's next order at once, as the sweep would at its date, and
// answers the subscription: its next date is then the rule's next after now, and a failure is
// recorded (and retried) as the sweep records it.
func (s *Service) PlaceNow(ctx context.Context, sh *ent.Shop, id int) (*View, error) {
	now := s.p.Clock().UTC().Truncate(time.Second)
	if _, err := s.change(ctx, sh, id, "placed now", placeable, func(_ *ent.Subscription, u *ent.SubscriptionUpdate) error {
		u.SetNextOrderDatetime(now).SetCurrentRetries(0).ClearRetryAt()
		return nil
	}); err != nil {
		return nil, err
	}
	sub, err := s.p.DB.Client.Subscription.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if _, err := s.placeDue(ctx, sub); err != nil {
		return nil, err
	}
	return s.Subscription(ctx, sh, id, false)
}
