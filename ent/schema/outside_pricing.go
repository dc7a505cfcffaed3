package schema

// OutsidePricing is what an outside system that owns part of an order's pricing (an API
// override, or the shop's remote state authority) answered for it, kept on the order. Pricing
// uses each part that is set instead of working that part out itself, and works out the parts
// left nil from the shop's own rules: a shop whose tax override answers still prices its
// shipping from its zones. The outside system answered for the order as it was when asked;
// whoever asks stores its answer with the change that asked.
type OutsidePricing struct {
	// Shipping is the shipping lines offered to the order, in place of the shop's rates. The
	// order's selected_shipping stays the choice among them.
	Shipping *OutsideShipping `json:"shipping,omitempty"`
	// Taxes replace the taxes the shop's tax zones would charge.
	Taxes *OutsideTaxes `json:"taxes,omitempty"`
	// Discounts value the order's discount codes, in place of the shop's codes.
	Discounts *OutsideDiscounts `json:"discounts,omitempty"`
	// Fees are charges the outside system added to the order (a remote state authority's);
	// nil and empty both mean none.
	Fees []OutsideFee `json:"fees,omitempty"`
}

// OutsideShipping is the shipping lines an outside system offers an order.
type OutsideShipping struct {
	Lines []ShippingLine `json:"lines"`
}

// OutsideTax is one tax an outside system charged. IsIncluded taxes are already inside the
// prices and are shown, not added.
type OutsideTax struct {
	Name       string `json:"name"`
	Value      int64  `json:"value"`
	IsIncluded bool   `json:"is_included"`
}

// OutsideTaxes are an order's taxes as an outside system charged them: per line (by
// line_item_key), on the shipping, and on the order as a whole (for a system that answers only
// totals, or taxes its fees).
type OutsideTaxes struct {
	Lines    map[string][]OutsideTax `json:"lines,omitempty"`
	Shipping []OutsideTax            `json:"shipping,omitempty"`
	Order    []OutsideTax            `json:"order,omitempty"`
}

// OutsideDiscounts value an order's discount codes: a code the outside system left out takes
// nothing off.
type OutsideDiscounts struct {
	Codes []OutsideDiscount `json:"codes"`
}

// OutsideDiscount is what one code takes off: Value off the lines (spread over them in
// proportion, unless Lines says how much off each, by line_item_key) and ShippingValue off the
// shipping. Neither takes off more than there is.
type OutsideDiscount struct {
	Code          string           `json:"code"`
	Text          string           `json:"text"`
	Value         int64            `json:"value"`
	ShippingValue int64            `json:"shipping_value"`
	Lines         map[string]int64 `json:"lines,omitempty"`
}

// OutsideFee is a charge added to an order; a taxable fee is taxed like a line by the shop's
// tax zones (an outside system that charges taxes itself taxes its fees in OutsideTaxes.Order).
type OutsideFee struct {
	Description string `json:"description"`
	Value       int64  `json:"value"`
	Taxable     bool   `json:"taxable"`
}
