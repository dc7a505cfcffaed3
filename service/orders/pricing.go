package orders

import (
	"context"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
)

// loadPricingRules reads what pricing.Price needs beyond the order itself, through c (a
// transaction's client inside one).
func (s *Service) loadPricingRules(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order) (pricing.Rules, error) {
	var rules pricing.Rules
	var countries []string
	for _, b := range []*schema.TaxBasis{o.TaxBasis, pricing.BasisOf(o.ShippingAddress), pricing.BasisOf(o.BillingAddress)} {
		if b != nil && b.CountryCode != "" && !slices.Contains(countries, b.CountryCode) {
			countries = append(countries, b.CountryCode)
		}
	}
	if len(countries) > 0 {
		shop, err := s.shops.Rules(ctx, c, sh.ID)
		if err != nil {
			return rules, err
		}
		for _, z := range shop.TaxZones {
			if slices.Contains(countries, z.CountryCode) {
				rules.TaxZones = append(rules.TaxZones, z)
			}
		}
	}
	if len(o.DiscountCodes) > 0 {
		codes, err := c.DiscountCode.Query().Where(discountcode.ShopID(sh.ID), discountcode.CodeIn(o.DiscountCodes...)).All(ctx)
		if err != nil {
			return rules, err
		}
		for _, code := range o.DiscountCodes {
			for _, dc := range codes {
				if dc.Code == code {
					rules.DiscountCodes = append(rules.DiscountCodes, dc)
				}
			}
		}
	}
	return rules, nil
}

// taxAddress is the address taxes are due at, and which of the order's addresses it is
// (pricing.TaxAddress).
func taxAddress(o *ent.Order, items []*ent.LineItem) (*schema.OrderAddress, AddressKind) {
	if addr, shipping := pricing.TaxAddress(o, items); shipping {
		return addr, ShippingAddress
	} else {
		return addr, BillingAddress
	}
}

// CheckTaxesCurrent is process_order's rule that the order's taxes were generated for the
// address it ships (or bills) to. An order no tax zone of the shop covers has nothing to
// generate and passes without Generate Taxes; once taxes were generated, they must have been
// generated for the current address, whatever its zones.
func CheckTaxesCurrent(v *OrderView) error {
	basis, current := v.Order.TaxBasis, v.Pricing.TaxAddress
	switch {
	case basis == nil && !v.Pricing.AddressTaxed:
		return nil
	case basis == nil:
		return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "taxes.not_generated",
			Message: "taxes have not been generated for this order: call Generate Taxes", Details: map[string]any{
				"country_code": current.CountryCode, "province_code": current.ProvinceCode}}
	case current == nil || *current != *basis:
		details := map[string]any{"tax_basis": *basis}
		if current != nil {
			details["country_code"], details["province_code"] = current.CountryCode, current.ProvinceCode
		}
		return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "taxes.out_of_date",
			Message: "taxes were generated for another address: call Generate Taxes again", Details: details}
	}
	return nil
}

// discountingCodes are the codes the view's pricing took money off with: the only ones
// processing redeems (a code whose conditions failed was priced at nothing, and a free-shipping
// code on an order with nothing to ship saved nothing). A code an outside system valued is its
// to count, not one of the shop's.
func discountingCodes(v *OrderView) []string {
	var codes []string
	for _, d := range v.Pricing.Discounts {
		if d.Value > 0 && !d.Outside {
			codes = append(codes, d.Code)
		}
	}
	return codes
}

// RedeemDiscountCodes takes one use of each code applied to the order, inside process_order's
// reserving transaction; a code past its dates, minimum or usage limit is a 422. Only the codes
// the view was priced with are redeemed: a code that stopped holding was not in the total. The
// use is taken by a conditional UPDATE (usage_count < usage_limit), so two orders racing for a
// code's last use cannot both get it; the loser's 422 asks the shopper to remove the code.
// The codes redeemed are recorded on the order by update, the reservation's update of it.
func RedeemDiscountCodes(ctx context.Context, tx *ent.Tx, v *OrderView, now time.Time, update *ent.OrderUpdate) error {
	codes := discountingCodes(v)
	for _, code := range codes {
		dc, err := tx.DiscountCode.Query().Where(discountcode.ShopID(v.Shop.ID), discountcode.Code(code)).Only(ctx)
		if ent.IsNotFound(err) {
			return unknownDiscountCode(code)
		}
		if err != nil {
			return err
		}
		if lapsed := pricing.DiscountCodeLapsed(dc, v.Pricing.Subtotal, now); lapsed != nil {
			return lapsed
		}
		n, err := tx.DiscountCode.Update().Where(discountcode.ID(dc.ID),
			discountcode.Or(discountcode.UsageLimit(0), predicate.DiscountCode(sql.FieldsLT(discountcode.FieldUsageCount, discountcode.FieldUsageLimit)))).
			AddUsageCount(1).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return pricing.UsedUp(code)
		}
	}
	if len(codes) > 0 || len(v.Order.RedeemedDiscountCodes) > 0 {
		update.SetRedeemedDiscountCodes(codes)
	}
	return nil
}

// ReleaseDiscountCodes gives back the uses RedeemDiscountCodes took (the order records which),
// when processing fails or the order is cancelled.
func ReleaseDiscountCodes(ctx context.Context, tx *ent.Tx, v *OrderView) error {
	for _, code := range v.Order.RedeemedDiscountCodes {
		if err := tx.DiscountCode.Update().Where(discountcode.ShopID(v.Shop.ID), discountcode.Code(code), discountcode.UsageCountGT(0)).
			AddUsageCount(-1).Exec(ctx); err != nil {
			return err
		}
	}
	if len(v.Order.RedeemedDiscountCodes) == 0 {
		return nil
	}
	return tx.Order.Update().Where(order.ID(v.Order.ID)).ClearRedeemedDiscountCodes().Exec(ctx)
}
