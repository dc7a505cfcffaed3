package subscription

import (
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/subscriptionaddress"
)

// View is a subscription as the read interfaces answer it (the spec's Subscription).
type View struct {
	ID                        int               `json:"id"`
	ShopID                    int               `json:"shop_id"`
	CustomerID                *int              `json:"customer_id"`
	BillingAddressID          *int              `json:"billing_address_id"`
	ShippingAddressID         *int              `json:"shipping_address_id"`
	ExternalID                string            `json:"external_id"`
	IdempotencyKey            *string           `json:"idempotency_key"`
	Note                      string            `json:"note"`
	OrderNote                 string            `json:"order_note"`
	DiscountCode              string            `json:"discount_code"`
	Customer                  *Customer         `json:"customer"`
	SubscriptionStatus        string            `json:"subscription_status"`
	NextOrderDatetime         *time.Time        `json:"next_order_datetime"`
	NextPaymentDatetime       *time.Time        `json:"next_payment_datetime"`
	NextProcessingDatetime    *time.Time        `json:"next_processing_datetime"`
	StatusChangedAt           *time.Time        `json:"status_changed_at"`
	LastPaymentDatetime       *time.Time        `json:"last_payment_datetime"`
	LastOrderDatetime         *time.Time        `json:"last_order_datetime"`
	LastProcessedDatetime     *time.Time        `json:"last_processed_datetime"`
	PlacedAt                  *time.Time        `json:"placed_at"`
	CreatedAt                 time.Time         `json:"created_at"`
	UpdatedAt                 time.Time         `json:"updated_at"`
	PaymentMethodToken        string            `json:"payment_method_token"`
	PaymentGatewayPublicID    string            `json:"payment_gateway_public_id"`
	PaymentRRule              string            `json:"payment_rrule"`
	OrderRRule                string            `json:"order_rrule"`
	PaymentRRuleText          string            `json:"payment_rrule_text"`
	OrderRRuleText            string            `json:"order_rrule_text"`
	CurrentRetries            int               `json:"current_retries"`
	OrdersProcessed           int               `json:"orders_processed"`
	OrderCount                int               `json:"order_count"`
	PercentDiscount           int               `json:"percent_discount"`
	ChargedCurrency           string            `json:"charged_currency"`
	BaseCurrency              string            `json:"base_currency"`
	BaseToChargedExchangeRate float64           `json:"base_to_charged_exchange_rate"`
	LineItems                 []LineItem        `json:"line_items"`
	ShippingLines             []map[string]any  `json:"shipping_lines"`
	BillingAddress            *Address          `json:"billing_address"`
	ShippingAddress           *Address          `json:"shipping_address"`
	LastFailureCode           string            `json:"last_failure_code"`
	LastFailureReason         string            `json:"last_failure_reason"`
	LastFailureDetails        map[string]any    `json:"last_failure_details"`
	PaymentDetails            map[string]string `json:"payment_details"`
}

// Customer is the subscription's customer, answered with expand=customer.
type Customer struct {
	ID         *int   `json:"id"`
	PlatformID string `json:"platform_id"`
	FirstName  string `json:"first_name"`
	LastName   string `json:"last_name"`
	Phone      string `json:"phone"`
	Email      string `json:"email"`
	Notes      string `json:"notes"`
}

// LineItem is one line of a subscription.
type LineItem struct {
	ID                              int              `json:"id"`
	SubscriptionID                  int              `json:"subscription_id"`
	PlatformID                      string           `json:"platform_id"`
	PlatformProductID               string           `json:"platform_product_id"`
	PlatformVariantID               string           `json:"platform_variant_id"`
	SubscriptionGroupID             *int             `json:"subscription_group_id"`
	SubscriptionGroupBillingRulesID *int             `json:"subscription_group_billing_rules_id"`
	Title                           string           `json:"title"`
	ProductName                     string           `json:"product_name"`
	VariantName                     string           `json:"variant_name"`
	SKU                             string           `json:"sku"`
	Image                           string           `json:"image"`
	Quantity                        int              `json:"quantity"`
	Price                           int64            `json:"price"`
	PriceCharged                    int64            `json:"price_charged"`
	DiscountedPrice                 int64            `json:"discounted_price"`
	DiscountedPriceCharged          int64            `json:"discounted_price_charged"`
	FullPrice                       int64            `json:"full_price"`
	FullPriceCharged                int64            `json:"full_price_charged"`
	RequiresShipping                bool             `json:"requires_shipping"`
	Taxable                         bool             `json:"taxable"`
	Grams                           int              `json:"grams"`
	Weight                          float64          `json:"weight"`
	WeightUnit                      string           `json:"weight_unit"`
	Discounts                       []map[string]any `json:"discounts"`
	PrepaidMetadata                 map[string]any   `json:"prepaid_metadata"`
	LineItemAttributes              []map[string]any `json:"line_item_attributes"`
	CreatedAt                       time.Time        `json:"created_at"`
	UpdatedAt                       time.Time        `json:"updated_at"`
}

// Address is a subscription's billing or shipping address.
type Address struct {
	ID                 int       `json:"id"`
	ShopIdentifier     string    `json:"shop_identifier"`
	PlatformID         string    `json:"platform_id"`
	CustomerID         *int      `json:"customer_id"`
	PlatformType       string    `json:"platform_type"`
	PlatformCustomerID string    `json:"platform_customer_id"`
	FirstName          string    `json:"first_name"`
	LastName           string    `json:"last_name"`
	Company            string    `json:"company"`
	Phone              string    `json:"phone"`
	Street1            string    `json:"street1"`
	Street2            string    `json:"street2"`
	City               string    `json:"city"`
	Province           string    `json:"province"`
	ProvinceCode       string    `json:"province_code"`
	Country            string    `json:"country"`
	CountryCode        string    `json:"country_code"`
	Zip                string    `json:"zip"`
	IsDefault          bool      `json:"is_default"`
	AddressUse         string    `json:"address_use"`
	AddressSource      string    `json:"address_source"`
	CreatedAt          time.Time `json:"created_at"`
	UpdatedAt          time.Time `json:"updated_at"`
}

// viewOf is s, loaded with its line items and addresses, as answered; the customer only when
// expanded.
func viewOf(sh *ent.Shop, s *ent.Subscription, expandCustomer bool) *View {
	v := &View{ID: s.ID, ShopID: s.ShopID, CustomerID: s.CustomerID, ExternalID: s.ExternalID, IdempotencyKey: s.IdempotencyKey,
		Note: s.Note, OrderNote: s.OrderNote, DiscountCode: s.DiscountCode, SubscriptionStatus: string(s.SubscriptionStatus),
		NextOrderDatetime: s.NextOrderDatetime, NextPaymentDatetime: s.NextPaymentDatetime, NextProcessingDatetime: s.NextProcessingDatetime,
		StatusChangedAt: s.StatusChangedAt, LastPaymentDatetime: s.LastPaymentDatetime, LastOrderDatetime: s.LastOrderDatetime,
		LastProcessedDatetime: s.LastProcessedDatetime, PlacedAt: s.PlacedAt, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
		PaymentMethodToken: s.PaymentMethodToken, PaymentGatewayPublicID: s.PaymentGatewayPublicID,
		PaymentRRule: s.PaymentRrule, OrderRRule: s.OrderRrule, PaymentRRuleText: s.PaymentRruleText, OrderRRuleText: s.OrderRruleText,
		CurrentRetries: s.CurrentRetries, OrdersProcessed: s.OrdersProcessed, OrderCount: s.OrderCount, PercentDiscount: s.PercentDiscount,
		ChargedCurrency: s.ChargedCurrency, BaseCurrency: s.BaseCurrency, BaseToChargedExchangeRate: s.BaseToChargedExchangeRate,
		LineItems: []LineItem{}, ShippingLines: s.ShippingLines, LastFailureCode: s.LastFailureCode, LastFailureReason: s.LastFailureReason,
		LastFailureDetails: s.LastFailureDetails, PaymentDetails: s.PaymentDetails}
	if v.ShippingLines == nil {
		v.ShippingLines = []map[string]any{}
	}
	if v.LastFailureDetails == nil {
		v.LastFailureDetails = map[string]any{}
	}
	if v.PaymentDetails == nil {
		v.PaymentDetails = map[string]string{}
	}
	if expandCustomer {
		v.Customer = &Customer{ID: s.CustomerID, PlatformID: s.CustomerPlatformID, FirstName: s.CustomerFirstName,
			LastName: s.CustomerLastName, Phone: s.CustomerPhone, Email: s.CustomerEmail, Notes: s.CustomerNotes}
	}
	for _, li := range s.Edges.LineItems {
		v.LineItems = append(v.LineItems, LineItem{ID: li.ID, SubscriptionID: li.SubscriptionID, PlatformID: li.PlatformID,
			PlatformProductID: li.PlatformProductID, PlatformVariantID: li.PlatformVariantID, SubscriptionGroupID: li.SubscriptionGroupID,
			SubscriptionGroupBillingRulesID: li.SubscriptionGroupBillingRulesID, Title: li.Title, ProductName: li.ProductName,
			VariantName: li.VariantName, SKU: li.Sku, Image: li.Image, Quantity: li.Quantity, Price: li.Price, PriceCharged: li.PriceCharged,
			DiscountedPrice: li.DiscountedPrice, DiscountedPriceCharged: li.DiscountedPriceCharged, FullPrice: li.FullPrice,
			FullPriceCharged: li.FullPriceCharged, RequiresShipping: li.RequiresShipping, Taxable: li.Taxable, Grams: li.Grams,
			Weight: li.Weight, WeightUnit: li.WeightUnit, Discounts: orEmpty(li.Discounts), PrepaidMetadata: li.PrepaidMetadata,
			LineItemAttributes: orEmpty(li.LineItemAttributes), CreatedAt: li.CreatedAt, UpdatedAt: li.UpdatedAt})
	}
	for _, a := range s.Edges.Addresses {
		av := &Address{ID: a.ID, ShopIdentifier: sh.Identifier, PlatformID: a.PlatformID, CustomerID: s.CustomerID,
			PlatformType: a.PlatformType, PlatformCustomerID: a.PlatformCustomerID, FirstName: a.FirstName, LastName: a.LastName,
			Company: a.Company, Phone: a.Phone, Street1: a.Street1, Street2: a.Street2, City: a.City, Province: a.Province,
			ProvinceCode: a.ProvinceCode, Country: a.Country, CountryCode: a.CountryCode, Zip: a.Zip, IsDefault: a.IsDefault,
			AddressUse: a.AddressUse, AddressSource: a.AddressSource, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
		if a.Kind == subscriptionaddress.KindBilling {
			v.BillingAddress, v.BillingAddressID = av, &av.ID
		} else {
			v.ShippingAddress, v.ShippingAddressID = av, &av.ID
		}
	}
	return v
}

func orEmpty(m []map[string]any) []map[string]any {
	if m == nil {
		return []map[string]any{}
	}
	return m
}
