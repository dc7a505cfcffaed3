package orders

import (
	"strconv"

	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/pricing"
)

// ApplicationState is the full order state of the spec, as storefront calls answer it.
// Collections are never null: the public frontend library throws on a missing one.
type ApplicationState struct {
	Customer        any                    `json:"customer"`
	Addresses       map[string]any         `json:"addresses"`
	LineItems       []LineItemState        `json:"line_items"`
	Fees            []any                  `json:"fees"`
	Taxes           []pricing.TaxLine      `json:"taxes"`
	Discounts       []pricing.DiscountLine `json:"discounts"`
	Payments        []PaymentState         `json:"payments"`
	OrderTotal      int64                  `json:"order_total"`
	OrderBalance    int64                  `json:"order_balance"`
	OrderMetaData   schema.OrderMetaData   `json:"order_meta_data"`
	Shipping        ShippingState          `json:"shipping"`
	ResumableLink   string                 `json:"resumable_link"`
	LinkToCart      string                 `json:"link_to_cart"`
	FlowID          string                 `json:"flow_id"`
	Currency        CurrencyInfo           `json:"currency"`
	DisplayCurrency CurrencyInfo           `json:"display_currency"`
	DisplayExchange float64                `json:"display_exchange_rate"`
	CreatedVia      string                 `json:"created_via"`
	IsProcessed     bool                   `json:"is_processed"`
	OrderID         int                    `json:"order_id"`
	PlatformOrderID string                 `json:"platform_order_id"`
}

// ShippingState is the order's chosen and offered shipping lines.
type ShippingState struct {
	SelectedShipping       any                    `json:"selected_shipping"`
	AvailableShippingLines []any                  `json:"available_shipping_lines"`
	Taxes                  []pricing.TaxLine      `json:"taxes"`
	Discounts              []pricing.DiscountLine `json:"discounts"`
}

// LineItemState is one line with its product data.
type LineItemState struct {
	ProductData       ProductData            `json:"product_data"`
	Taxes             []pricing.TaxLine      `json:"taxes"`
	Fees              []any                  `json:"fees"`
	Discounts         []pricing.DiscountLine `json:"discounts"`
	FulfilledQuantity int                    `json:"fulfilled_quantity"`
}

// ProductData is the spec's line item product data.
type ProductData struct {
	ID                    string            `json:"id"`
	ProductTitle          string            `json:"product_title"`
	Title                 string            `json:"title"`
	Properties            map[string]string `json:"properties"`
	Description           string            `json:"description"`
	Quantity              int               `json:"quantity"`
	Price                 int64             `json:"price"`
	TotalPrice            int64             `json:"total_price"`
	Visible               int               `json:"visible"`
	LineItemKey           string            `json:"line_item_key"`
	Barcode               string            `json:"barcode"`
	CompareAtPrice        int64             `json:"compare_at_price"`
	Weight                int               `json:"weight"`
	WeightUnit            string            `json:"weight_unit"`
	ProductID             string            `json:"product_id"`
	VariantID             string            `json:"variant_id"`
	RequiresShipping      bool              `json:"requires_shipping"`
	SKU                   string            `json:"sku"`
	Taxable               bool              `json:"taxable"`
	Tags                  string            `json:"tags"`
	Vendor                string            `json:"vendor"`
	TotalWeight           int               `json:"total_weight"`
	ImageURL              string            `json:"image_url"`
	LocalizedNames        map[string]string `json:"localized_names"`
	LocalizedDescriptions map[string]string `json:"localized_descriptions"`
	LocalizedVariantNames map[string]string `json:"localized_variant_names"`
}

// CurrencyInfo describes a currency for display.
type CurrencyInfo struct {
	IsoCode        string `json:"iso_code"`
	IsoNumericCode int    `json:"iso_numeric_code"`
	Symbol         string `json:"symbol"`
	Format         string `json:"format"`
	HasDecimal     bool   `json:"has_decimal"`
	ShowIsoCode    bool   `json:"show_iso_code"`
}

func currencyInfo(code string) CurrencyInfo {
	numeric, _ := currency.GetNumericCode(code)
	n, _ := strconv.Atoi(numeric)
	digits, _ := currency.GetDigits(code)
	symbol, _ := currency.GetSymbol(code, currency.NewLocale("en"))
	format := "${{amount}}"
	if symbol != "$" {
		format = symbol + "{{amount}}"
	}
	return CurrencyInfo{IsoCode: code, IsoNumericCode: n, Symbol: symbol, Format: format, HasDecimal: digits > 0, ShowIsoCode: false}
}

// PaymentState is one tender on the order as the storefront sees it.
type PaymentState struct {
	GatewayPublicID   string         `json:"gateway_public_id"`
	Amount            int64          `json:"amount"`
	Currency          string         `json:"currency"`
	Type              string         `json:"type"`
	DisplayString     string         `json:"display_string"`
	ID                string         `json:"id"`
	Token             string         `json:"token"`
	Retain            bool           `json:"retain"`
	WalletPayType     string         `json:"wallet_pay_type"`
	PaymentParameters map[string]any `json:"payment_parameters"`
	Status            string         `json:"status"`
	Step              string         `json:"step"`
}

func paymentState(p *ent.OrderPayment) PaymentState {
	params := p.PaymentParameters
	if params == nil {
		params = map[string]any{}
	}
	return PaymentState{GatewayPublicID: p.GatewayPublicID, Amount: p.Amount, Currency: p.Currency, Type: p.TenderType,
		DisplayString: p.DisplayString, ID: p.PublicID, Token: p.Token, Retain: p.Retain, WalletPayType: p.WalletPayType,
		PaymentParameters: params, Status: p.Status.String(), Step: p.Step}
}

// TenderedAmount is what the order's live tenders (not failed or voided) cover.
func TenderedAmount(payments []*ent.OrderPayment) int64 {
	var sum int64
	for _, p := range payments {
		if p.Status != orderpayment.StatusFailed && p.Status != orderpayment.StatusVoided {
			sum += p.Amount
		}
	}
	return sum
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// orderState derives the application state from the order view; nothing in it is stored twice.
func orderState(v *OrderView) ApplicationState {
	o, pr := v.Order, v.Pricing
	lines := make([]LineItemState, len(v.LineItems))
	for i, li := range v.LineItems {
		props := li.Properties
		if props == nil {
			props = map[string]string{}
		}
		lines[i] = LineItemState{
			ProductData: ProductData{
				ID: li.LineItemKey, ProductTitle: li.ProductTitle, Title: li.Title, Properties: props, Quantity: li.Quantity,
				Price: li.Price, TotalPrice: li.Price * int64(li.Quantity), Visible: 1, LineItemKey: li.LineItemKey, CompareAtPrice: li.CompareAtPrice,
				Weight: li.Weight, WeightUnit: li.WeightUnit, ProductID: li.ProductID, VariantID: li.VariantID,
				RequiresShipping: li.RequiresShipping, SKU: li.Sku, Taxable: li.Taxable, Tags: li.Tags, Vendor: li.Vendor,
				TotalWeight: li.Weight * li.Quantity, ImageURL: li.ImageURL,
				LocalizedNames: map[string]string{}, LocalizedDescriptions: map[string]string{}, LocalizedVariantNames: map[string]string{},
			},
			Taxes: orEmpty(pr.LineTaxes[li.LineItemKey]), Fees: []any{}, Discounts: orEmpty(pr.LineDiscounts[li.LineItemKey]),
			FulfilledQuantity: li.FulfilledQuantity,
		}
	}
	meta := o.MetaData
	if meta.CartParameters == nil {
		meta.CartParameters = map[string]string{}
	}
	if meta.NoteAttributes == nil {
		meta.NoteAttributes = map[string]string{}
	}
	if meta.Tags == nil {
		meta.Tags = []string{}
	}
	shipping := ShippingState{SelectedShipping: []any{}, AvailableShippingLines: []any{},
		Taxes: orEmpty(pr.ShippingTaxes), Discounts: orEmpty(pr.ShippingDiscounts)}
	for _, l := range v.ShippingLines {
		shipping.AvailableShippingLines = append(shipping.AvailableShippingLines, shippingLineEntry(l))
	}
	if v.SelectedShipping != nil {
		shipping.SelectedShipping = v.SelectedShipping
	}
	payments := make([]PaymentState, 0, len(v.Payments))
	for _, p := range v.Payments {
		if p.Status != orderpayment.StatusFailed && p.Status != orderpayment.StatusVoided {
			payments = append(payments, paymentState(p))
		}
	}
	cur := currencyInfo(o.Currency)
	var customer any = []any{}
	if o.Customer != nil {
		customer = map[string]any{
			"platform_id": o.Customer.PlatformID, "public_id": o.Customer.PublicID, "first_name": o.Customer.FirstName,
			"last_name": o.Customer.LastName, "email_address": o.Customer.EmailAddress,
			"accepts_marketing": o.Customer.AcceptsMarketing, "saved_addresses": []any{},
		}
	}
	addresses := map[string]any{"shipping": []any{}, "billing": []any{}}
	if o.ShippingAddress != nil {
		addresses["shipping"] = o.ShippingAddress
	}
	if o.BillingAddress != nil {
		addresses["billing"] = o.BillingAddress
	}
	return ApplicationState{
		Customer:        customer,
		Addresses:       addresses,
		LineItems:       lines,
		Fees:            feeStates(pr.Fees),
		Taxes:           orEmpty(pr.Taxes),
		Discounts:       orEmpty(pr.Discounts),
		Payments:        payments,
		OrderTotal:      pr.Total,
		OrderBalance:    pr.Total - TenderedAmount(v.Payments),
		OrderMetaData:   meta,
		Shipping:        shipping,
		ResumableLink:   o.ResumableLink,
		LinkToCart:      o.ResumableLink,
		FlowID:          o.FlowID,
		Currency:        cur,
		DisplayCurrency: cur,
		DisplayExchange: 1,
		CreatedVia:      o.CreatedVia,
		IsProcessed:     o.Status == order.StatusProcessed,
		OrderID:         o.ID,
		PlatformOrderID: o.PlatformOrderID,
	}
}

// FeeState is one fee on the order in the spec's shape.
type FeeState struct {
	ID              string `json:"id"`
	LineText        string `json:"line_text"`
	FeeType         string `json:"fee_type"`
	Value           int64  `json:"value"`
	Source          string `json:"source"`
	PluginUUID      string `json:"plugin_uuid"`
	Taxable         bool   `json:"taxable"`
	ShowDescription bool   `json:"show_description"`
}

// feeStates are the order's fees; only an outside system adds them (schema.OutsidePricing).
func feeStates(fees []pricing.Fee) []any {
	out := make([]any, 0, len(fees))
	for i, f := range fees {
		out = append(out, FeeState{ID: strconv.Itoa(i + 1), LineText: f.Description, FeeType: "fixed", Value: f.Value,
			Source: "outside", Taxable: f.Taxable, ShowDescription: true})
	}
	return out
}
