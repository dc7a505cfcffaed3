package catalog

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/catalogtombstone"
)

// ApplyProductSaved applies a Product Saved at once, as its queued job does.
func (s *Service) ApplyProductSaved(ctx context.Context, sh *ent.Shop, in ConnectorProduct) error {
	if err := in.check(sh.Currency); err != nil {
		return err
	}
	return s.applyProductSaved(ctx, sh.ID, sh.Currency, in)
}

// ApplyProductDeleted applies a Product Deleted at once, as its queued job does.
func (s *Service) ApplyProductDeleted(ctx context.Context, sh *ent.Shop, in DeletedInput) error {
	return s.applyDeleted(ctx, sh.ID, catalogtombstone.KindProduct, in)
}

// ApplyCategorySaved applies a Product Category Saved at once, as its queued job does.
func (s *Service) ApplyCategorySaved(ctx context.Context, sh *ent.Shop, in ConnectorCategory) error {
	return s.applyCategorySaved(ctx, sh.ID, in)
}
