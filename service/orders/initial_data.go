package orders

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/shops"
)

// GatewaySummary is a payment gateway as a storefront sees it: never its api_token.
type GatewaySummary struct {
	PublicID  string  `json:"public_id"`
	Name      string  `json:"name"`
	BaseURL   string  `json:"base_url"`
	IframeURL *string `json:"iframe_url"`
	Location  string  `json:"location"`
	Currency  string  `json:"currency"`
	IsTest    bool    `json:"is_test"`
}

// InitialData is what a storefront needs once, at init and resume. Its country_info, Countries,
// is spliced in by MarshalJSON from its encoding made once.
type InitialData struct {
	ShopName                string           `json:"shop_name"`
	SupportedLanguages      []map[string]any `json:"supported_languages"`
	GeneralSettings         map[string]any   `json:"general_settings"`
	ExternalPaymentGateways []GatewaySummary `json:"external_payment_gateways"`
	LifeElements            []LifeElementOut `json:"life_elements"`
	FlowSettings            map[string]any   `json:"flow_settings"`
	RequiresShipping        bool             `json:"requires_shipping"`
	FraudTools              []any            `json:"fraud_tools"`
	EPSGateways             []any            `json:"eps_gateways"`
}

// MarshalJSON writes the initial data with country_info spliced in from its encoding made
// once: the list is 160 KB, and encoding it anew was most of the cost of init and resume.
func (d *InitialData) MarshalJSON() ([]byte, error) {
	parts, err := d.JSONParts()
	if err != nil {
		return nil, err
	}
	return bytes.Join(parts, nil), nil
}

// JSONParts is the initial data's encoding in consecutive parts, one of them the shared
// encoding of the country list, so that an answer can be written without copying it.
func (d *InitialData) JSONParts() ([][]byte, error) {
	type fields InitialData // without MarshalJSON
	rest, err := json.Marshal((*fields)(d))
	if err != nil {
		return nil, err
	}
	return [][]byte{[]byte(`{"country_info":`), shops.CountriesJSON(), []byte(","), rest[1:]}, nil
}

// LifeElementOut is a LiFE element as the storefront renders it.
type LifeElementOut struct {
	PublicID         string  `json:"public_id"`
	Location         string  `json:"location"`
	InputType        string  `json:"input_type"`
	InputDefault     *string `json:"input_default"`
	InputLabel       *string `json:"input_label"`
	InputPlaceholder *string `json:"input_placeholder"`
	InputRequired    *bool   `json:"input_required"`
	InputRegex       *string `json:"input_regex"`
	MetaDataField    string  `json:"meta_data_field"`
	OrderAsc         int     `json:"order_asc"`
}

// NewLifeElementOut is the one wire shape of a LiFE element, for the admin API and storefronts.
func NewLifeElementOut(e *ent.LifeElement) LifeElementOut {
	return LifeElementOut{PublicID: e.PublicID, Location: e.Location, InputType: e.InputType, InputDefault: e.InputDefault,
		InputLabel: e.InputLabel, InputPlaceholder: e.InputPlaceholder, InputRequired: e.InputRequired, InputRegex: e.InputRegex,
		MetaDataField: e.MetaDataField, OrderAsc: e.OrderAsc}
}

// companyNameOption tells the storefront whether the addresses' business_name is required.
func companyNameOption(sh *ent.Shop) string {
	if sh.RequireBusinessName {
		return "required"
	}
	return "optional"
}

// InitialData gathers the shop's storefront settings for an order.
func (s *Service) InitialData(ctx context.Context, v *OrderView) (*InitialData, error) {
	gws, err := s.shops.ExternalPaymentGateways(ctx, v.Shop)
	if err != nil {
		return nil, err
	}
	els, err := s.shops.LifeElements(ctx, v.Shop)
	if err != nil {
		return nil, err
	}
	out := &InitialData{
		ShopName:                v.Shop.Name,
		SupportedLanguages:      []map[string]any{{"iso_language": "en", "language_name": "English", "is_default": true}},
		GeneralSettings:         map[string]any{"checkout_process": map[string]any{"phone_number_required": v.Shop.RequirePhoneNumber, "company_name_option": companyNameOption(v.Shop)}},
		ExternalPaymentGateways: make([]GatewaySummary, len(gws)),
		LifeElements:            make([]LifeElementOut, len(els)),
		FlowSettings:            map[string]any{},
		FraudTools:              []any{}, EPSGateways: []any{},
	}
	for i, g := range gws {
		out.ExternalPaymentGateways[i] = GatewaySummary{PublicID: g.PublicID, Name: g.Name, BaseURL: g.BaseURL, IframeURL: g.IframeURL, Location: g.Location, Currency: g.Currency, IsTest: g.IsTest}
	}
	for i, e := range els {
		out.LifeElements[i] = NewLifeElementOut(e)
	}
	for _, li := range v.LineItems {
		if li.RequiresShipping {
			out.RequiresShipping = true
		}
	}
	return out, nil
}
