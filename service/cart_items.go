package service

import (
	"fmt"
	"strings"

	"github.com/checkoutd/checkoutd/ent/schema"
)

// checkCartItem adds the problems of one cart item to p, its fields named under f. A storefront
// (a shopper holding the order JWT) names a catalog variant and a quantity: every price, title
// and other catalog field is the catalog's, and one sent is refused rather than ignored, so that
// a storefront that believes it sets them learns it does not.
func checkCartItem(p fieldErrors, f string, it CartItem, storefront bool) {
	if it.Quantity < 1 || it.Quantity > MaxQuantity {
		p.add(f+"quantity", fmt.Sprintf("must be between 1 and %d", MaxQuantity))
	}
	p.text(f+"platform_id", it.PlatformID, MaxShortText)
	p.text(f+"sku", it.SKU, MaxShortText)
	p.text(f+"line_item_key", it.LineItemKey, MaxShortText)
	checkTextMap(p, f+"line_item_properties", it.Properties)
	if storefront {
		for _, field := range it.catalogFields() {
			p.add(f+field, "is the catalog's: a storefront names the variant (platform_id or sku) and its quantity")
		}
		return
	}
	if it.Title != nil {
		if strings.TrimSpace(*it.Title) == "" {
			p.add(f+"title", "cannot be blank")
		}
		p.text(f+"title", *it.Title, MaxShortText)
	}
	if it.Price != nil && amountOutOfBounds(*it.Price) {
		p.add(f+"price", amountBoundText)
	}
	if amountOutOfBounds(it.CompareAtPrice) {
		p.add(f+"compare_at_price", amountBoundText)
	}
	if it.Weight < 0 || it.Weight > MaxWeight {
		p.add(f+"weight", fmt.Sprintf("must be between 0 and %d", MaxWeight))
	}
	if it.WeightUnit != "" && !weightUnits[it.WeightUnit] {
		p.add(f+"weight_unit", "must be g, kg, lb or oz")
	}
	p.text(f+"vendor", it.Vendor, MaxShortText)
	p.text(f+"image_url", it.ImageURL, MaxURLText)
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
func checkTextMap(p fieldErrors, field string, m map[string]string) {
	if len(m) > MaxMapEntries {
		p.add(field, fmt.Sprintf("has more than %d entries", MaxMapEntries))
		return
	}
	for k, v := range m {
		if tooLong(k, MaxShortText) || tooLong(v, MaxLongText) {
			p.add(field, fmt.Sprintf("keys are at most %d characters and values at most %d", MaxShortText, MaxLongText))
			return
		}
	}
}

// checkTextList bounds a list of text a caller sends (tags).
func checkTextList(p fieldErrors, field string, l []string) {
	if len(l) > MaxListEntries {
		p.add(field, fmt.Sprintf("has more than %d entries", MaxListEntries))
		return
	}
	for _, v := range l {
		if tooLong(v, MaxShortText) {
			p.add(field, fmt.Sprintf("entries are at most %d characters", MaxShortText))
			return
		}
	}
}

// checkMetaData bounds order_meta_data, whole or a patch of it.
func checkMetaData(p fieldErrors, f string, cart, notes *map[string]string, text *string, tags *[]string) {
	if cart != nil {
		checkTextMap(p, f+"cart_parameters", *cart)
	}
	if notes != nil {
		checkTextMap(p, f+"note_attributes", *notes)
	}
	if text != nil {
		p.text(f+"notes", *text, MaxLongText)
	}
	if tags != nil {
		checkTextList(p, f+"tags", *tags)
	}
}

func checkOrderMetaData(p fieldErrors, f string, m *schema.OrderMetaData) {
	if m != nil {
		checkMetaData(p, f, &m.CartParameters, &m.NoteAttributes, &m.Notes, &m.Tags)
	}
}

// subtotalWith is the sum of an order's lines with one line (key) at quantity units of price,
// added when the order does not have it; false when it passes MaxOrderSubtotal.
func subtotalWith(lines []lineAmount, key string, price int64, quantity int) (int64, bool) {
	var sum checkedSum
	found := false
	for _, l := range lines {
		p, q := l.Price, l.Quantity
		if l.LineItemKey == key {
			p, q, found = price, quantity, true
		}
		t, ok := lineTotal(p, q)
		if !ok {
			return 0, false
		}
		sum.add(t)
	}
	if !found {
		t, ok := lineTotal(price, quantity)
		if !ok {
			return 0, false
		}
		sum.add(t)
	}
	return sum.value, !sum.overflow && sum.value <= MaxOrderSubtotal
}

// lineAmount is what of a line its order's subtotal is made of.
type lineAmount struct {
	LineItemKey string `json:"line_item_key"`
	Price       int64  `json:"price"`
	Quantity    int    `json:"quantity"`
}
