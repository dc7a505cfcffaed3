package orders

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
)

// GenerateTaxes sets the order's tax basis to the jurisdiction of the address taxes are due at:
// the shipping address when a line ships, else the billing address. The basis stays until the
// next Generate Taxes, whatever happens to the addresses.
// With a tax override, its answer is the order's taxes until the next Generate Taxes.
func (s *Service) GenerateTaxes(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	if v, ok, err := s.remoteEvent(ctx, sess, EventApplyTaxes, struct{}{}); ok {
		return v, err
	}
	return changeWithOverrides(func(fresh bool) (outsideEdit, error) {
		return s.taxOverride(ctx, sess, fresh)
	}, func(edit outsideEdit) (*OrderView, error) {
		return s.changeOrderFieldsReadingItems(ctx, sess, func(_ *ent.Client, o *ent.Order, items []*ent.LineItem, update *ent.OrderUpdate) error {
			addr, kind := taxAddress(o, items)
			if addr == nil {
				return taxAddressRequired(kind)
			}
			update.SetTaxBasis(pricing.BasisOf(addr))
			return edit.apply(o, update)
		})
	})
}

func taxAddressRequired(kind AddressKind) *problem.Error {
	return problem.Validation("taxes.address_required", "taxes need the order's "+string(kind)+" address: set it first",
		map[string]any{"field": "address", "address_type": string(kind)})
}

// taxOverride asks the order's tax override for its taxes, as the order stands.
func (s *Service) taxOverride(ctx context.Context, sess *OrderSession, fresh bool) (outsideEdit, error) {
	set, v, err := s.sessionOverrides(ctx, sess, fresh, override.Tax)
	if set == nil || err != nil {
		return outsideEdit{}, err
	}
	ctx = overrideMemo(ctx, fresh)
	if addr, kind := taxAddress(v.Order, v.LineItems); addr == nil {
		return outsideEdit{}, taxAddressRequired(kind)
	}
	var a override.TaxAnswer
	out, err := s.overrides.Call(ctx, set, override.Tax, override.Request{PublicOrderID: v.Order.PublicOrderID, Order: overrideState(v)}, &a)
	if err != nil {
		return outsideEdit{}, err
	}
	edit := outsideEdit{version: v.Order.Version}
	edit.record(override.Tax, out, func(op *schema.OutsidePricing) { op.Taxes = a.Taxes() }, func(op *schema.OutsidePricing) { op.Taxes = nil })
	return edit, nil
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
	// The tax override is asked as if the order shipped (or billed, as taxes go) there.
	asked := at
	if _, kind := taxAddress(v.Order, v.LineItems); kind == BillingAddress {
		asked.BillingAddress = &in
	} else {
		asked.ShippingAddress = &in
	}
	if at.OutsidePricing, err = s.estimateOverride(ctx, sess, v, &asked, override.Tax); err != nil {
		return nil, err
	}
	rules, err := s.loadPricingRules(ctx, s.p.DB.Read, sess.Shop, &at)
	if err != nil {
		return nil, err
	}
	p := pricing.Price(sess.Shop, &at, v.LineItems, v.SelectedShipping, rules, s.p.Clock())
	return &TaxEstimate{View: v, Basis: *at.TaxBasis, Taxes: p.Taxes, TaxTotal: p.TaxTotal, Total: p.Total}, nil
}
