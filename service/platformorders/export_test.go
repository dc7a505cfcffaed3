package platformorders

import (
	"context"
	"encoding/json"

	"github.com/checkoutd/checkoutd/ent"
)

// ApplySaved applies an Order Saved at once, as its queued job does.
func (s *Service) ApplySaved(ctx context.Context, sh *ent.Shop, raw json.RawMessage) error {
	in, err := ParseSaved(raw)
	if err != nil {
		return err
	}
	return s.applySaved(ctx, sh.ID, in)
}

// ApplyDeleted applies an Order Deleted at once.
func (s *Service) ApplyDeleted(ctx context.Context, sh *ent.Shop, in Deleted) error {
	return s.applyDeleted(ctx, sh.ID, in)
}
