// Package pricing turns an order's lines, its selected shipping line, the shop's tax zones and
// the applied discount codes into its money figures. It is pure: it reads and writes nothing, so
// an order is priced the same inside a transaction or out of one.
package pricing

import (
	"math/big"
	"slices"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
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
	// Outside says an outside system valued the code (schema.OutsidePricing): it need not be
	// one of the shop's codes, and processing redeems no use of it.
	Outside bool `json:"-"`
}

// Fee is a charge an outside system added to the order (schema.OutsideFee).
type Fee struct {
	Description string `json:"description"`
	Value       int64  `json:"value"`
	Taxable     bool   `json:"taxable"`
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
	// Fees are the outside system's charges; FeeTotal is their sum, part of Total.
	Fees     []Fee
	FeeTotal int64
	Total    int64

	// Overflow says a sum left int64: the figures above are not the order's, and no money moves
	// on them. Bounds on what enters keep valid orders far from it (service/input).
	Overflow bool `json:"-"`

	// TaxAddress is the jurisdiction of the address taxes are due at today (shipping, or billing
	// when nothing ships); AddressTaxed says whether any tax zone of the shop covers it.
	TaxAddress   *schema.TaxBasis `json:"-"`
	AddressTaxed bool             `json:"-"`
}

// Rules are the shop's rules an order is priced by.
type Rules struct {
	// TaxZones are the shop's zones in the countries of the tax basis and of the order's
	// addresses; Price picks those matching each jurisdiction.
	TaxZones []*ent.TaxZone
	// DiscountCodes are the order's applied codes that still exist, in the order applied.
	DiscountCodes []*ent.DiscountCode
}

func BasisOf(a *schema.OrderAddress) *schema.TaxBasis {
	if a == nil {
		return nil
	}
	return &schema.TaxBasis{CountryCode: a.CountryCode, ProvinceCode: a.ProvinceCode}
}

// ZonesFor are the zones taxing a jurisdiction: the country's own (no province) first, then the
// province's, each as its own tax.
func ZonesFor(zones []*ent.TaxZone, b *schema.TaxBasis) []*ent.TaxZone {
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

// DiscountCodeLapsed is why a code no longer discounts an order of that subtotal at that time,
// or nil: its dates and minimum subtotal. These are pricing conditions, re-checked on every read.
func DiscountCodeLapsed(dc *ent.DiscountCode, subtotal int64, at time.Time) *problem.Error {
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

// DiscountCodeProblem is DiscountCodeLapsed plus the usage limit. The limit is not a pricing
// condition: the order that takes a code's last use must keep its discount, so it is checked
// when a code is applied or validated, and taken atomically when the order is processed.
func DiscountCodeProblem(dc *ent.DiscountCode, subtotal int64, now time.Time) *problem.Error {
	if lapsed := DiscountCodeLapsed(dc, subtotal, now); lapsed != nil {
		return lapsed
	}
	if dc.UsageLimit > 0 && dc.UsageCount >= dc.UsageLimit {
		return UsedUp(dc.Code)
	}
	return nil
}

func UsedUp(code string) *problem.Error {
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

// Price computes the order's money figures; it reads nothing, so it can run inside a
// transaction or out of one. Discounts come first (in the order the codes were applied, each on
// what earlier ones left), then taxes on the discounted amounts, per line per tax.
func Price(sh *ent.Shop, o *ent.Order, items []*ent.LineItem, selected *schema.ShippingLine, rules Rules, now time.Time) Pricing {
	p := Pricing{Discounts: []DiscountLine{}, Taxes: []TaxLine{}, LineTaxes: map[string][]TaxLine{},
		LineDiscounts: map[string][]DiscountLine{}, ShippingTaxes: []TaxLine{}, ShippingDiscounts: []DiscountLine{}}
	// base is what each line costs after the discounts so far.
	base := make([]int64, len(items))
	var subtotal input.CheckedSum
	for i, li := range items {
		t, ok := input.LineTotal(li.Price, li.Quantity)
		p.Overflow = p.Overflow || !ok
		base[i] = t
		subtotal.Add(t)
	}
	p.Subtotal = subtotal.Value
	if p.Overflow = p.Overflow || subtotal.Overflow; p.Overflow {
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
	outside := o.OutsidePricing
	if outside == nil {
		outside = &schema.OutsidePricing{}
	}
	if outside.Discounts != nil {
		p.applyOutsideDiscounts(outside.Discounts, items, base, selected != nil)
	} else {
		p.applyDiscountCodes(rules.DiscountCodes, items, base, selected != nil, at)
	}
	var fees input.CheckedSum
	for _, f := range outside.Fees {
		p.Fees = append(p.Fees, Fee{Description: f.Description, Value: f.Value, Taxable: f.Taxable})
		fees.Add(f.Value)
	}
	p.FeeTotal = fees.Value
	p.Overflow = p.Overflow || fees.Overflow

	if outside.Taxes != nil {
		p.applyOutsideTaxes(outside.Taxes, items)
	} else {
		p.applyTaxZones(sh, o, items, base, selected != nil, rules)
	}

	addr, _ := TaxAddress(o, items)
	p.TaxAddress = BasisOf(addr)
	p.AddressTaxed = len(ZonesFor(rules.TaxZones, p.TaxAddress)) > 0
	var total input.CheckedSum
	for _, part := range []int64{p.Subtotal, -p.DiscountTotal, p.Shipping, p.TaxTotal, p.FeeTotal} {
		total.Add(part)
	}
	p.Total = total.Value
	p.Overflow = p.Overflow || subtotal.Overflow || total.Overflow || p.Total < 0
	return p
}

// TaxAddress is the address taxes are due at: the shipping address when a line ships, else the
// billing address (or the shipping address when the order has no billing address). shipping
// says which of the two it is.
func TaxAddress(o *ent.Order, items []*ent.LineItem) (addr *schema.OrderAddress, shipping bool) {
	for _, li := range items {
		if li.RequiresShipping {
			return o.ShippingAddress, true
		}
	}
	if o.BillingAddress == nil && o.ShippingAddress != nil {
		return o.ShippingAddress, true
	}
	return o.BillingAddress, false
}

// applyDiscountCodes values the shop's codes applied to the order, in the order applied, each on
// what earlier ones left of base (which it lowers); hasShipping says a shipping line is selected.
func (p *Pricing) applyDiscountCodes(codes []*ent.DiscountCode, items []*ent.LineItem, base []int64, hasShipping bool, at time.Time) {
	for _, dc := range codes {
		if DiscountCodeLapsed(dc, p.Subtotal, at) != nil {
			continue
		}
		line := DiscountLine{Code: dc.Code, Text: discountText(dc), Source: discountSource}
		if dc.Kind == discountcode.KindFreeShipping {
			line.Value = p.Shipping
			if hasShipping {
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
		p.spreadDiscount(line, items, base)
	}
}

// spreadDiscount takes line's value off the lines in proportion to what is left of each.
func (p *Pricing) spreadDiscount(line DiscountLine, items []*ent.LineItem, base []int64) {
	for i, share := range allocate(line.Value, base) {
		if share > 0 {
			base[i] -= share
			key := items[i].LineItemKey
			p.LineDiscounts[key] = append(p.LineDiscounts[key], DiscountLine{Code: line.Code, Text: line.Text, Value: share, Source: line.Source, Outside: line.Outside})
		}
	}
	p.DiscountTotal += line.Value
	p.Discounts = append(p.Discounts, line)
}

// applyTaxZones charges the taxes of the shop's zones covering the order's tax basis, per line
// per tax on what discounts left of each line (base), on the shipping, and on taxable fees.
func (p *Pricing) applyTaxZones(sh *ent.Shop, o *ent.Order, items []*ent.LineItem, base []int64, hasShipping bool, rules Rules) {
	zones := ZonesFor(rules.TaxZones, o.TaxBasis)
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
	if hasShipping {
		for j, z := range zones {
			if z.ShippingTaxable {
				v := taxOn(p.Shipping, int64(z.RatePpm), combinedShipping, included)
				totals[j].Add(v)
				p.ShippingTaxes = append(p.ShippingTaxes, TaxLine{Value: v, Name: z.Name, IsIncluded: included})
			}
		}
	}
	for _, f := range p.Fees {
		if !f.Taxable || f.Value <= 0 {
			continue
		}
		for j, z := range zones {
			totals[j].Add(taxOn(f.Value, int64(z.RatePpm), combined, included))
		}
	}
	var taxTotal input.CheckedSum
	for j, z := range zones {
		p.Overflow = p.Overflow || totals[j].Overflow
		p.Taxes = append(p.Taxes, TaxLine{Value: totals[j].Value, Name: z.Name, IsIncluded: included})
		if !included {
			taxTotal.Add(totals[j].Value)
		}
	}
	p.TaxTotal = taxTotal.Value
	p.Overflow = p.Overflow || taxTotal.Overflow
}
