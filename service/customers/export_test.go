package customers

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
)

// ApplySaved applies a Customer Saved at once, as its queued job does.
func (s *Service) ApplySaved(ctx context.Context, sh *ent.Shop, in CustomerInput) error {
	if err := in.check(); err != nil {
		return err
	}
	return s.applySaved(ctx, sh.ID, in)
}

// ApplyDeleted applies a Customer Deleted at once, as its queued job does.
func (s *Service) ApplyDeleted(ctx context.Context, sh *ent.Shop, in DeletedInput) error {
	return s.applyDeleted(ctx, sh.ID, in)
}
