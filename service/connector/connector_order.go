package connector

import (
	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/pricing"
)

// The connector resources, as the spec's "Connector customer", "Connector address" and
// "Connector order" name their fields. Amounts are decimal strings in the order's currency.

// Address is a connector address.
type Address struct {
	PlatformID         string `json:"platform_id,omitempty"`
	PlatformCustomerID string `json:"platform_customer_id,omitempty"`
	AddressType        string `json:"address_type,omitempty"`
	AddressUse         string `json:"address_use,omitempty"`
	IsDefault          *bool  `json:"is_default,omitempty"`
	Company            string `json:"company"`
	FirstName          string `json:"first_name"`
	LastName           string `json:"last_name"`
	Phone              string `json:"phone"`
	Street1            string `json:"street_1"`
	Street2            string `json:"street_2"`
	City               string `json:"city"`
	Province           string `json:"province"`
	ProvinceCode       string `json:"province_code"`
	Country            string `json:"country"`
	CountryCode        string `json:"country_code"`
	PostalCode         string `json:"postal_code"`
}

// Tax is a connector tax line.
type Tax struct {
	Amount string `json:"amount"`
	Name   string `json:"name"`
	Rate   string `json:"rate"`
	Tag    string `json:"tag"`
}

// Attribute is one custom attribute.
type Attribute struct {
	Description string `json:"description"`
	Value       string `json:"value"`
}

// LineItem is a connector order's line.
type LineItem struct {
	PlatformID             string               `json:"platform_id"`
	PlatformProductID      string               `json:"platform_product_id"`
	PlatformVariantID      string               `json:"platform_variant_id"`
	CartLineItemPlatformID string               `json:"cart_line_item_platform_id"`
	Title                  string               `json:"title"`
	SKU                    string               `json:"sku"`
	WeightUnit             string               `json:"weight_unit"`
	CustomAttributes       map[string]Attribute `json:"custom_attributes"`
	Quantity               int                  `json:"quantity"`
	Grams                  int                  `json:"grams"`
	Weight                 float64              `json:"weight"`
	Taxable                bool                 `json:"taxable"`
	RequiresShipping       bool                 `json:"requires_shipping"`
	Taxes                  []Tax                `json:"taxes"`
	PricePerItem           string               `json:"price_per_item"`
	DiscountPerItem        string               `json:"discount_per_item"`
	Total                  string               `json:"total"`
	Subtotal               string               `json:"subtotal"`
	TotalTax               string               `json:"total_tax"`
	DiscountedSubtotal     string               `json:"discounted_subtotal"`
}

// PaymentTransaction is one money movement of a connector payment.
type PaymentTransaction struct {
	PlatformID            string `json:"platform_id"`
	ProviderTransactionID string `json:"provider_transaction_id"`
	Amount                string `json:"amount"`
	Currency              string `json:"currency"`
	Status                string `json:"status"`
	Type                  string `json:"type"`
}

// Payment is a connector order's payment.
type Payment struct {
	PlatformID       string               `json:"platform_id"`
	Description      string               `json:"description"`
	Provider         string               `json:"provider"`
	PaymentMethod    string               `json:"payment_method"`
	Currency         string               `json:"currency"`
	AmountPlanned    string               `json:"amount_planned"`
	Status           string               `json:"status"`
	CustomAttributes map[string]Attribute `json:"custom_attributes"`
	Transactions     []PaymentTransaction `json:"transactions"`
}

// Discount is one discount of a connector order, by name.
type Discount struct {
	PlatformID   string `json:"platform_id"`
	Amount       string `json:"amount"`
	DiscountCode string `json:"discount_code"`
}

// Order is the connector order checkoutd sends to create an order on the platform: every field
// of the spec but platform_id and the timestamps, which the platform assigns.
type Order struct {
	OrderNumber        string               `json:"order_number"`
	PlatformCustomerID string               `json:"platform_customer_id"`
	PlatformFriendlyID string               `json:"platform_friendly_id"`
	ShippingMethod     string               `json:"shipping_method"`
	ShippingCode       string               `json:"shipping_code"`
	BrowserIP          string               `json:"browser_ip"`
	Source             string               `json:"source"`
	CreatedVia         string               `json:"created_via"`
	Locale             string               `json:"locale"`
	Notes              string               `json:"notes"`
	PublicNotes        string               `json:"public_notes"`
	Test               bool                 `json:"test"`
	ShippingAddresses  []Address            `json:"shipping_addresses"`
	BillingAddress     *Address             `json:"billing_address"`
	LineItems          []LineItem           `json:"line_items"`
	Payments           []Payment            `json:"payments"`
	CustomAttributes   map[string]Attribute `json:"custom_attributes"`
	ShippingSubtotal   string               `json:"shipping_subtotal"`
	ShippingTax        string               `json:"shipping_tax"`
	Discount           string               `json:"discount"`
	Subtotal           string               `json:"subtotal"`
	SubtotalTax        string               `json:"subtotal_tax"`
	TotalTax           string               `json:"total_tax"`
	Total              string               `json:"total"`
	RefundedAmount     string               `json:"refunded_amount"`
	ShippingTaxes      []Tax                `json:"shipping_taxes"`
	Discounts          map[string]Discount  `json:"discounts"`
	Currency           string               `json:"currency"`
	OrderStatus        string               `json:"order_status"`
	FulfillmentStatus  string               `json:"fulfillment_status"`
	FinancialStatus    string               `json:"financial_status"`
}

// decimal is minor units as the currency writes them ("12.50"; "1250" for a currency without
// minor units).
func decimal(minor int64, code string) string {
	a, err := currency.NewAmountFromInt64(minor, code)
	if err != nil {
		return "0"
	}
	return a.Number()
}

func taxes(lines []pricing.TaxLine, code string) ([]Tax, int64) {
	out := make([]Tax, 0, len(lines))
	var sum int64
	for _, t := range lines {
		out = append(out, Tax{Amount: decimal(t.Value, code), Name: t.Name})
		sum += t.Value
	}
	return out, sum
}

func address(a *schema.OrderAddress, typ string) *Address {
	if a == nil {
		return nil
	}
	return &Address{AddressType: typ, Company: a.BusinessName, FirstName: a.FirstName, LastName: a.LastName, Phone: a.PhoneNumber,
		Street1: a.AddressLine1, Street2: a.AddressLine2, City: a.City, Province: a.Province, ProvinceCode: a.ProvinceCode,
		Country: a.Country, CountryCode: a.CountryCode, PostalCode: a.PostalCode}
}

// ConnectorOrder is the processed order v as the platform's create order takes it.
func ConnectorOrder(v *orders.OrderView) Order {
	o, code, pr := v.Order, v.Order.Currency, v.Pricing
	out := Order{OrderNumber: o.PublicOrderID, PlatformFriendlyID: o.PublicOrderID, Source: "checkoutd", CreatedVia: o.CreatedVia,
		ShippingAddresses: []Address{}, LineItems: []LineItem{}, Payments: []Payment{}, CustomAttributes: map[string]Attribute{},
		Discounts: map[string]Discount{}, Currency: code, OrderStatus: "processed", FulfillmentStatus: "unfulfilled",
		RefundedAmount: decimal(0, code)}
	if c := o.Customer; c != nil && c.PlatformID != nil {
		out.PlatformCustomerID = *c.PlatformID
	}
	md := o.MetaData
	out.Notes = md.Notes
	for k, val := range md.NoteAttributes {
		out.CustomAttributes[k] = Attribute{Value: val}
	}
	if a := address(o.ShippingAddress, "shipping"); a != nil {
		out.ShippingAddresses = append(out.ShippingAddresses, *a)
	}
	out.BillingAddress = address(o.BillingAddress, "billing")
	if s := v.SelectedShipping; s != nil {
		out.ShippingMethod, out.ShippingCode = s.Description, s.Code
	}
	var lineTax int64
	for _, li := range v.LineItems {
		lt, tax := taxes(pr.LineTaxes[li.LineItemKey], code)
		var discount int64
		for _, d := range pr.LineDiscounts[li.LineItemKey] {
			discount += d.Value
		}
		subtotal := li.Price * int64(li.Quantity)
		attrs := map[string]Attribute{}
		for k, val := range li.Properties {
			attrs[k] = Attribute{Value: val}
		}
		perItem := int64(0)
		if li.Quantity > 0 {
			perItem = discount / int64(li.Quantity)
		}
		out.LineItems = append(out.LineItems, LineItem{PlatformProductID: li.ProductID, PlatformVariantID: li.VariantID,
			CartLineItemPlatformID: li.LineItemKey, Title: li.Title, SKU: li.Sku, WeightUnit: li.WeightUnit, CustomAttributes: attrs,
			Quantity: li.Quantity, Grams: int(pricing.Grams(li.Weight, li.WeightUnit)), Weight: float64(li.Weight), Taxable: li.Taxable, RequiresShipping: li.RequiresShipping,
			Taxes: lt, PricePerItem: decimal(li.Price, code), DiscountPerItem: decimal(perItem, code),
			Subtotal: decimal(subtotal, code), DiscountedSubtotal: decimal(subtotal-discount, code),
			TotalTax: decimal(tax, code), Total: decimal(subtotal-discount+tax, code)})
		lineTax += tax
	}
	shippingTaxes, shippingTax := taxes(pr.ShippingTaxes, code)
	out.ShippingTaxes = shippingTaxes
	out.ShippingSubtotal, out.ShippingTax = decimal(pr.Shipping, code), decimal(shippingTax, code)
	out.Subtotal, out.SubtotalTax = decimal(pr.Subtotal, code), decimal(lineTax, code)
	out.Discount, out.TotalTax, out.Total = decimal(pr.DiscountTotal, code), decimal(pr.TaxTotal, code), decimal(pr.Total, code)
	for _, d := range pr.Discounts {
		out.Discounts[d.Code] = Discount{Amount: decimal(d.Value, code), DiscountCode: d.Code}
	}
	financial := "authorized"
	for _, p := range v.Payments {
		if p.Status != orderpayment.StatusAuthorized && p.Status != orderpayment.StatusVerified {
			continue
		}
		if p.Status == orderpayment.StatusVerified {
			financial = "pending"
		}
		provider := p.GatewayPublicID
		if p.GiftCardID != nil {
			provider = orders.TenderGiftCard
		}
		pay := Payment{Description: p.DisplayString, Provider: provider, PaymentMethod: p.TenderType, Currency: p.Currency,
			AmountPlanned: decimal(p.Amount, p.Currency), Status: p.Status.String(), CustomAttributes: map[string]Attribute{},
			Transactions: []PaymentTransaction{}}
		if p.AuthorizationID != "" {
			pay.Transactions = append(pay.Transactions, PaymentTransaction{ProviderTransactionID: p.AuthorizationID,
				Amount: decimal(p.Amount, p.Currency), Currency: p.Currency, Status: "success", Type: "authorization"})
		}
		out.Payments = append(out.Payments, pay)
	}
	out.FinancialStatus = financial
	return out
}
