package platformserver

import "time"

// Field names and JSON names follow the spec's "Connector customer", "Connector address",
// "Connector order" and "Connector product". Timestamps are RFC 3339 on the wire; they are
// omitted when zero so that a create body (which carries none) round-trips unchanged.

// Customer is a connector customer.
type Customer struct {
	PlatformID        string    `json:"platform_id,omitempty"`
	PlatformCreatedAt time.Time `json:"platform_created_at,omitzero"`
	PlatformUpdatedAt time.Time `json:"platform_updated_at,omitzero"`
	// PlatformDeletedAt is set once the customer is deleted; deleted customers are kept (the
	// spec marks them deleted) but no longer listed or addressable.
	PlatformDeletedAt time.Time `json:"platform_deleted_at,omitzero"`
	FirstName         string    `json:"first_name"`
	LastName          string    `json:"last_name"`
	Phone             string    `json:"phone"`
	// Email is what List Customers' email query finds a customer by.
	Email     string    `json:"email"`
	Addresses []Address `json:"addresses"`
}

// Address is a connector address.
type Address struct {
	PlatformID         string `json:"platform_id,omitempty"`
	PlatformCustomerID string `json:"platform_customer_id,omitempty"`
	AddressType        string `json:"address_type"`
	AddressUse         string `json:"address_use"`
	Company            string `json:"company"`
	City               string `json:"city"`
	Country            string `json:"country"`
	CountryCode        string `json:"country_code"`
	IsDefault          bool   `json:"is_default"`
	FirstName          string `json:"first_name"`
	LastName           string `json:"last_name"`
	Phone              string `json:"phone"`
	PostalCode         string `json:"postal_code"`
	Province           string `json:"province"`
	ProvinceCode       string `json:"province_code"`
	Street1            string `json:"street_1"`
	Street2            string `json:"street_2"`
	// PlatformDeletedAt is set once the address is deleted; deleted addresses are kept but no
	// longer answered.
	PlatformDeletedAt time.Time `json:"platform_deleted_at,omitzero"`
}

// OrderAddress is a connector address as an order's shipping address carries it: without
// is_default and address_use.
type OrderAddress struct {
	PlatformID         string `json:"platform_id,omitempty"`
	PlatformCustomerID string `json:"platform_customer_id,omitempty"`
	AddressType        string `json:"address_type"`
	Company            string `json:"company"`
	City               string `json:"city"`
	Country            string `json:"country"`
	CountryCode        string `json:"country_code"`
	FirstName          string `json:"first_name"`
	LastName           string `json:"last_name"`
	Phone              string `json:"phone"`
	PostalCode         string `json:"postal_code"`
	Province           string `json:"province"`
	ProvinceCode       string `json:"province_code"`
	Street1            string `json:"street_1"`
	Street2            string `json:"street_2"`
}

// Order is a connector order, also the Order Saved payload. Amounts are decimal strings
// ("12.50") so that no precision is lost on the way.
type Order struct {
	PlatformID         string                     `json:"platform_id,omitempty"`
	PlatformUpdatedAt  time.Time                  `json:"platform_updated_at,omitzero"`
	PlacedAt           time.Time                  `json:"placed_at,omitzero"`
	OrderNumber        string                     `json:"order_number"`
	PlatformCustomerID string                     `json:"platform_customer_id"`
	PlatformFriendlyID string                     `json:"platform_friendly_id"`
	ShippingMethod     string                     `json:"shipping_method"`
	ShippingCode       string                     `json:"shipping_code"`
	BrowserIP          string                     `json:"browser_ip"`
	Source             string                     `json:"source"`
	CreatedVia         string                     `json:"created_via"`
	Locale             string                     `json:"locale"`
	Notes              string                     `json:"notes"`
	PublicNotes        string                     `json:"public_notes"`
	Test               bool                       `json:"test"`
	ShippingAddresses  []OrderAddress             `json:"shipping_addresses"`
	BillingAddress     Address                    `json:"billing_address"`
	LineItems          []LineItem                 `json:"line_items"`
	Payments           []Payment                  `json:"payments"`
	CustomAttributes   map[string]CustomAttribute `json:"custom_attributes"`
	ShippingSubtotal   string                     `json:"shipping_subtotal"`
	ShippingTax        string                     `json:"shipping_tax"`
	Discount           string                     `json:"discount"`
	Subtotal           string                     `json:"subtotal"`
	SubtotalTax        string                     `json:"subtotal_tax"`
	TotalTax           string                     `json:"total_tax"`
	Total              string                     `json:"total"`
	RefundedAmount     string                     `json:"refunded_amount"`
	ShippingTaxes      []Tax                      `json:"shipping_taxes"`
	Discounts          map[string]OrderDiscount   `json:"discounts"`
	Currency           string                     `json:"currency"`
	OrderStatus        string                     `json:"order_status"`
	FulfillmentStatus  string                     `json:"fulfillment_status"`
	FinancialStatus    string                     `json:"financial_status"`
}

// CustomAttribute is one entry of a custom_attributes map.
type CustomAttribute struct {
	Description string `json:"description"`
	Value       string `json:"value"`
}

// OrderDiscount is one entry of an order's discounts map.
type OrderDiscount struct {
	PlatformID   string `json:"platform_id"`
	Amount       string `json:"amount"`
	DiscountCode string `json:"discount_code"`
}

// LineItem is one line of a connector order.
type LineItem struct {
	PlatformID             string                     `json:"platform_id"`
	PlatformProductID      string                     `json:"platform_product_id"`
	PlatformVariantID      string                     `json:"platform_variant_id"`
	CartLineItemPlatformID string                     `json:"cart_line_item_platform_id"`
	Title                  string                     `json:"title"`
	SKU                    string                     `json:"sku"`
	WeightUnit             string                     `json:"weight_unit"`
	CustomAttributes       map[string]CustomAttribute `json:"custom_attributes"`
	Quantity               int                        `json:"quantity"`
	Grams                  int                        `json:"grams"`
	Weight                 float64                    `json:"weight"`
	Taxable                bool                       `json:"taxable"`
	RequiresShipping       bool                       `json:"requires_shipping"`
	Taxes                  []Tax                      `json:"taxes"`
	PricePerItem           string                     `json:"price_per_item"`
	DiscountPerItem        string                     `json:"discount_per_item"`
	Total                  string                     `json:"total"`
	Subtotal               string                     `json:"subtotal"`
	TotalTax               string                     `json:"total_tax"`
	DiscountedSubtotal     string                     `json:"discounted_subtotal"`
}

// Tax is one tax of a line item or of shipping.
type Tax struct {
	Amount string `json:"amount"`
	Name   string `json:"name"`
	Rate   string `json:"rate"`
	Tag    string `json:"tag"`
}

// Payment is one payment of a connector order.
type Payment struct {
	PlatformID       string                     `json:"platform_id"`
	Description      string                     `json:"description"`
	Provider         string                     `json:"provider"`
	PaymentMethod    string                     `json:"payment_method"`
	Currency         string                     `json:"currency"`
	AmountPlanned    string                     `json:"amount_planned"`
	Status           string                     `json:"status"`
	CustomAttributes map[string]CustomAttribute `json:"custom_attributes"`
	Transactions     []Transaction              `json:"transactions"`
}

// Transaction is one transaction of a payment.
type Transaction struct {
	PlatformID            string `json:"platform_id"`
	ProviderTransactionID string `json:"provider_transaction_id"`
	Amount                string `json:"amount"`
	Currency              string `json:"currency"`
	Status                string `json:"status"`
	Type                  string `json:"type"`
}

// Product is a connector product, also the Product Saved payload.
type Product struct {
	PlatformID               string            `json:"platform_id,omitempty"`
	PlatformUpdatedAt        time.Time         `json:"platform_updated_at,omitzero"`
	Name                     string            `json:"name"`
	Handle                   string            `json:"handle"`
	Description              string            `json:"description"`
	Type                     string            `json:"type"`
	Vendor                   string            `json:"vendor"`
	URL                      string            `json:"url"`
	TaxCode                  string            `json:"tax_code"`
	Tags                     string            `json:"tags"` // comma separated
	Published                bool              `json:"published"`
	InventoryQuantity        int               `json:"inventory_quantity"`
	InventoryTrackingEntity  string            `json:"inventory_tracking_entity"`
	InventoryTrackingService string            `json:"inventory_tracking_service"`
	LocalizedNames           map[string]string `json:"localized_names"`
	LocalizedDescriptions    map[string]string `json:"localized_descriptions"`
	Categories               []Category        `json:"categories"`
	Images                   []Image           `json:"images"`
	Options                  []ProductOption   `json:"options"`
	Variants                 []Variant         `json:"variants"`
}

// Category is a product category, also the Product Category Saved payload.
type Category struct {
	PlatformID        string    `json:"platform_id,omitempty"`
	PlatformUpdatedAt time.Time `json:"platform_updated_at,omitzero"`
	ImageURL          string    `json:"image_url"`
	Name              string    `json:"name"`
}

// Image is a product image.
type Image struct {
	PlatformID string `json:"platform_id"`
	Name       string `json:"name"`
	Position   int    `json:"position"`
}

// ProductOption is a product option (size, colour) and its values.
type ProductOption struct {
	PlatformID   string        `json:"platform_id"`
	Name         string        `json:"name"`
	Position     int           `json:"position"`
	OptionValues []OptionValue `json:"option_values"`
}

// OptionValue is one value of a product option.
type OptionValue struct {
	PlatformID string `json:"platform_id"`
	IsDefault  bool   `json:"is_default"`
	Label      string `json:"label"`
	Position   int    `json:"position"`
}

// Variant is a product variant. Prices and weight are decimal strings.
type Variant struct {
	PlatformID               string               `json:"platform_id"`
	Name                     string               `json:"name"`
	SKU                      string               `json:"sku"`
	ImageURL                 string               `json:"image_url"`
	TaxCode                  string               `json:"tax_code"`
	WeightUnit               string               `json:"weight_unit"`
	InventoryTrackingEntity  string               `json:"inventory_tracking_entity"`
	InventoryTrackingService string               `json:"inventory_tracking_service"`
	OptionValues             []VariantOptionValue `json:"option_values"`
	AllowBackorder           bool                 `json:"allow_backorder"`
	RequireShipping          bool                 `json:"require_shipping"`
	TaxExempt                bool                 `json:"tax_exempt"`
	Grams                    int                  `json:"grams"`
	InventoryQuantity        int                  `json:"inventory_quantity"`
	CompareAtPrice           string               `json:"compare_at_price"`
	Cost                     string               `json:"cost"`
	Price                    string               `json:"price"`
	Weight                   string               `json:"weight"`
	LocalizedNames           map[string]string    `json:"localized_names"`
}

// VariantOptionValue names the option value a variant has for one option.
type VariantOptionValue struct {
	PlatformID              string `json:"platform_id"`
	PlatformProductOptionID string `json:"platform_product_option_id"`
	Label                   string `json:"label"`
	Name                    string `json:"name"`
}
