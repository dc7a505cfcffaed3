package schema

// OrderAddress is a shipping or billing address of an order, in the spec's fields.
type OrderAddress struct {
	ID           string `json:"id"`
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	AddressLine1 string `json:"address_line_1"`
	AddressLine2 string `json:"address_line_2"`
	Country      string `json:"country"`
	CountryCode  string `json:"country_code"`
	City         string `json:"city"`
	Province     string `json:"province"`
	ProvinceCode string `json:"province_code"`
	PostalCode   string `json:"postal_code"`
	BusinessName string `json:"business_name"`
	PhoneNumber  string `json:"phone_number"`
}

// OrderCustomer is the customer on an order: a guest (no platform_id) or an authenticated one.
type OrderCustomer struct {
	PlatformID       *string `json:"platform_id"`
	PublicID         string  `json:"public_id"`
	FirstName        string  `json:"first_name"`
	LastName         string  `json:"last_name"`
	EmailAddress     string  `json:"email_address"`
	AcceptsMarketing bool    `json:"accepts_marketing"`
}

// ShippingLine is a priced way to ship an order.
type ShippingLine struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Amount      int64  `json:"amount"`
	Code        string `json:"code"`
}
