package orders

import (
	"fmt"
	"strings"

	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/input"
)

// checkCartItem adds the problems of one cart item to p, its fields named under f. A storefront
// (a shopper holding the order JWT) names a catalog variant and a quantity: every price, title
// and other catalog field is the catalog's, and one sent is refused rather than ignored, so that
// a storefront that believes it sets them learns it does not.
func checkCartItem(p input.Problems, f string, it CartItem, storefront bool) {
	if it.Quantity < 1 || it.Quantity > input.MaxQuantity {
		p.Add(f+"quantity", fmt.Sprintf("must be between 1 and %d", input.MaxQuantity))
	}
	p.Text(f+"platform_id", it.PlatformID, input.MaxShortText)
	p.Text(f+"sku", it.SKU, input.MaxShortText)
	p.Text(f+"line_item_key", it.LineItemKey, input.MaxShortText)
	checkTextMap(p, f+"line_item_properties", it.Properties)
	if storefront {
		for _, field := range it.catalogFields() {
			p.Add(f+field, "is the catalog's: a storefront names the variant (platform_id or sku) and its quantity")
		}
		return
	}
	if it.Title != nil {
		if strings.TrimSpace(*it.Title) == "" {
			p.Add(f+"title", "cannot be blank")
		}
		p.Text(f+"title", *it.Title, input.MaxShortText)
	}
	if it.Price != nil && input.AmountOutOfBounds(*it.Price) {
		p.Add(f+"price", input.AmountBoundText)
	}
	if input.AmountOutOfBounds(it.CompareAtPrice) {
		p.Add(f+"compare_at_price", input.AmountBoundText)
	}
	if it.Weight < 0 || it.Weight > input.MaxWeight {
		p.Add(f+"weight", fmt.Sprintf("must be between 0 and %d", input.MaxWeight))
	}
	if it.WeightUnit != "" && !catalog.WeightUnits[it.WeightUnit] {
		p.Add(f+"weight_unit", "must be g, kg, lb or oz")
	}
	p.Text(f+"vendor", it.Vendor, input.MaxShortText)
	p.Text(f+"image_url", it.ImageURL, input.MaxURLText)
}

// catalogFields are the fields of the item that only the catalog (or a backend caller) sets.
func (it CartItem) catalogFields() []string {
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"title", it.Title != nil}, {"price", it.Price != nil}, {"compare_at_price", it.CompareAtPrice != 0},
		{"weight", it.Weight != 0}, {"weight_unit", it.WeightUnit != ""}, {"requires_shipping", it.RequiresShipping != nil},
		{"taxable", it.Taxable != nil}, {"vendor", it.Vendor != ""}, {"image_url", it.ImageURL != ""},
	} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

// checkTextMap bounds a map of text a caller sends: its entries, keys and values.
func checkTextMap(p input.Problems, field string, m map[string]string) {
	if len(m) > input.MaxMapEntries {
		p.Add(field, fmt.Sprintf("has more than %d entries", input.MaxMapEntries))
		return
	}
	for k, v := range m {
		if input.TooLong(k, input.MaxShortText) || input.TooLong(v, input.MaxLongText) {
			p.Add(field, fmt.Sprintf("keys are at most %d characters and values at most %d", input.MaxShortText, input.MaxLongText))
			return
		}
	}
}

// checkTextList bounds a list of text a caller sends (tags).
func checkTextList(p input.Problems, field string, l []string) {
	if len(l) > input.MaxListEntries {
		p.Add(field, fmt.Sprintf("has more than %d entries", input.MaxListEntries))
		return
	}
	for _, v := range l {
		if input.TooLong(v, input.MaxShortText) {
			p.Add(field, fmt.Sprintf("entries are at most %d characters", input.MaxShortText))
			return
		}
	}
}

// checkMetaData bounds order_meta_data, whole or a patch of it.
func checkMetaData(p input.Problems, f string, cart, notes *map[string]string, text *string, tags *[]string) {
	if cart != nil {
		checkTextMap(p, f+"cart_parameters", *cart)
	}
	if notes != nil {
		checkTextMap(p, f+"note_attributes", *notes)
	}
	if text != nil {
		p.Text(f+"notes", *text, input.MaxLongText)
	}
	if tags != nil {
		checkTextList(p, f+"tags", *tags)
	}
}

func checkOrderMetaData(p input.Problems, f string, m *schema.OrderMetaData) {
	if m != nil {
		checkMetaData(p, f, &m.CartParameters, &m.NoteAttributes, &m.Notes, &m.Tags)
	}
}

// subtotalWith is the sum of an order's lines with one line (key) at quantity units of price,
// added when the order does not have it; false when it passes input.MaxOrderSubtotal.
func subtotalWith(lines []lineAmount, key string, price int64, quantity int) (int64, bool) {
	var sum input.CheckedSum
	found := false
	for _, l := range lines {
		p, q := l.Price, l.Quantity
		if l.LineItemKey == key {
			p, q, found = price, quantity, true
		}
		t, ok := input.LineTotal(p, q)
		if !ok {
			return 0, false
		}
		sum.Add(t)
	}
	if !found {
		t, ok := input.LineTotal(price, quantity)
		if !ok {
			return 0, false
		}
		sum.Add(t)
	}
	return sum.Value, !sum.Overflow && sum.Value <= input.MaxOrderSubtotal
}

// lineAmount is what of a line its order's subtotal is made of.
type lineAmount struct {
	LineItemKey string `json:"line_item_key"`
	Price       int64  `json:"price"`
	Quantity    int    `json:"quantity"`
}
