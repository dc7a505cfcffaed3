package orders

import (
	"context"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Inventory check stages: initial when the checkout opens, final just before the order is
// processed. Both compare the order with the catalog's stock as it is at that moment.
const (
	InventoryStageInitial = "initial"
	InventoryStageFinal   = "final"
)

// Inventory check results, in the frontend library's words.
const (
	InventoryPass = "pass"
	InventoryFail = "fail"
)

// InventoryShortItem is a variant the order wants more of than the catalog holds.
type InventoryShortItem struct {
	PlatformVariantID string `json:"platform_variant_id"`
	AvailableQuantity int    `json:"available_quantity"`
	RequestedQuantity int    `json:"requested_quantity"`
	// LineItemKeys are the order's lines of that variant.
	LineItemKeys []string `json:"line_item_keys"`
}

// InventoryCheck is the answer of an inventory check.
type InventoryCheck struct {
	Stage       string               `json:"stage"`
	Result      string               `json:"result"`
	Reason      string               `json:"reason,omitempty"`
	FailedItems []InventoryShortItem `json:"failed_items"`
	// OverrideFallback says the shop's inventory override failed and checkoutd's own check
	// answered (its fallback policy).
	OverrideFallback bool `json:"override_fallback"`
}

// CheckInventory compares each line of the order with the stock of its catalog variant, where
// the variant tracks inventory. Lines of one variant count together, since they draw on one
// stock; lines outside the catalog, or of untracked variants, always pass. Nothing is reserved.
func (s *Service) CheckInventory(ctx context.Context, sess *OrderSession, stage string) (*InventoryCheck, *OrderView, error) {
	if stage != InventoryStageInitial && stage != InventoryStageFinal {
		return nil, nil, problem.Validation("inventory.invalid_stage", "stage must be initial or final", map[string]any{"field": "stage"})
	}
	v, err := s.OrderState(ctx, sess)
	if err != nil {
		return nil, nil, err
	}
	wanted := map[string]int{}
	keys := map[string][]string{}
	var ids []string
	for _, li := range v.LineItems {
		if li.VariantID == "" {
			continue
		}
		if _, seen := wanted[li.VariantID]; !seen {
			ids = append(ids, li.VariantID)
		}
		wanted[li.VariantID] += li.Quantity
		keys[li.VariantID] = append(keys[li.VariantID], li.LineItemKey)
	}
	check := &InventoryCheck{Stage: stage, Result: InventoryPass, FailedItems: []InventoryShortItem{}}
	switch answer, out, err := s.inventoryOverride(ctx, sess, v, stage); {
	case err != nil:
		return nil, nil, err
	case out == override.Answered:
		return answer, v, nil
	case out == override.FellBack:
		check.OverrideFallback = true
	}
	if len(ids) == 0 {
		return check, v, nil
	}
	tracked, err := s.catalog.TrackedVariants(ctx, s.p.DB.Read, sess.Shop.ID, ids)
	if err != nil {
		return nil, nil, err
	}
	// Report in the order's line order, so the answer is stable.
	slices.SortFunc(tracked, func(a, b *ent.Variant) int {
		return slices.Index(ids, a.PlatformID) - slices.Index(ids, b.PlatformID)
	})
	for _, tv := range tracked {
		if want := wanted[tv.PlatformID]; want > tv.InventoryQuantity {
			check.FailedItems = append(check.FailedItems, InventoryShortItem{PlatformVariantID: tv.PlatformID,
				AvailableQuantity: max(tv.InventoryQuantity, 0), RequestedQuantity: want, LineItemKeys: keys[tv.PlatformID]})
		}
	}
	if len(check.FailedItems) > 0 {
		check.Result, check.Reason = InventoryFail, "insufficient_stock"
	}
	return check, v, nil
}

// inventoryOverride asks the order's inventory override for the check of stage.
func (s *Service) inventoryOverride(ctx context.Context, sess *OrderSession, v *OrderView, stage string) (*InventoryCheck, override.Outcome, error) {
	if may, err := s.mayHaveOverrides(ctx, sess); !may || err != nil {
		return nil, override.BuiltIn, err
	}
	set, err := s.overridesWith(ctx, s.p.DB.Read, sess.Shop, v.Order, sess.noOwnOverrides)
	if err != nil || !set.Has(override.Inventory) {
		return nil, override.BuiltIn, err
	}
	var a override.InventoryAnswer
	out, err := s.overrides.Call(override.WithMemo(ctx), set, override.Inventory, override.Request{PublicOrderID: v.Order.PublicOrderID,
		Order: overrideState(v), Stage: stage}, &a)
	if err != nil || out != override.Answered {
		return nil, out, err
	}
	check := &InventoryCheck{Stage: stage, Result: a.Result, Reason: a.Reason, FailedItems: []InventoryShortItem{}}
	for _, it := range a.FailedItems {
		keys := it.LineItemKeys
		if keys == nil {
			keys = []string{}
		}
		check.FailedItems = append(check.FailedItems, InventoryShortItem{PlatformVariantID: it.PlatformVariantID,
			AvailableQuantity: it.AvailableQuantity, RequestedQuantity: it.RequestedQuantity, LineItemKeys: keys})
	}
	if check.Result == InventoryFail && check.Reason == "" {
		check.Reason = "insufficient_stock"
	}
	return check, out, nil
}

// CheckFinalInventoryOverride is process_order's final inventory check by the order's inventory
// override, before anything is reserved or authorized: a fail answer refuses processing
// (inventory.insufficient, the override's failed items in the details), as does a failed call
// under the refuse policy (override.unavailable). Without an override, or when it fell back,
// the catalog's reservation alone decides, as always; it still runs after a pass, for the
// variants the catalog tracks.
func (s *Service) CheckFinalInventoryOverride(ctx context.Context, sess *OrderSession) error {
	// Read anew: the check is the last word on the lines before they are reserved.
	set, v, err := s.sessionOverrides(ctx, sess, true, override.Inventory)
	if set == nil || err != nil {
		return err
	}
	check, out, err := s.inventoryOverride(ctx, sess, v, InventoryStageFinal)
	if err != nil || out != override.Answered || check.Result == InventoryPass {
		return err
	}
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "inventory.insufficient",
		Message: "the shop's inventory service refused the order: " + check.Reason,
		Details: map[string]any{"field": "line_items", "override_type": override.Inventory, "failed_items": check.FailedItems}}
}
