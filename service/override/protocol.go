package override

import (
	"errors"
	"fmt"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/pricing"
)

// Request is the body of every override call: the order as it stands (or as the shopper's
// change would leave it), and what the type asks about.
type Request struct {
	OverrideType  string     `json:"override_type"`
	PublicOrderID string     `json:"public_order_id"`
	Order         OrderState `json:"order"`
	// address_validate: which address, and the address to validate.
	AddressType string               `json:"address_type,omitempty"`
	Address     *schema.OrderAddress `json:"address,omitempty"`
	// discount: the code to validate and value.
	Code string `json:"code,omitempty"`
	// inventory: initial (the checkout opens) or final (the order is about to be processed).
	Stage string `json:"stage,omitempty"`
}

// OrderState is the order an override is asked about.
type OrderState struct {
	Currency         string               `json:"currency"`
	LineItems        []LineItem           `json:"line_items"`
	ShippingAddress  *schema.OrderAddress `json:"shipping_address"`
	BillingAddress   *schema.OrderAddress `json:"billing_address"`
	SelectedShipping *schema.ShippingLine `json:"selected_shipping"`
	DiscountCodes    []string             `json:"discount_codes"`
	Subtotal         int64                `json:"subtotal"`
	// ShippingTotal is the selected shipping line's amount after shipping discounts;
	// DiscountTotal what discounts take off the lines.
	ShippingTotal int64 `json:"shipping_total"`
	DiscountTotal int64 `json:"discount_total"`
}

// LineItem is one line of the order. Discount is what discounts take off the line.
type LineItem struct {
	LineItemKey      string `json:"line_item_key"`
	ProductID        string `json:"product_id"`
	VariantID        string `json:"variant_id"`
	SKU              string `json:"sku"`
	Title            string `json:"title"`
	Quantity         int    `json:"quantity"`
	Price            int64  `json:"price"`
	Discount         int64  `json:"discount"`
	Taxable          bool   `json:"taxable"`
	RequiresShipping bool   `json:"requires_shipping"`
	Weight           int    `json:"weight"`
	WeightUnit       string `json:"weight_unit"`
}

// StateOf is the order's state for an override; p is its pricing (nil: not priced yet).
func StateOf(o *ent.Order, items []*ent.LineItem, p *pricing.Pricing) OrderState {
	st := OrderState{Currency: o.Currency, LineItems: make([]LineItem, len(items)), ShippingAddress: o.ShippingAddress,
		BillingAddress: o.BillingAddress, SelectedShipping: o.SelectedShipping, DiscountCodes: o.DiscountCodes}
	if st.DiscountCodes == nil {
		st.DiscountCodes = []string{}
	}
	for i, li := range items {
		st.LineItems[i] = LineItem{LineItemKey: li.LineItemKey, ProductID: li.ProductID, VariantID: li.VariantID, SKU: li.Sku,
			Title: li.Title, Quantity: li.Quantity, Price: li.Price, Taxable: li.Taxable, RequiresShipping: li.RequiresShipping,
			Weight: li.Weight, WeightUnit: li.WeightUnit}
		if p != nil {
			for _, d := range p.LineDiscounts[li.LineItemKey] {
				st.LineItems[i].Discount += d.Value
			}
		}
		st.Subtotal += li.Price * int64(li.Quantity)
	}
	if p != nil {
		st.Subtotal, st.ShippingTotal, st.DiscountTotal = p.Subtotal, p.Shipping, p.DiscountTotal
	} else if o.SelectedShipping != nil {
		st.ShippingTotal = o.SelectedShipping.Amount
	}
	return st
}

var errAmount = fmt.Errorf("an amount is negative or over %d", input.MaxAmount)

func amountOK(v int64) bool { return v >= 0 && v <= input.MaxAmount }

func textOK(s string, max int) bool { return len(s) <= max }

// AddressAnswer is address_validate's answer: valid, or not with a message for the shopper; a
// valid answer may give the address back corrected (it then replaces the one sent).
type AddressAnswer struct {
	Valid   *bool                `json:"valid"`
	Message string               `json:"message"`
	Address *schema.OrderAddress `json:"address"`
}

func (a *AddressAnswer) check() error {
	if a.Valid == nil {
		return errors.New("valid is missing")
	}
	if !textOK(a.Message, input.MaxShortText) {
		return errors.New("message is too long")
	}
	return nil
}

// ShippingAnswer is shipping's answer: the shipping lines offered, in place of the shop's rates.
type ShippingAnswer struct {
	ShippingLines []schema.ShippingLine `json:"shipping_lines"`
}

func (a *ShippingAnswer) check() error {
	if a.ShippingLines == nil {
		return errors.New("shipping_lines is missing")
	}
	if len(a.ShippingLines) > input.MaxListEntries {
		return fmt.Errorf("more than %d shipping lines", input.MaxListEntries)
	}
	seen := map[string]bool{}
	for _, l := range a.ShippingLines {
		if l.ID == "" || seen[l.ID] {
			return errors.New("a shipping line has no id, or one another line has")
		}
		seen[l.ID] = true
		if !amountOK(l.Amount) {
			return errAmount
		}
		if !textOK(l.ID, input.MaxShortText) || !textOK(l.Description, input.MaxShortText) || !textOK(l.Code, input.MaxShortText) {
			return errors.New("a shipping line's text is too long")
		}
	}
	return nil
}

// DiscountAnswer is discount's answer: whether the code applies to the order (a message for
// the shopper when not), and what it takes off: Value off the lines (spread in proportion, or by
// Lines, per line_item_key) and ShippingValue off the shipping.
type DiscountAnswer struct {
	Valid         *bool            `json:"valid"`
	Message       string           `json:"message"`
	Text          string           `json:"text"`
	Value         int64            `json:"value"`
	ShippingValue int64            `json:"shipping_value"`
	Lines         map[string]int64 `json:"lines"`
}

func (a *DiscountAnswer) check() error {
	if a.Valid == nil {
		return errors.New("valid is missing")
	}
	if !textOK(a.Message, input.MaxShortText) || !textOK(a.Text, input.MaxShortText) {
		return errors.New("message or text is too long")
	}
	if !amountOK(a.Value) || !amountOK(a.ShippingValue) {
		return errAmount
	}
	if len(a.Lines) > input.MaxListEntries*10 {
		return errors.New("too many lines")
	}
	for _, v := range a.Lines {
		if !amountOK(v) {
			return errAmount
		}
	}
	return nil
}

// Discount is the answer as the order keeps it.
func (a *DiscountAnswer) Discount(code string) schema.OutsideDiscount {
	return schema.OutsideDiscount{Code: code, Text: a.Text, Value: a.Value, ShippingValue: a.ShippingValue, Lines: a.Lines}
}

// InventoryAnswer is inventory's answer: pass, or fail with the items short.
type InventoryAnswer struct {
	Result      string          `json:"result"`
	Reason      string          `json:"reason"`
	FailedItems []InventoryItem `json:"failed_items"`
}

// InventoryItem is a variant the order wants more of than there is.
type InventoryItem struct {
	PlatformVariantID string   `json:"platform_variant_id"`
	AvailableQuantity int      `json:"available_quantity"`
	RequestedQuantity int      `json:"requested_quantity"`
	LineItemKeys      []string `json:"line_item_keys"`
}

func (a *InventoryAnswer) check() error {
	if a.Result != "pass" && a.Result != "fail" {
		return errors.New("result must be pass or fail")
	}
	if !textOK(a.Reason, input.MaxShortText) || len(a.FailedItems) > input.MaxListEntries*10 {
		return errors.New("reason or failed_items is too long")
	}
	for _, it := range a.FailedItems {
		if !textOK(it.PlatformVariantID, input.MaxShortText) || len(it.LineItemKeys) > input.MaxListEntries*10 ||
			it.AvailableQuantity < 0 || it.RequestedQuantity < 0 || it.AvailableQuantity > input.MaxInventory || it.RequestedQuantity > input.MaxInventory {
			return errors.New("a failed item is out of bounds")
		}
	}
	return nil
}

// TaxAnswer is tax's answer: the taxes per line (by line_item_key), on the shipping, and on the
// order as a whole, each {name, value, is_included}.
type TaxAnswer struct {
	LineTaxes     map[string][]schema.OutsideTax `json:"line_taxes"`
	ShippingTaxes []schema.OutsideTax            `json:"shipping_taxes"`
	OrderTaxes    []schema.OutsideTax            `json:"order_taxes"`
}

func (a *TaxAnswer) check() error {
	if a.LineTaxes == nil && a.ShippingTaxes == nil && a.OrderTaxes == nil {
		return errors.New("line_taxes, shipping_taxes and order_taxes are all missing")
	}
	n := len(a.ShippingTaxes) + len(a.OrderTaxes)
	all := append(append([]schema.OutsideTax{}, a.ShippingTaxes...), a.OrderTaxes...)
	for _, lines := range a.LineTaxes {
		n += len(lines)
		all = append(all, lines...)
	}
	if n > input.MaxListEntries*10 {
		return errors.New("too many taxes")
	}
	for _, t := range all {
		if !amountOK(t.Value) {
			return errAmount
		}
		if t.Name == "" || !textOK(t.Name, input.MaxShortText) {
			return errors.New("a tax has no name, or too long a one")
		}
	}
	return nil
}

// Taxes is the answer as the order keeps it.
func (a *TaxAnswer) Taxes() *schema.OutsideTaxes {
	return &schema.OutsideTaxes{Lines: a.LineTaxes, Shipping: a.ShippingTaxes, Order: a.OrderTaxes}
}
