package subscription

import (
	"context"
	"errors"

	"github.com/checkoutd/checkoutd/ent/subscription"
)

// CrashWhilePlacing runs the placing of every due subscription up to a point and stops there, as
// a process killed at that moment would: "order" stops once the due date's order is created
// with its placement row, "processed" once the order is processed and charged, before the
// subscription records it.
func (s *Service) CrashWhilePlacing(ctx context.Context, at string) error {
	due, err := s.p.DB.Read.Subscription.Query().Where(subscription.NextOrderDatetimeLTE(s.p.Clock())).All(ctx)
	if err != nil {
		return err
	}
	for _, sub := range due {
		claimed, ok, err := s.claim(ctx, sub)
		if err != nil || !ok {
			return errors.Join(err, errors.New("not claimed"))
		}
		sess, err := s.placementOrder(ctx, claimed)
		if err != nil || at == "order" {
			return err
		}
		if err := s.completeOrder(ctx, claimed, sess); err != nil {
			return err
		}
	}
	return nil
}
