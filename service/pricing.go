package service

import (
	"context"
	"math/big"
	"slices"
	"strconv"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// TaxLine is one tax on an order, a line or its shipping. IsIncluded taxes are already inside
// the prices (the shop's prices_include_tax) and are shown, not added.
type TaxLine struct {
	Value      int64  `json:"value"`
	Name       string `json:"name"`
	IsIncluded bool   `json:"is_included"`
}

// DiscountLine is money off an order, a line or its shipping, from one discount code.
type DiscountLine struct {
	Code   string `json:"code"`
	Text   string `json:"text"`
	Value  int64  `json:"value"`
	Source string `json:"source"`
}

// discountSource is the source of every discount line: only discount codes make them.
const discountSource = "discount_code"

// Pricing is every money figure of an order. It is derived on each read from the lines, the
// selected shipping line, the applied discount codes and the shop's tax zones; none of it is stored.
type Pricing struct {
	Subtotal int64
	// Shipping is the selected shipping line's amount after shipping discounts.
	Shipping int64
	// Discounts has one line per applied code whose conditions hold, valued at everything it
	// takes off (lines and shipping). DiscountTotal is the part taken off the lines only: the
	// shipping part is already out of Shipping.
	Discounts         []DiscountLine
	DiscountTotal     int64
	Taxes             []TaxLine
	TaxTotal          int64 // taxes added to the total (not those included in prices)
	LineTaxes         map[string][]TaxLine
	LineDiscounts     map[string][]DiscountLine
	ShippingTaxes     []TaxLine
	ShippingDiscounts []DiscountLine
	Total             int64

	// overflow says a sum left int64: the figures above are not the order's, and no money moves
	// on them. Bounds on what enters keep valid orders far from it (service/bounds.go).
	overflow bool

	// taxAddress is the jurisdiction of the address taxes are due at today (shipping, or billing
	// when nothing ships); addressTaxed says whether any tax zone of the shop covers it.
	taxAddress   *schema.TaxBasis
	addressTaxed bool
}

// pricingRules are the shop's rules an order is priced by.
type pricingRules struct {
	// taxZones are the shop's zones in the countries of the tax basis and of the order's
	// addresses; priceOrder picks those matching each jurisdiction.
	taxZones []*ent.TaxZone
	// discountCodes are the order's applied codes that still exist, in the order applied.
	discountCodes []*ent.DiscountCode
}

func basisOf(a *schema.OrderAddress) *schema.TaxBasis {
	if a == nil {
		return nil
	}
	return &schema.TaxBasis{CountryCode: a.CountryCode, ProvinceCode: a.ProvinceCode}
}

// loadPricingRules reads what priceOrder needs beyond the order itself, through c (a
// transaction's client inside one).
func (s *Service) loadPricingRules(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order) (pricingRules, error) {
	var rules pricingRules
	var countries []string
	for _, b := range []*schema.TaxBasis{o.TaxBasis, basisOf(o.ShippingAddress), basisOf(o.BillingAddress)} {
		if b != nil && b.CountryCode != "" && !slices.Contains(countries, b.CountryCode) {
			countries = append(countries, b.CountryCode)
		}
	}
	if len(countries) > 0 {
		shop, err := s.Shops.Rules(ctx, c, sh.ID)
		if err != nil {
			return rules, err
		}
		for _, z := range shop.TaxZones {
			if slices.Contains(countries, z.CountryCode) {
				rules.taxZones = append(rules.taxZones, z)
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
					rules.discountCodes = append(rules.discountCodes, dc)
				}
			}
		}
	}
	return rules, nil
}

// zonesFor are the zones taxing a jurisdiction: the country's own (no province) first, then the
// province's, each as its own tax.
func zonesFor(zones []*ent.TaxZone, b *schema.TaxBasis) []*ent.TaxZone {
	if b == nil {
		return nil
	}
	var country, province []*ent.TaxZone
	for _, z := range zones {
		switch {
		case z.CountryCode != b.CountryCode:
		case z.ProvinceCode == "":
			country = append(country, z)
		case z.ProvinceCode == b.ProvinceCode:
			province = append(province, z)
		}
	}
	return append(country, province...)
}

// taxAddress is the address taxes are due at: the shipping address when a line ships, else the
// billing address (or the shipping address when the order has no billing address).
func taxAddress(o *ent.Order, items []*ent.LineItem) (*schema.OrderAddress, AddressKind) {
	for _, li := range items {
		if li.RequiresShipping {
			return o.ShippingAddress, ShippingAddress
		}
	}
	if o.BillingAddress == nil && o.ShippingAddress != nil {
		return o.ShippingAddress, ShippingAddress
	}
	return o.BillingAddress, BillingAddress
}

// mulDivHalfEven is a*b/c rounded half to even, for non-negative a and b and positive c;
// the product is taken in big integers, so a line of 100000 units at any price cannot overflow.
func mulDivHalfEven(a, b, c int64) int64 {
	num := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
	den := big.NewInt(c)
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	switch r.Lsh(r, 1).Cmp(den) {
	case 1:
		q.Add(q, big.NewInt(1))
	case 0:
		if q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	return q.Int64()
}

// allocate splits amount over the weights in proportion (largest remainder), so that the shares
// add up to amount exactly; ties go to the earlier line.
func allocate(amount int64, weights []int64) []int64 {
	shares := make([]int64, len(weights))
	var total int64
	for _, w := range weights {
		total += w
	}
	if total == 0 || amount == 0 {
		return shares
	}
	rems := make([]*big.Int, len(weights))
	left := amount
	for i, w := range weights {
		num := new(big.Int).Mul(big.NewInt(amount), big.NewInt(w))
		q, r := new(big.Int).QuoRem(num, big.NewInt(total), new(big.Int))
		shares[i], rems[i] = q.Int64(), r
		left -= shares[i]
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return rems[b].Cmp(rems[a]) })
	for _, i := range order[:left] {
		shares[i]++
	}
	return shares
}

// discountCodeLapsed is why a code no longer discounts an order of that subtotal at that time,
// or nil: its dates and minimum subtotal. These are pricing conditions, re-checked on every read.
func discountCodeLapsed(dc *ent.DiscountCode, subtotal int64, at time.Time) *problem.Error {
	details := map[string]any{"field": "code", "code": dc.Code}
	switch {
	case dc.StartsAt != nil && at.Before(*dc.StartsAt):
		details["starts_at"] = dc.StartsAt.UTC().Format(time.RFC3339)
		return problem.Validation("discount.not_started", "discount code "+dc.Code+" is not valid yet", details)
	case dc.EndsAt != nil && !at.Before(*dc.EndsAt):
		details["ends_at"] = dc.EndsAt.UTC().Format(time.RFC3339)
		return problem.Validation("discount.expired", "discount code "+dc.Code+" has expired", details)
	case subtotal < dc.MinimumSubtotal:
		details["minimum_subtotal"] = dc.MinimumSubtotal
		return problem.Validation("discount.minimum_not_met", "discount code "+dc.Code+" needs a subtotal of at least "+strconv.FormatInt(dc.MinimumSubtotal, 10), details)
	}
	return nil
}

// discountCodeProblem is discountCodeLapsed plus the usage limit. The limit is not a pricing
// condition: the order that takes a code's last use must keep its discount, so it is checked
// when a code is applied or validated, and taken atomically when the order is processed.
func discountCodeProblem(dc *ent.DiscountCode, subtotal int64, now time.Time) *problem.Error {
	if lapsed := discountCodeLapsed(dc, subtotal, now); lapsed != nil {
		return lapsed
	}
	if dc.UsageLimit > 0 && dc.UsageCount >= dc.UsageLimit {
		return usedUp(dc.Code)
	}
	return nil
}

func usedUp(code string) *problem.Error {
	return problem.Validation("discount.usage_limit_reached", "discount code "+code+" has been used up", map[string]any{"field": "code", "code": code})
}

func discountText(dc *ent.DiscountCode) string {
	if dc.Text != "" {
		return dc.Text
	}
	return dc.Code
}

// taxOn is one tax on a base. Added taxes are base*rate; taxes included in the price are
// extracted with the combined rate of every tax in it: base*rate/(1+combined).
func taxOn(base, ratePPM, combinedPPM int64, included bool) int64 {
	if included {
		return mulDivHalfEven(base, ratePPM, 1_000_000+combinedPPM)
	}
	return mulDivHalfEven(base, ratePPM, 1_000_000)
}

// priceOrder computes the order's money figures; it reads nothing, so it can run inside a
// transaction or out of one. Discounts come first (in the order the codes were applied, each on
// what earlier ones left), then taxes on the discounted amounts, per line per tax.
func priceOrder(sh *ent.Shop, o *ent.Order, items []*ent.LineItem, selected *schema.ShippingLine, rules pricingRules, now time.Time) Pricing {
	p := Pricing{Discounts: []DiscountLine{}, Taxes: []TaxLine{}, LineTaxes: map[string][]TaxLine{},
		LineDiscounts: map[string][]DiscountLine{}, ShippingTaxes: []TaxLine{}, ShippingDiscounts: []DiscountLine{}}
	// base is what each line costs after the discounts so far.
	base := make([]int64, len(items))
	var subtotal input.CheckedSum
	for i, li := range items {
		t, ok := input.LineTotal(li.Price, li.Quantity)
		p.overflow = p.overflow || !ok
		base[i] = t
		subtotal.Add(t)
	}
	p.Subtotal = subtotal.Value
	if p.overflow = p.overflow || subtotal.Overflow; p.overflow {
		return p
	}
	if selected != nil {
		p.Shipping = selected.Amount
	}

	// A processed order keeps the discounts it was processed with, whatever the date today.
	at := now
	if o.ProcessedAt != nil {
		at = *o.ProcessedAt
	}
	for _, dc := range rules.discountCodes {
		if discountCodeLapsed(dc, p.Subtotal, at) != nil {
			continue
		}
		line := DiscountLine{Code: dc.Code, Text: discountText(dc), Source: discountSource}
		if dc.Kind == discountcode.KindFreeShipping {
			line.Value = p.Shipping
			if selected != nil {
				p.ShippingDiscounts = append(p.ShippingDiscounts, line)
			}
			p.Shipping = 0
			p.Discounts = append(p.Discounts, line)
			continue
		}
		var left int64
		for _, b := range base {
			left += b
		}
		if dc.Kind == discountcode.KindPercentage {
			line.Value = mulDivHalfEven(left, dc.Value, 10_000)
		} else {
			line.Value = min(dc.Value, left)
		}
		for i, share := range allocate(line.Value, base) {
			if share > 0 {
				base[i] -= share
				key := items[i].LineItemKey
				p.LineDiscounts[key] = append(p.LineDiscounts[key], DiscountLine{Code: dc.Code, Text: line.Text, Value: share, Source: discountSource})
			}
		}
		p.DiscountTotal += line.Value
		p.Discounts = append(p.Discounts, line)
	}

	zones := zonesFor(rules.taxZones, o.TaxBasis)
	included := sh.PricesIncludeTax
	var combined, combinedShipping int64
	for _, z := range zones {
		combined += int64(z.RatePpm)
		if z.ShippingTaxable {
			combinedShipping += int64(z.RatePpm)
		}
	}
	totals := make([]input.CheckedSum, len(zones))
	for i, li := range items {
		if !li.Taxable {
			continue
		}
		for j, z := range zones {
			v := taxOn(base[i], int64(z.RatePpm), combined, included)
			totals[j].Add(v)
			p.LineTaxes[li.LineItemKey] = append(p.LineTaxes[li.LineItemKey], TaxLine{Value: v, Name: z.Name, IsIncluded: included})
		}
	}
	if selected != nil {
		for j, z := range zones {
			if z.ShippingTaxable {
				v := taxOn(p.Shipping, int64(z.RatePpm), combinedShipping, included)
				totals[j].Add(v)
				p.ShippingTaxes = append(p.ShippingTaxes, TaxLine{Value: v, Name: z.Name, IsIncluded: included})
			}
		}
	}
	var taxTotal input.CheckedSum
	for j, z := range zones {
		p.overflow = p.overflow || totals[j].Overflow
		p.Taxes = append(p.Taxes, TaxLine{Value: totals[j].Value, Name: z.Name, IsIncluded: included})
		if !included {
			taxTotal.Add(totals[j].Value)
		}
	}
	p.TaxTotal = taxTotal.Value

	addr, _ := taxAddress(o, items)
	p.taxAddress = basisOf(addr)
	p.addressTaxed = len(zonesFor(rules.taxZones, p.taxAddress)) > 0
	var total input.CheckedSum
	for _, part := range []int64{p.Subtotal, -p.DiscountTotal, p.Shipping, p.TaxTotal} {
		total.Add(part)
	}
	p.Total = total.Value
	p.overflow = p.overflow || subtotal.Overflow || taxTotal.Overflow || total.Overflow || p.Total < 0
	return p
}

// checkTaxesCurrent is process_order's rule that the order's taxes were generated for the
// address it ships (or bills) to. An order no tax zone of the shop covers has nothing to
// generate and passes without Generate Taxes; once taxes were generated, they must have been
// generated for the current address, whatever its zones.
func checkTaxesCurrent(v *OrderView) error {
	basis, current := v.Order.TaxBasis, v.Pricing.taxAddress
	switch {
	case basis == nil && !v.Pricing.addressTaxed:
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
// code on an order with nothing to ship saved nothing).
func discountingCodes(v *OrderView) []string {
	var codes []string
	for _, d := range v.Pricing.Discounts {
		if d.Value > 0 {
			codes = append(codes, d.Code)
		}
	}
	return codes
}

// redeemDiscountCodes takes one use of each code applied to the order, inside process_order's
// reserving transaction; a code past its dates, minimum or usage limit is a 422. Only the codes
// the view was priced with are redeemed: a code that stopped holding was not in the total. The
// use is taken by a conditional UPDATE (usage_count < usage_limit), so two orders racing for a
// code's last use cannot both get it; the loser's 422 asks the shopper to remove the code.
// The codes redeemed are recorded on the order by update, the reservation's update of it.
func redeemDiscountCodes(ctx context.Context, tx *ent.Tx, v *OrderView, now time.Time, update *ent.OrderUpdate) error {
	codes := discountingCodes(v)
	for _, code := range codes {
		dc, err := tx.DiscountCode.Query().Where(discountcode.ShopID(v.Shop.ID), discountcode.Code(code)).Only(ctx)
		if ent.IsNotFound(err) {
			return unknownDiscountCode(code)
		}
		if err != nil {
			return err
		}
		if lapsed := discountCodeLapsed(dc, v.Pricing.Subtotal, now); lapsed != nil {
			return lapsed
		}
		n, err := tx.DiscountCode.Update().Where(discountcode.ID(dc.ID),
			discountcode.Or(discountcode.UsageLimit(0), predicate.DiscountCode(sql.FieldsLT(discountcode.FieldUsageCount, discountcode.FieldUsageLimit)))).
			AddUsageCount(1).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return usedUp(code)
		}
	}
	if len(codes) > 0 || len(v.Order.RedeemedDiscountCodes) > 0 {
		update.SetRedeemedDiscountCodes(codes)
	}
	return nil
}

// releaseDiscountCodes gives back the uses redeemDiscountCodes took (the order records which),
// when processing fails or the order is cancelled.
func releaseDiscountCodes(ctx context.Context, tx *ent.Tx, v *OrderView) error {
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
