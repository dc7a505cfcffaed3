package orders

import (
	"context"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
)

// availableShippingLines prices every rate of the zones covering the shipping address
// (pricing.ShippingLines); the shop's zones are read only when a line ships. The lines an
// outside system offered the order (schema.OutsidePricing) take the place of the shop's rates.
func (s *Service) availableShippingLines(ctx context.Context, c *ent.Client, shopID int, o *ent.Order, items []*ent.LineItem) ([]schema.ShippingLine, error) {
	if o.ShippingAddress == nil || !pricing.Ships(items) {
		return []schema.ShippingLine{}, nil
	}
	if o.OutsidePricing != nil && o.OutsidePricing.Shipping != nil {
		return append([]schema.ShippingLine{}, o.OutsidePricing.Shipping.Lines...), nil
	}
	rules, err := s.shops.Rules(ctx, c, shopID)
	if err != nil {
		return nil, err
	}
	return pricing.ShippingLines(rules.ShippingZones, o.ShippingAddress.CountryCode, items), nil
}

// ShippingLineEntry is one offered shipping line on the wire: the spec's {id, line}, and the
// line's fields again at the top level, where the public frontend library reads them.
type ShippingLineEntry struct {
	ID          string              `json:"id"`
	Line        schema.ShippingLine `json:"line"`
	Description string              `json:"description"`
	Amount      int64               `json:"amount"`
	Code        string              `json:"code"`
}

func shippingLineEntry(l schema.ShippingLine) ShippingLineEntry {
	return ShippingLineEntry{ID: l.ID, Line: l, Description: l.Description, Amount: l.Amount, Code: l.Code}
}

// EstimateShippingLines answers the shipping lines the order would be offered at an address,
// without setting that address or changing anything else on the order.
func (s *Service) EstimateShippingLines(ctx context.Context, sess *OrderSession, in AddressInput) ([]ShippingLineEntry, *OrderView, error) {
	if err := validateAddress(ShippingAddress, &in, addressRules{}); err != nil {
		return nil, nil, err
	}
	v, err := s.OrderState(ctx, sess)
	if err != nil {
		return nil, nil, err
	}
	// A copy of the order carries the address; the stored order and the view stay as they are.
	at := *v.Order
	at.ShippingAddress = &in
	if at.OutsidePricing, err = s.estimateOverride(ctx, sess, v, &at, override.Shipping); err != nil {
		return nil, nil, err
	}
	lines, err := s.availableShippingLines(ctx, s.p.DB.Read, sess.Shop.ID, &at, v.LineItems)
	if err != nil {
		return nil, nil, err
	}
	entries := make([]ShippingLineEntry, len(lines))
	for i, l := range lines {
		entries[i] = shippingLineEntry(l)
	}
	return entries, v, nil
}

// SelectShippingLine chooses one of the order's available shipping lines, by its id or
// position (index) and/or its code.
func (s *Service) SelectShippingLine(ctx context.Context, sess *OrderSession, index, code string) (*OrderView, error) {
	if v, ok, err := s.remoteEvent(ctx, sess, EventSetShippingLine, map[string]string{"index": index, "code": code}); ok {
		return v, err
	}
	return s.changeOrderFieldsReadingItems(ctx, sess, func(read *ent.Client, o *ent.Order, items []*ent.LineItem, update *ent.OrderUpdate) error {
		lines, err := s.availableShippingLines(ctx, read, sess.Shop.ID, o, items)
		if err != nil {
			return err
		}
		for i, l := range lines {
			if (index != "" && (index == l.ID || index == strconv.Itoa(i))) || (index == "" && code != "" && code == l.Code) {
				update.SetSelectedShipping(&l)
				return nil
			}
		}
		return problem.Validation("shipping.line_not_available", "no available shipping line matches that index or code; set a shipping address first",
			map[string]any{"field": "index"})
	})
}
