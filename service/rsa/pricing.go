package rsa

import (
	"fmt"
	"strconv"

	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
)

// The RSA owns the order's pricing beyond its lines: the shipping options it offers, the taxes
// and discounts on each line and on the shipping, and its fees are kept as the order's outside
// pricing (schema.OutsidePricing), which the shopper's answer is priced from instead of the
// shop's zones and codes.

// shippingLines are the answered shipping options as the order offers them; a line's id is its
// position, so that the shopper may choose it by id or index alike.
func shippingLines(st *OrderState, cur string) ([]schema.ShippingLine, error) {
	lines := []schema.ShippingLine{}
	for i, so := range st.ShippingOptions {
		cost, err := minor(so.Cost, cur)
		if err == nil && cost < 0 {
			err = fmt.Errorf("is negative")
		}
		if err != nil {
			return nil, fmt.Errorf("shipping_options[%d].cost: %w", i, err)
		}
		if input.TooLong(so.RateName, input.MaxShortText) || input.TooLong(so.Code, input.MaxShortText) {
			return nil, fmt.Errorf("shipping_options[%d] has a text over %d characters", i, input.MaxShortText)
		}
		lines = append(lines, schema.ShippingLine{ID: strconv.Itoa(i), Description: so.RateName, Amount: cost, Code: so.Code})
	}
	return lines, nil
}

// outsideTax reads a tax: unit_amount per unit of a line (times quantity), the whole tax of the
// shipping (quantity 1).
func outsideTax(t Tax, quantity int, cur string) (schema.OutsideTax, error) {
	if input.TooLong(t.Name, input.MaxShortText) {
		return schema.OutsideTax{}, fmt.Errorf("a tax name over %d characters", input.MaxShortText)
	}
	unit, err := minor(t.UnitAmount, cur)
	if err != nil {
		return schema.OutsideTax{}, fmt.Errorf("tax %q: %w", t.Name, err)
	}
	value, ok := input.LineTotal(unit, quantity)
	if !ok || unit < 0 {
		return schema.OutsideTax{}, fmt.Errorf("tax %q is out of bounds", t.Name)
	}
	return schema.OutsideTax{Name: t.Name, Value: value}, nil
}

// answeredPricing sets r's shipping choice and outside pricing from the answer.
func answeredPricing(r *orders.RemoteOrder, st *OrderState, cur string) error {
	lines, err := shippingLines(st, cur)
	if err != nil {
		return err
	}
	out := &schema.OutsidePricing{From: schema.OutsideFromRSA, Taxes: &schema.OutsideTaxes{Lines: map[string][]schema.OutsideTax{}},
		Discounts: &schema.OutsideDiscounts{Codes: []schema.OutsideDiscount{}}, Fees: []schema.OutsideFee{}}
	if sel := st.SelectedShipping; sel != nil {
		cost, err := minor(sel.Cost, cur)
		if err == nil && cost < 0 {
			err = fmt.Errorf("is negative")
		}
		if err != nil {
			return fmt.Errorf("selected_shipping.cost: %w", err)
		}
		if input.TooLong(sel.RateName, input.MaxShortText) || input.TooLong(sel.Code, input.MaxShortText) || len(sel.Taxes) > input.MaxListEntries {
			return fmt.Errorf("selected_shipping is out of bounds")
		}
		chosen := schema.ShippingLine{ID: strconv.Itoa(len(lines)), Description: sel.RateName, Amount: cost, Code: sel.Code}
		found := false
		for _, l := range lines {
			if !found && l.Code == sel.Code && l.Description == sel.RateName && l.Amount == cost {
				chosen, found = l, true
			}
		}
		if !found {
			// A choice the RSA made among no option it listed is still the order's choice.
			lines = append(lines, chosen)
		}
		r.SelectedShipping = &chosen
		for _, t := range sel.Taxes {
			tax, err := outsideTax(t, 1, cur)
			if err != nil {
				return fmt.Errorf("selected_shipping: %w", err)
			}
			out.Taxes.Shipping = append(out.Taxes.Shipping, tax)
		}
	}
	out.Shipping = &schema.OutsideShipping{Lines: lines}
	codes := map[string]int{}
	for i, l := range st.LineItems {
		if len(l.Taxes) > input.MaxListEntries || len(l.Discounts) > input.MaxListEntries {
			return fmt.Errorf("line_items[%d] has over %d taxes or discounts", i, input.MaxListEntries)
		}
		for _, t := range l.Taxes {
			tax, err := outsideTax(t, l.Quantity, cur)
			if err != nil {
				return fmt.Errorf("line_items[%d]: %w", i, err)
			}
			out.Taxes.Lines[l.LineItemKey] = append(out.Taxes.Lines[l.LineItemKey], tax)
		}
		for _, d := range l.Discounts {
			if input.TooLong(d.Code, input.MaxShortText) || input.TooLong(d.Text, input.MaxShortText) {
				return fmt.Errorf("line_items[%d]: a discount text over %d characters", i, input.MaxShortText)
			}
			unit, err := minor(d.UnitAmount, cur)
			off, ok := input.LineTotal(unit, l.Quantity)
			if err != nil || !ok || unit < 0 {
				return fmt.Errorf("line_items[%d]: discount %q is out of bounds", i, d.Code)
			}
			at, seen := codes[d.Code]
			if !seen {
				at = len(out.Discounts.Codes)
				codes[d.Code] = at
				out.Discounts.Codes = append(out.Discounts.Codes, schema.OutsideDiscount{Code: d.Code, Text: d.Text, Lines: map[string]int64{}})
			}
			c := &out.Discounts.Codes[at]
			c.Lines[l.LineItemKey] += off
			c.Value += off
		}
	}
	for i, f := range st.Fees {
		v, err := minor(f.Value, cur)
		if err != nil {
			return fmt.Errorf("fees[%d].value: %w", i, err)
		}
		if input.TooLong(f.Description, input.MaxShortText) {
			return fmt.Errorf("fees[%d].description is over %d characters", i, input.MaxShortText)
		}
		out.Fees = append(out.Fees, schema.OutsideFee{Description: f.Description, Value: v, Taxable: f.Taxable})
	}
	r.Outside = out
	return nil
}

// stateFees sets the fees of the state sent from the order's view.
func stateFees(st *OrderState, v *orders.OrderView) {
	for _, f := range v.Pricing.Fees {
		st.Fees = append(st.Fees, Fee{Description: f.Description, Value: major(f.Value, v.Order.Currency), Taxable: f.Taxable})
	}
}
