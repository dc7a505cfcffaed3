package service

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
)

// RedeemDiscountCodes runs process_order's redemption for the order, in a transaction of its own.
func (s *Service) RedeemDiscountCodes(ctx context.Context, sh *ent.Shop, publicOrderID string) error {
	v, err := s.loadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return err
	}
	return s.RedeemDiscountCodesOf(ctx, v)
}

// RedeemDiscountCodesOf redeems the codes of a view read earlier, as process_order does.
func (s *Service) RedeemDiscountCodesOf(ctx context.Context, v *OrderView) error {
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		update := tx.Order.Update().Where(order.ID(v.Order.ID))
		if err := redeemDiscountCodes(ctx, tx, v, s.clock(), update); err != nil {
			return err
		}
		return update.Exec(ctx)
	})
}

// ReleaseDiscountCodes gives back what RedeemDiscountCodes took for the order.
func (s *Service) ReleaseDiscountCodes(ctx context.Context, sh *ent.Shop, publicOrderID string) error {
	v, err := s.loadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return err
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error { return releaseDiscountCodes(ctx, tx, v) })
}

// CheckTaxesCurrent is process_order's tax rule for the order as it stands.
func (s *Service) CheckTaxesCurrent(ctx context.Context, sh *ent.Shop, publicOrderID string) error {
	v, err := s.loadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return err
	}
	return checkTaxesCurrent(v)
}

// LoadOrder reads an order's view.
func (s *Service) LoadOrder(ctx context.Context, sh *ent.Shop, publicOrderID string) (*OrderView, error) {
	return s.loadOrder(ctx, sh, publicOrderID)
}
