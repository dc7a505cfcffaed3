package pricing

import (
	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
)

// applyOutsideDiscounts takes off what an outside system valued each code at, in its order,
// never more than is left of the lines (or of a line, when it says how much off each) and of the
// shipping. A code it left out takes nothing off.
func (p *Pricing) applyOutsideDiscounts(d *schema.OutsideDiscounts, items []*ent.LineItem, base []int64, hasShipping bool) {
	for _, c := range d.Codes {
		text := c.Text
		if text == "" {
			text = c.Code
		}
		line := DiscountLine{Code: c.Code, Text: text, Source: discountSource, Outside: true}
		if len(c.Lines) > 0 {
			for i, li := range items {
				off := min(max(c.Lines[li.LineItemKey], 0), base[i])
				if off > 0 {
					base[i] -= off
					line.Value += off
					p.LineDiscounts[li.LineItemKey] = append(p.LineDiscounts[li.LineItemKey], DiscountLine{Code: c.Code, Text: text, Value: off, Source: discountSource, Outside: true})
				}
			}
			p.DiscountTotal += line.Value
		} else {
			var left int64
			for _, b := range base {
				left += b
			}
			line.Value = min(max(c.Value, 0), left)
			p.spreadDiscount(line, items, base)
			line = p.Discounts[len(p.Discounts)-1]
			p.Discounts = p.Discounts[:len(p.Discounts)-1]
		}
		if off := min(max(c.ShippingValue, 0), p.Shipping); off > 0 && hasShipping {
			p.Shipping -= off
			line.Value += off
			p.ShippingDiscounts = append(p.ShippingDiscounts, DiscountLine{Code: c.Code, Text: text, Value: off, Source: discountSource, Outside: true})
		}
		p.Discounts = append(p.Discounts, line)
	}
}

// applyOutsideTaxes charges the taxes an outside system gave, per line, on the shipping and on
// the order, summed by name (in the order the names first appear) into the order's taxes.
// Taxes of a line the order does not hold are not charged.
func (p *Pricing) applyOutsideTaxes(t *schema.OutsideTaxes, items []*ent.LineItem) {
	var names []string
	sums := map[string]*input.CheckedSum{}
	included := map[string]bool{}
	add := func(x schema.OutsideTax) TaxLine {
		if sums[x.Name] == nil {
			names = append(names, x.Name)
			sums[x.Name] = &input.CheckedSum{}
		}
		sums[x.Name].Add(x.Value)
		included[x.Name] = included[x.Name] || x.IsIncluded
		return TaxLine{Value: x.Value, Name: x.Name, IsIncluded: x.IsIncluded}
	}
	var added input.CheckedSum
	for _, li := range items {
		key := li.LineItemKey
		for _, x := range t.Lines[key] {
			p.LineTaxes[key] = append(p.LineTaxes[key], add(x))
			if !x.IsIncluded {
				added.Add(x.Value)
			}
		}
	}
	for _, x := range t.Shipping {
		p.ShippingTaxes = append(p.ShippingTaxes, add(x))
		if !x.IsIncluded {
			added.Add(x.Value)
		}
	}
	for _, x := range t.Order {
		add(x)
		if !x.IsIncluded {
			added.Add(x.Value)
		}
	}
	for _, name := range names {
		p.Overflow = p.Overflow || sums[name].Overflow
		p.Taxes = append(p.Taxes, TaxLine{Value: sums[name].Value, Name: name, IsIncluded: included[name]})
	}
	p.TaxTotal = added.Value
	p.Overflow = p.Overflow || added.Overflow
}
