package rsa

import (
	"fmt"
	"slices"
	"strings"

	json "github.com/segmentio/encoding/json"

	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
)

// stateOf is the RSA order state of an order as checkoutd holds it. What only the RSA keeps (a
// line's description, visibility, tax code, note and volume unit; tags, notes and cart params
// richer than the order's metadata) is carried from its last answer, last (nil before the first).
func stateOf(v *orders.OrderView, last *OrderState) OrderState {
	o, cur := v.Order, v.Order.Currency
	kept := map[string]LineItem{}
	if last != nil {
		for _, l := range last.LineItems {
			kept[l.LineItemKey] = l
		}
	}
	st := OrderState{CartID: o.PublicOrderID, LineItems: []LineItem{}, ShippingOptions: []ShippingOption{},
		Tags: o.MetaData.Tags, Notes: []string{}, Fees: []Fee{}, CartParams: CartParams{}, DiscountCodes: o.DiscountCodes}
	if st.Tags == nil {
		st.Tags = []string{}
	}
	if st.DiscountCodes == nil {
		st.DiscountCodes = []string{}
	}
	if o.MetaData.Notes != "" {
		st.Notes = strings.Split(o.MetaData.Notes, "\n")
	}
	for k, val := range o.MetaData.CartParameters {
		st.CartParams[k] = val
	}
	if last != nil && last.CartParams != nil {
		// The RSA's own values (numbers, objects) where the order keeps their text.
		for k, val := range last.CartParams {
			if _, ok := st.CartParams[k]; ok {
				st.CartParams[k] = val
			}
		}
	}
	for _, li := range v.LineItems {
		l := LineItem{Title: li.Title, Visible: true, Quantity: li.Quantity, Taxable: li.Taxable, LineItemKey: li.LineItemKey,
			SKU: li.Sku, PlatformVariantID: li.VariantID, RequiresShipping: li.RequiresShipping, WeightUnit: li.WeightUnit,
			UnitPrice: major(li.Price, cur), ItemWeight: json.Number(fmt.Sprint(li.Weight)), Vendor: li.Vendor,
			Properties: li.Properties, Taxes: []Tax{}, Discounts: []Discount{}}
		if l.Properties == nil {
			l.Properties = map[string]string{}
		}
		if k, ok := kept[li.LineItemKey]; ok {
			l.Description, l.Visible, l.TaxCode, l.Note, l.VolumeUnit = k.Description, k.Visible, k.TaxCode, k.Note, k.VolumeUnit
		}
		q := int64(max(li.Quantity, 1))
		for _, t := range v.Pricing.LineTaxes[li.LineItemKey] {
			l.Taxes = append(l.Taxes, Tax{Name: t.Name, Rate: "0", UnitAmount: major(t.Value/q, cur)})
		}
		for _, d := range v.Pricing.LineDiscounts[li.LineItemKey] {
			l.Discounts = append(l.Discounts, Discount{Text: d.Text, UnitAmount: major(d.Value/q, cur), Code: d.Code, Source: d.Source})
		}
		st.LineItems = append(st.LineItems, l)
	}
	if c := o.Customer; c != nil {
		st.Customer = &Customer{PlatformID: c.PlatformID, PublicID: c.PublicID, FirstName: c.FirstName, LastName: c.LastName,
			EmailAddress: c.EmailAddress, AcceptsMarketing: c.AcceptsMarketing}
	}
	st.ShippingAddress, st.BillingAddress = addressOf(o.ShippingAddress), addressOf(o.BillingAddress)
	for _, l := range v.ShippingLines {
		st.ShippingOptions = append(st.ShippingOptions, ShippingOption{RateName: l.Description, Cost: major(l.Amount, cur), Code: l.Code})
	}
	if sel := v.SelectedShipping; sel != nil {
		st.SelectedShipping = &SelectedShipping{RateName: sel.Description, Cost: major(sel.Amount, cur), Code: sel.Code, Taxes: []Tax{}}
		for _, t := range v.Pricing.ShippingTaxes {
			st.SelectedShipping.Taxes = append(st.SelectedShipping.Taxes, Tax{Name: t.Name, Rate: "0", UnitAmount: major(t.Value, cur)})
		}
	}
	stateFees(&st, v)
	return st
}

func addressOf(a *schema.OrderAddress) *Address {
	if a == nil {
		return nil
	}
	return &Address{FirstName: a.FirstName, LastName: a.LastName, AddressLine1: a.AddressLine1, AddressLine2: a.AddressLine2,
		City: a.City, Province: a.Province, ProvinceCode: a.ProvinceCode, Country: a.Country, CountryCode: a.CountryCode,
		PostalCode: a.PostalCode, BusinessName: a.BusinessName, PhoneNumber: a.PhoneNumber}
}

// orderAddress is an answered address as the order keeps it; the id stays when the address did
// not change.
func orderAddress(a *Address, held *schema.OrderAddress) (*schema.OrderAddress, error) {
	if a == nil {
		return nil, nil
	}
	p := input.Problems{}
	for name, v := range map[string]string{"first_name": a.FirstName, "last_name": a.LastName, "address_line_1": a.AddressLine1,
		"address_line_2": a.AddressLine2, "city": a.City, "province": a.Province, "province_code": a.ProvinceCode, "country": a.Country,
		"country_code": a.CountryCode, "postal_code": a.PostalCode, "business_name": a.BusinessName, "phone_number": a.PhoneNumber} {
		p.Text(name, v, input.MaxShortText)
	}
	if a.CountryCode == "" {
		p.Add("country_code", "is required")
	}
	if len(p) > 0 {
		return nil, fmt.Errorf("address: %s", p.Message())
	}
	out := &schema.OrderAddress{FirstName: a.FirstName, LastName: a.LastName, AddressLine1: a.AddressLine1, AddressLine2: a.AddressLine2,
		City: a.City, Province: a.Province, ProvinceCode: strings.ToUpper(a.ProvinceCode), Country: a.Country,
		CountryCode: strings.ToUpper(a.CountryCode), PostalCode: a.PostalCode, BusinessName: a.BusinessName, PhoneNumber: a.PhoneNumber}
	if held != nil {
		same := *held
		same.ID = ""
		if same == *out {
			out.ID = held.ID
			return out, nil
		}
	}
	out.ID = platform.NewPublicID()
	return out, nil
}

// checkText bounds the texts and lists the RSA answered.
func checkLists(st *OrderState) error {
	switch {
	case len(st.Tags) > input.MaxListEntries, len(st.Notes) > input.MaxListEntries, len(st.Fees) > input.MaxListEntries,
		len(st.ShippingOptions) > input.MaxListEntries, len(st.CartParams) > input.MaxMapEntries, len(st.DiscountCodes) > input.MaxListEntries:
		return fmt.Errorf("a list or map over %d entries", input.MaxListEntries)
	}
	for _, t := range st.Tags {
		if input.TooLong(t, input.MaxShortText) {
			return fmt.Errorf("a tag over %d characters", input.MaxShortText)
		}
	}
	for _, n := range st.Notes {
		if input.TooLong(n, input.MaxLongText) {
			return fmt.Errorf("a note over %d characters", input.MaxLongText)
		}
	}
	for _, c := range st.DiscountCodes {
		if input.TooLong(c, 64) {
			return fmt.Errorf("a discount code over 64 characters")
		}
	}
	return nil
}

// keptAnswer is what the order keeps of the RSA's answer (orders.rsa_state) for the next event:
// what only the RSA keeps, which stateOf sends back with it. The rest of the answer is the
// order's own fields and outside pricing; kept twice, it would weigh on every later write of
// the order's row.
type keptAnswer struct {
	LineItems  []keptLine `json:"line_items"`
	CartParams CartParams `json:"cart_params,omitempty"`
}

type keptLine struct {
	LineItemKey string `json:"line_item_key"`
	Description string `json:"description,omitempty"`
	Visible     bool   `json:"visible"`
	TaxCode     string `json:"tax_code,omitempty"`
	Note        string `json:"note,omitempty"`
	VolumeUnit  string `json:"volume_unit,omitempty"`
}

// keptOf is the answer st as the order keeps it, in the answer's own JSON shape.
func keptOf(st *OrderState) []byte {
	k := keptAnswer{LineItems: make([]keptLine, len(st.LineItems)), CartParams: st.CartParams}
	for i, l := range st.LineItems {
		k.LineItems[i] = keptLine{LineItemKey: l.LineItemKey, Description: l.Description, Visible: l.Visible, TaxCode: l.TaxCode,
			Note: l.Note, VolumeUnit: l.VolumeUnit}
	}
	raw, _ := json.Marshal(k)
	return raw
}

// remoteOrder is the RSA's answer as the order keeps it; held is the order's state before.
func remoteOrder(st *OrderState, held *orders.OrderView) (orders.RemoteOrder, error) {
	o, cur := held.Order, held.Order.Currency
	r := orders.RemoteOrder{State: keptOf(st), Tags: st.Tags, DiscountCodes: st.DiscountCodes, CartParameters: map[string]string{}}
	if err := checkLists(st); err != nil {
		return r, err
	}
	r.Notes = strings.Join(st.Notes, "\n")
	if st.DiscountCodes == nil {
		// An RSA that does not echo discount_codes (ours) holds the codes its discounts name.
		for _, l := range st.LineItems {
			for _, d := range l.Discounts {
				if d.Code != "" && !slices.Contains(r.DiscountCodes, d.Code) {
					r.DiscountCodes = append(r.DiscountCodes, d.Code)
				}
			}
		}
	}
	for k, v := range st.CartParams {
		if s, ok := v.(string); ok {
			r.CartParameters[k] = s
		} else {
			b, _ := json.Marshal(v)
			r.CartParameters[k] = string(b)
		}
		if input.TooLong(k, input.MaxShortText) || input.TooLong(r.CartParameters[k], input.MaxLongText) {
			return r, fmt.Errorf("cart_params.%s is too long", k)
		}
	}
	for i, l := range st.LineItems {
		price, err := minor(l.UnitPrice, cur)
		if err != nil {
			return r, fmt.Errorf("line_items[%d].unit_price: %w", i, err)
		}
		r.Lines = append(r.Lines, orders.RemoteLine{LineItemKey: l.LineItemKey, Title: l.Title, SKU: l.SKU, VariantID: l.PlatformVariantID,
			Price: price, Quantity: l.Quantity, RequiresShipping: l.RequiresShipping, Taxable: l.Taxable, Vendor: l.Vendor, Properties: l.Properties})
	}
	if c := st.Customer; c != nil {
		for _, t := range []string{c.PublicID, c.FirstName, c.LastName, c.EmailAddress} {
			if input.TooLong(t, input.MaxShortText) {
				return r, fmt.Errorf("customer: a text over %d characters", input.MaxShortText)
			}
		}
		if c.PlatformID != nil && input.TooLong(*c.PlatformID, input.MaxShortText) {
			return r, fmt.Errorf("customer.platform_id is too long")
		}
		r.Customer = &schema.OrderCustomer{PlatformID: c.PlatformID, PublicID: c.PublicID, FirstName: c.FirstName, LastName: c.LastName,
			EmailAddress: c.EmailAddress, AcceptsMarketing: c.AcceptsMarketing}
		if r.Customer.PublicID == "" {
			r.Customer.PublicID = platform.NewPublicID()
			if o.Customer != nil {
				r.Customer.PublicID = o.Customer.PublicID
			}
		}
	}
	var err error
	if r.ShippingAddress, err = orderAddress(st.ShippingAddress, o.ShippingAddress); err != nil {
		return r, fmt.Errorf("shipping_%w", err)
	}
	if r.BillingAddress, err = orderAddress(st.BillingAddress, o.BillingAddress); err != nil {
		return r, fmt.Errorf("billing_%w", err)
	}
	if err := orders.CheckRemoteLines(r.Lines); err != nil {
		return r, err
	}
	if err := answeredPricing(&r, st, cur); err != nil {
		return r, err
	}
	return r, nil
}
