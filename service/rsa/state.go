package rsa

import (
	"bytes"

	json "github.com/segmentio/encoding/json"
)

// OrderState is the spec's "Remote state authority order state": what is sent with each event,
// and what the RSA answers.
type OrderState struct {
	CartID           string            `json:"cart_id"`
	LineItems        []LineItem        `json:"line_items"`
	Customer         *Customer         `json:"customer"`
	ShippingAddress  *Address          `json:"shipping_address"`
	BillingAddress   *Address          `json:"billing_address"`
	ShippingOptions  []ShippingOption  `json:"shipping_options"`
	SelectedShipping *SelectedShipping `json:"selected_shipping"`
	Tags             []string          `json:"tags"`
	Notes            []string          `json:"notes"`
	Fees             []Fee             `json:"fees"`
	CartParams       CartParams        `json:"cart_params"`
	// DiscountCodes (ours) are the codes applied to the order; a code's value is in the lines'
	// discounts.
	DiscountCodes []string `json:"discount_codes"`
}

// LineItem is a line of the RSA order state. Money is in the currency's major unit (12.5 is
// 12.50 USD), as a JSON number.
type LineItem struct {
	Title             string      `json:"title"`
	Description       string      `json:"description"`
	Visible           bool        `json:"visible"`
	Quantity          int         `json:"quantity"`
	Taxable           bool        `json:"taxable"`
	LineItemKey       string      `json:"line_item_key"`
	SKU               string      `json:"sku"`
	PlatformVariantID string      `json:"platform_variant_id"`
	RequiresShipping  bool        `json:"requires_shipping"`
	WeightUnit        string      `json:"weight_unit"`
	TaxCode           string      `json:"tax_code"`
	Note              string      `json:"note"`
	VolumeUnit        string      `json:"volume_unit"`
	UnitPrice         json.Number `json:"unit_price"`
	ItemWeight        json.Number `json:"item_weight"`
	Vendor            string      `json:"vendor"`
	Properties        Properties  `json:"properties"`
	Taxes             []Tax       `json:"taxes"`
	Discounts         []Discount  `json:"discounts"`
}

// Tax is a tax of a line or of the selected shipping: unit_amount per unit of the line.
type Tax struct {
	Name       string      `json:"name"`
	Rate       json.Number `json:"rate"`
	UnitAmount json.Number `json:"unit_amount"`
}

// Discount is money off a line, per unit.
type Discount struct {
	Text       string      `json:"text"`
	UnitAmount json.Number `json:"unit_amount"`
	Code       string      `json:"code"`
	Source     string      `json:"source"`
}

// Customer is the order's customer. EmailAddress is ours: the spec's customer has none, and an
// order's customer is reached by it.
type Customer struct {
	PlatformID       *string `json:"platform_id"`
	PublicID         string  `json:"public_id"`
	FirstName        string  `json:"first_name"`
	LastName         string  `json:"last_name"`
	EmailAddress     string  `json:"email_address"`
	AcceptsMarketing bool    `json:"accepts_marketing"`
}

// Address is an RSA address; country and country_code are required.
type Address struct {
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	AddressLine1 string `json:"address_line_1"`
	AddressLine2 string `json:"address_line_2"`
	City         string `json:"city"`
	Province     string `json:"province"`
	ProvinceCode string `json:"province_code"`
	Country      string `json:"country"`
	CountryCode  string `json:"country_code"`
	PostalCode   string `json:"postal_code"`
	BusinessName string `json:"business_name"`
	PhoneNumber  string `json:"phone_number"`
}

// ShippingOption is a way to ship the order that the RSA offers.
type ShippingOption struct {
	RateName string      `json:"rate_name"`
	Cost     json.Number `json:"cost"`
	Code     string      `json:"code"`
}

// SelectedShipping is the option chosen, with its taxes (unit_amount is the whole tax).
type SelectedShipping struct {
	RateName string      `json:"rate_name"`
	Cost     json.Number `json:"cost"`
	Code     string      `json:"code"`
	Taxes    []Tax       `json:"taxes"`
}

// Fee is a charge the RSA adds to the order.
type Fee struct {
	Description string      `json:"description"`
	Value       json.Number `json:"value"`
	Taxable     bool        `json:"taxable"`
}

// Event is one change on the wire: event_name in snake_case, and what it carries.
type Event struct {
	EventName string `json:"event_name"`
	Data      any    `json:"data"`
}

// ProcessOrderEvents is the body of process_order_events.
type ProcessOrderEvents struct {
	CartID        string     `json:"cart_id"`
	PublicOrderID string     `json:"public_order_id"`
	OrderState    OrderState `json:"order_state"`
	Events        []Event    `json:"events"`
}

// InventoryItem is a line as validate_inventory sees it.
type InventoryItem struct {
	LineItemKey       string            `json:"line_item_key"`
	PlatformVariantID string            `json:"platform_variant_id"`
	Quantity          int               `json:"quantity"`
	SKU               string            `json:"sku"`
	Properties        map[string]string `json:"properties"`
}

// ValidateInventory is the body of validate_inventory.
type ValidateInventory struct {
	CartID          string          `json:"cart_id"`
	PublicOrderID   string          `json:"public_order_id"`
	Type            string          `json:"type"`
	Items           []InventoryItem `json:"items"`
	ShippingAddress *Address        `json:"shipping_address"`
	Tags            []string        `json:"tags"`
	Notes           []string        `json:"notes"`
	CartParams      map[string]any  `json:"cart_params"`
}

// Properties are a line's properties, and CartParams the order's cart params. They decode
// themselves only so that the empty object, which nearly every order state carries, costs no
// more than an empty map: the JSON decoder makes each map it fills with room for 64 entries.
type (
	Properties map[string]string
	CartParams map[string]any
)

func (p *Properties) UnmarshalJSON(b []byte) error {
	return decodeMap(b, (*map[string]string)(p))
}

// UnmarshalJSON keeps numbers as written (json.Number), as the order state's other numbers.
func (c *CartParams) UnmarshalJSON(b []byte) error {
	return decodeMap(b, (*map[string]any)(c))
}

func decodeMap[V any](b []byte, m *map[string]V) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*m = nil
		return nil
	case len(b) >= 2 && b[0] == '{' && len(bytes.TrimSpace(b[1:len(b)-1])) == 0 && b[len(b)-1] == '}':
		*m = map[string]V{}
		return nil
	}
	var out map[string]V
	if _, err := json.Parse(b, &out, json.UseNumber); err != nil {
		return err
	}
	*m = out
	return nil
}
