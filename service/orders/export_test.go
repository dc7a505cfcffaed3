package orders

import (
	"context"
	"errors"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// RedeemDiscountCodes runs process_order's redemption for the order, in a transaction of its own.
func (s *Service) RedeemDiscountCodes(ctx context.Context, sh *ent.Shop, publicOrderID string) error {
	v, err := s.LoadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return err
	}
	return s.RedeemDiscountCodesOf(ctx, v)
}

// RedeemDiscountCodesOf redeems the codes of a view read earlier, as process_order does.
func (s *Service) RedeemDiscountCodesOf(ctx context.Context, v *OrderView) error {
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		update := tx.Order.Update().Where(order.ID(v.Order.ID))
		if err := RedeemDiscountCodes(ctx, tx, v, s.p.Clock(), update); err != nil {
			return err
		}
		return update.Exec(ctx)
	})
}

// ReleaseDiscountCodes gives back what RedeemDiscountCodes took for the order.
func (s *Service) ReleaseDiscountCodes(ctx context.Context, sh *ent.Shop, publicOrderID string) error {
	v, err := s.LoadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return err
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error { return ReleaseDiscountCodes(ctx, tx, v) })
}

// CheckTaxesCurrent is process_order's tax rule for the order as it stands.
func (s *Service) CheckTaxesCurrent(ctx context.Context, sh *ent.Shop, publicOrderID string) error {
	v, err := s.LoadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return err
	}
	return CheckTaxesCurrent(v)
}

// RecordEventAndRollBack records an order event in a transaction that then fails, as a change
// that is refused after its event was written.
func (s *Service) RecordEventAndRollBack(ctx context.Context, sess *OrderSession) error {
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		if err := s.RecordOrderEvent(ctx, tx, sess.Shop, sess.Order, platform.TopicOrderFailed, nil); err != nil {
			return err
		}
		return errors.New("the change is refused")
	})
}

// RecordOrderEventAlone records an order event of topic in a transaction of its own.
func (s *Service) RecordOrderEventAlone(ctx context.Context, sess *OrderSession, topic string) error {
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		return s.RecordOrderEvent(ctx, tx, sess.Shop, sess.Order, topic, nil)
	})
}

// IssueOrderJWT signs a storefront token for any public order id, existing or not.
func (s *Service) IssueOrderJWT(sh *ent.Shop, publicOrderID string) (string, error) {
	return s.issueOrderJWT(sh, publicOrderID, false)
}

// FieldChanges counts the changes of orders' own rows made on the path given: "kept" or "locked".
func (s *Service) FieldChanges(path string) int {
	return int(testutil.ToFloat64(s.fieldChanges.WithLabelValues(path)))
}
