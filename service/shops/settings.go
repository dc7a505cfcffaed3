package shops

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
)

// SetAbandonedCartEmails records whether checkoutd sends the shop's abandoned-cart emails. While
// it does, order/abandoned is not sent to subscribers (the spec's rule).
func (s *Service) SetAbandonedCartEmails(ctx context.Context, sh *ent.Shop, on bool) (*ent.Shop, error) {
	return s.p.DB.Client.Shop.UpdateOneID(sh.ID).SetAbandonedCartEmails(on).Save(ctx)
}

// SetGiftCardsEnabled turns gift cards on or off for the shop: with them on, buying a product
// marked as a gift card issues a card and records gift_card/created.
func (s *Service) SetGiftCardsEnabled(ctx context.Context, sh *ent.Shop, on bool) (*ent.Shop, error) {
	return s.p.DB.Client.Shop.UpdateOneID(sh.ID).SetGiftCardsEnabled(on).Save(ctx)
}
