package orders

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
)

// GenerateTaxes sets the order's tax basis to the jurisdiction of the address taxes are due at:
// the shipping address when a line ships, else the billing address. The basis stays until the
// next Generate Taxes, whatever happens to the addresses.
func (s *Service) GenerateTaxes(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	if v, ok, err := s.remoteEvent(ctx, sess, EventApplyTaxes, struct{}{}); ok {
		return v, err
	}
	return s.changeOrderFieldsReadingItems(ctx, sess, func(_ *ent.Client, o *ent.Order, items []*ent.LineItem, update *ent.OrderUpdate) error {
		addr, kind := taxAddress(o, items)
		if addr == nil {
			return problem.Validation("taxes.address_required", "taxes need the order's "+string(kind)+" address: set it first",
				map[string]any{"field": "address", "address_type": string(kind)})
		}
		update.SetTaxBasis(pricing.BasisOf(addr))
		return nil
	})
}

// TaxEstimate is what the order's taxes and total would be at an address; the order is unchanged.
type TaxEstimate struct {
	View     *OrderView
	Basis    schema.TaxBasis
	Taxes    []pricing.TaxLine
	TaxTotal int64
	Total    int64
}

// EstimateTaxes prices the order as it stands (lines, discounts, selected shipping) with the
// taxes of the given address, without changing it.
func (s *Service) EstimateTaxes(ctx context.Context, sess *OrderSession, in AddressInput) (*TaxEstimate, error) {
	if err := validateAddress(ShippingAddress, &in, addressRules{}); err != nil {
		return nil, err
	}
	v, err := s.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
	if err != nil {
		return nil, err
	}
	at := *v.Order
	at.TaxBasis = &schema.TaxBasis{CountryCode: in.CountryCode, ProvinceCode: in.ProvinceCode}
	rules, err := s.loadPricingRules(ctx, s.p.DB.Read, sess.Shop, &at)
	if err != nil {
		return nil, err
	}
	p := pricing.Price(sess.Shop, &at, v.LineItems, v.SelectedShipping, rules, s.p.Clock())
	return &TaxEstimate{View: v, Basis: *at.TaxBasis, Taxes: p.Taxes, TaxTotal: p.TaxTotal, Total: p.Total}, nil
}
