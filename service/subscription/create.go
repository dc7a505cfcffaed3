package subscription

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/subscription"
	"github.com/checkoutd/checkoutd/ent/subscriptionaddress"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

// The fields of Create Subscription's problems are named by their path in its body.
const (
	subField      = "subscription."
	customerField = "customer."
)

// Bounds of a subscription a caller creates.
const (
	MaxLineItems = 100
	// MaxExchangeRate bounds base_to_charged_exchange_rate either way: a rate is above
	// 1/MaxExchangeRate and at most MaxExchangeRate.
	MaxExchangeRate = 1_000_000
	maxText         = 255
	maxNote         = 1000
)

// CreateInput is the spec's Create Subscription body.
type CreateInput struct {
	Customer     CustomerInput     `json:"customer"`
	Subscription SubscriptionInput `json:"subscription"`
}

// CustomerInput is the subscription's customer. email and platform_id are checkoutd's: the
// orders placed need an email address, and platform_id links the shop's stored customer (whose
// email is used when none is given).
type CustomerInput struct {
	FirstName  string `json:"first_name"`
	LastName   string `json:"last_name"`
	Phone      string `json:"phone"`
	Notes      string `json:"notes"`
	Email      string `json:"email"`
	PlatformID string `json:"platform_id"`
}

// SubscriptionInput is the subscription part of Create Subscription.
type SubscriptionInput struct {
	IdempotencyKey            string          `json:"idempotency_key"`
	NextOrderDatetime         *time.Time      `json:"next_order_datetime"`
	LastOrderDatetime         *time.Time      `json:"last_order_datetime"`
	SubscriptionStatus        string          `json:"subscription_status"`
	OrderRRule                string          `json:"order_rrule"`
	BaseCurrency              string          `json:"base_currency"`
	ChargedCurrency           string          `json:"charged_currency"`
	BaseToChargedExchangeRate *float64        `json:"base_to_charged_exchange_rate"`
	LineItems                 []LineItemInput `json:"line_items"`
	BillingAddress            *AddressInput   `json:"billing_address"`
	ShippingAddress           *AddressInput   `json:"shipping_address"`
	ExternalID                string          `json:"external_id"`
	PlacedAt                  *time.Time      `json:"placed_at"`
	PaymentDetails            PaymentDetails  `json:"payment_details"`
	DiscountCode              string          `json:"discount_code"`
	Note                      string          `json:"note"`
	OrderNote                 string          `json:"order_note"`
	OrderCount                int             `json:"order_count"`
}

// LineItemInput is one line of Create Subscription.
type LineItemInput struct {
	PlatformProductID   string `json:"platform_product_id"`
	PlatformVariantID   string `json:"platform_variant_id"`
	Quantity            int    `json:"quantity"`
	Price               int64  `json:"price"`
	SubscriptionGroupID *int   `json:"subscription_group_id"`
}

// PaymentDetails names the card orders are charged to: gateway_name is the shop's external
// payment gateway (its public id or its name), gateway_payment_id the payment method token that
// gateway keeps, gateway_customer_id the gateway's customer.
type PaymentDetails struct {
	GatewayName       string `json:"gateway_name"`
	GatewayCustomerID string `json:"gateway_customer_id"`
	GatewayPaymentID  string `json:"gateway_payment_id"`
}

// AddressInput is a subscription address.
type AddressInput struct {
	PlatformID    string `json:"platform_id"`
	FirstName     string `json:"first_name"`
	LastName      string `json:"last_name"`
	Company       string `json:"company"`
	Phone         string `json:"phone"`
	Street1       string `json:"street1"`
	Street2       string `json:"street2"`
	City          string `json:"city"`
	Province      string `json:"province"`
	ProvinceCode  string `json:"province_code"`
	Country       string `json:"country"`
	CountryCode   string `json:"country_code"`
	Zip           string `json:"zip"`
	IsDefault     bool   `json:"is_default"`
	AddressUse    string `json:"address_use"`
	AddressSource string `json:"address_source"`
}

func (a *AddressInput) check(p input.Problems, field string) {
	if a == nil {
		return
	}
	for name, v := range map[string]string{"platform_id": a.PlatformID, "first_name": a.FirstName, "last_name": a.LastName,
		"company": a.Company, "phone": a.Phone, "street1": a.Street1, "street2": a.Street2, "city": a.City, "province": a.Province,
		"country": a.Country, "address_use": a.AddressUse, "address_source": a.AddressSource} {
		p.Text(field+"."+name, v, maxText)
	}
	p.Text(field+".province_code", a.ProvinceCode, 16)
	p.Text(field+".zip", a.Zip, 32)
	if len(a.CountryCode) != 2 {
		p.Add(field+".country_code", "must be a 2-letter ISO 3166 code")
	}
}

var statuses = map[string]bool{"active": true, "inactive": true, "processing": true, "scheduled": true, "paused": true}

func createInvalid(p input.Problems) *problem.Error {
	d := p.Details()
	for k := range p {
		d["field"] = k
	}
	if _, ok := p[subField+"order_rrule"]; ok {
		return problem.Validation("subscription.invalid_rrule", "invalid subscription: "+p.Message(), d)
	}
	return problem.Validation("subscription.invalid", "invalid subscription: "+p.Message(), d)
}

// check is every rule of Create Subscription that reads nothing.
func (in *CreateInput) check(now time.Time) (input.Problems, *time.Time) {
	p := input.Problems{}
	c, sub := &in.Customer, &in.Subscription
	p.Text(customerField+"first_name", c.FirstName, maxText)
	p.Text(customerField+"last_name", c.LastName, maxText)
	p.Text(customerField+"phone", c.Phone, 64)
	p.Text(customerField+"notes", c.Notes, maxNote)
	p.Text(customerField+"platform_id", c.PlatformID, maxText)
	p.Text(customerField+"email", c.Email, maxText)
	if c.Email != "" && orders.ValidateEmailAddress(c.Email) != nil {
		p.Add(customerField+"email", "is not a valid email address")
	}
	p.Text(subField+"idempotency_key", sub.IdempotencyKey, maxText)
	p.Text(subField+"external_id", sub.ExternalID, maxText)
	p.Text(subField+"discount_code", sub.DiscountCode, 64)
	p.Text(subField+"note", sub.Note, maxNote)
	p.Text(subField+"order_note", sub.OrderNote, maxNote)
	p.Text(subField+"payment_details.gateway_name", sub.PaymentDetails.GatewayName, maxText)
	p.Text(subField+"payment_details.gateway_customer_id", sub.PaymentDetails.GatewayCustomerID, maxText)
	p.Text(subField+"payment_details.gateway_payment_id", sub.PaymentDetails.GatewayPaymentID, maxText)
	if sub.PaymentDetails.GatewayName == "" {
		p.Add(subField+"payment_details.gateway_name", "is required: the shop's external payment gateway orders are charged through")
	}
	if sub.PaymentDetails.GatewayPaymentID == "" {
		p.Add(subField+"payment_details.gateway_payment_id", "is required: the stored payment method orders are charged to")
	}
	if sub.SubscriptionStatus != "" && (!statuses[sub.SubscriptionStatus] || sub.SubscriptionStatus == "processing") {
		// processing says an order is being placed: only the sweep sets it.
		p.Add(subField+"subscription_status", "must be one of active, inactive, scheduled, paused")
	}
	if sub.OrderCount < 0 || sub.OrderCount > 1_000_000 {
		p.Add(subField+"order_count", "must be from 0 to 1000000")
	}
	for _, t := range []struct {
		field string
		v     *time.Time
	}{{"next_order_datetime", sub.NextOrderDatetime}, {"last_order_datetime", sub.LastOrderDatetime}, {"placed_at", sub.PlacedAt}} {
		if t.v != nil && (t.v.Year() < 2000 || t.v.Year() > 2200) {
			p.Add("subscription."+t.field, "must be a time between the years 2000 and 2200")
		}
	}
	checkCurrencies(p, sub)
	if len(sub.LineItems) == 0 {
		p.Add(subField+"line_items", "must hold at least one line")
	}
	if len(sub.LineItems) > MaxLineItems {
		p.Add(subField+"line_items", fmt.Sprintf("holds more than %d lines", MaxLineItems))
	}
	for i, li := range sub.LineItems {
		f := fmt.Sprintf(subField+"line_items[%d].", i)
		if li.PlatformVariantID == "" {
			p.Add(f+"platform_variant_id", "is required")
		}
		p.Text(f+"platform_variant_id", li.PlatformVariantID, maxText)
		p.Text(f+"platform_product_id", li.PlatformProductID, maxText)
		if li.Quantity < 1 || li.Quantity > input.MaxQuantity {
			p.Add(f+"quantity", fmt.Sprintf("must be from 1 to %d", input.MaxQuantity))
		}
		if li.Price < 0 || li.Price > input.MaxAmount {
			p.Add(f+"price", fmt.Sprintf("must be an amount in minor units from 0 to %d", input.MaxAmount))
		}
		if li.SubscriptionGroupID != nil && *li.SubscriptionGroupID < 0 {
			p.Add(f+"subscription_group_id", "must not be negative")
		}
	}
	sub.BillingAddress.check(p, subField+"billing_address")
	sub.ShippingAddress.check(p, subField+"shipping_address")
	start := now
	if sub.NextOrderDatetime != nil {
		start = *sub.NextOrderDatetime
	}
	var next *time.Time
	if _, ok := p[subField+"next_order_datetime"]; !ok {
		r, err := parseRule(subField+"order_rrule", sub.OrderRRule, start)
		if err != nil {
			p.Add(subField+"order_rrule", err.Error())
		} else if next = nextAfter(r, start.Add(-time.Second)); next == nil {
			p.Add(subField+"order_rrule", "has no occurrence at or after next_order_datetime")
		}
	}
	return p, next
}

// checkCurrencies: both codes are ISO 4217, and the rate between them is positive and bounded;
// the same currency converts at 1.
func checkCurrencies(p input.Problems, sub *SubscriptionInput) {
	for field, code := range map[string]string{"base_currency": sub.BaseCurrency, "charged_currency": sub.ChargedCurrency} {
		if len(code) != 3 || !currency.IsValid(code) {
			p.Add("subscription."+field, "must be a 3-letter ISO 4217 code")
		}
	}
	rate := 1.0
	if sub.BaseToChargedExchangeRate != nil {
		rate = *sub.BaseToChargedExchangeRate
	}
	switch {
	case math.IsNaN(rate) || rate <= 1.0/MaxExchangeRate || rate > MaxExchangeRate:
		p.Add(subField+"base_to_charged_exchange_rate", fmt.Sprintf("must be above 1/%d and at most %d", MaxExchangeRate, MaxExchangeRate))
	case sub.BaseCurrency == sub.ChargedCurrency && rate != 1:
		p.Add(subField+"base_to_charged_exchange_rate", "must be 1 when base_currency and charged_currency are the same")
	}
}

// charged converts amount, in base's minor units, to charged's at rate, rounded half away from
// zero; ok is false past MaxAmount.
func charged(amount int64, base, chargedCode string, rate float64) (int64, bool) {
	bd, _ := currency.GetDigits(base)
	cd, _ := currency.GetDigits(chargedCode)
	v := math.Round(float64(amount) * rate * math.Pow10(int(cd)-int(bd)))
	if v < 0 || v > input.MaxAmount {
		return 0, false
	}
	return int64(v), true
}

// CreateSubscription stores a subscription; with an idempotency_key the shop used before it
// answers the subscription that key created, unchanged.
func (s *Service) CreateSubscription(ctx context.Context, sh *ent.Shop, in CreateInput) (*View, error) {
	sub := &in.Subscription
	if sub.IdempotencyKey != "" && !input.TooLong(sub.IdempotencyKey, maxText) {
		if v, err := s.byIdempotencyKey(ctx, sh, sub.IdempotencyKey); v != nil || err != nil {
			return v, err
		}
	}
	now := s.p.Clock().UTC()
	p, next := in.check(now)
	if len(p) > 0 {
		return nil, createInvalid(p)
	}
	rule, _ := parseRule(subField+"order_rrule", sub.OrderRRule, *next)
	rate := 1.0
	if sub.BaseToChargedExchangeRate != nil {
		rate = *sub.BaseToChargedExchangeRate
	}
	gateways, err := s.shops.ExternalPaymentGateways(ctx, sh)
	if err != nil {
		return nil, err
	}
	gatewayID := ""
	for _, g := range gateways {
		if g.PublicID == sub.PaymentDetails.GatewayName || (gatewayID == "" && g.Name == sub.PaymentDetails.GatewayName) {
			gatewayID = g.PublicID
		}
	}
	if gatewayID == "" {
		p.Add(subField+"payment_details.gateway_name", "names none of the shop's external payment gateways")
	}
	if sub.ChargedCurrency != sh.Currency && sh.Currency != "" {
		p.Add(subField+"charged_currency", "must be the shop's currency "+sh.Currency+": orders are placed and charged in it")
	}
	var customerID *int
	email := strings.TrimSpace(in.Customer.Email)
	if in.Customer.PlatformID != "" {
		c, err := s.customers.Customer(ctx, sh, in.Customer.PlatformID)
		if e, ok := problem.As(err); err != nil && (!ok || e.Kind != problem.NotFound) {
			return nil, err
		}
		if c != nil {
			customerID = &c.ID
			if email == "" {
				email = c.Email
			}
		}
	}
	if email == "" {
		p.Add(customerField+"email", "is required (or the email of the stored customer platform_id names): the orders placed need one")
	}
	lines := make([]*ent.SubscriptionLineItemCreate, len(sub.LineItems))
	var subtotal int64
	for i, li := range sub.LineItems {
		f := fmt.Sprintf(subField+"line_items[%d].", i)
		v, err := s.catalog.VariantFor(ctx, s.p.DB.Read, sh.ID, li.PlatformVariantID, "")
		if err != nil {
			return nil, err
		}
		if v == nil {
			p.Add(f+"platform_variant_id", "is not a variant of the shop's catalog")
			continue
		}
		price, okPrice := charged(li.Price, sub.BaseCurrency, sub.ChargedCurrency, rate)
		if !okPrice {
			p.Add(f+"price", "converted to charged_currency passes the largest amount")
			continue
		}
		productID, productName := li.PlatformProductID, ""
		if v.Edges.Product != nil {
			productID, productName = v.Edges.Product.PlatformID, v.Edges.Product.Title
		}
		title := productName
		if v.Title != "" && v.Title != productName {
			title = productName + " - " + v.Title
		}
		subtotal += li.Price * int64(li.Quantity)
		lines[i] = s.p.DB.Client.SubscriptionLineItem.Create().SetPosition(i).SetPlatformID(v.PlatformID).
			SetPlatformProductID(productID).SetPlatformVariantID(li.PlatformVariantID).SetNillableSubscriptionGroupID(li.SubscriptionGroupID).
			SetTitle(clipText(title, maxText)).SetProductName(clipText(productName, maxText)).SetVariantName(clipText(v.Title, maxText)).
			SetSku(clipText(v.Sku, maxText)).SetImage(clipText(v.ImageURL, 2048)).SetQuantity(li.Quantity).
			SetPrice(li.Price).SetPriceCharged(price).SetDiscountedPrice(li.Price).SetDiscountedPriceCharged(price).
			SetFullPrice(li.Price).SetFullPriceCharged(price).SetRequiresShipping(v.RequiresShipping).SetTaxable(v.Taxable).
			SetGrams(int(pricing.Grams(v.Weight, v.WeightUnit))).SetWeight(float64(v.Weight)).SetWeightUnit(v.WeightUnit)
	}
	code := shops.NormalizeDiscountCode(sub.DiscountCode)
	percent := 0
	if code != "" && len(p) == 0 {
		if percent, err = s.checkDiscountCode(ctx, sh, code, subtotal); err != nil {
			e, ok := problem.As(err)
			if !ok {
				return nil, err
			}
			p.Add(subField+"discount_code", e.Message)
		}
	}
	if len(p) > 0 {
		return nil, createInvalid(p)
	}
	status := subscription.SubscriptionStatus(sub.SubscriptionStatus)
	if status == "" {
		status = subscription.SubscriptionStatusActive
	}
	var id int
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		create := tx.Subscription.Create().SetShopID(sh.ID).SetNillableCustomerID(customerID).
			SetCustomerPlatformID(in.Customer.PlatformID).SetCustomerFirstName(in.Customer.FirstName).
			SetCustomerLastName(in.Customer.LastName).SetCustomerPhone(in.Customer.Phone).SetCustomerEmail(email).
			SetCustomerNotes(in.Customer.Notes).SetExternalID(sub.ExternalID).SetNote(sub.Note).SetOrderNote(sub.OrderNote).
			SetDiscountCode(code).SetPercentDiscount(percent).SetSubscriptionStatus(status).SetStatusChangedAt(now).
			SetNextOrderDatetime(*next).SetNextPaymentDatetime(*next).SetNextProcessingDatetime(*next).
			SetNillableLastOrderDatetime(sub.LastOrderDatetime).SetNillablePlacedAt(sub.PlacedAt).
			SetPaymentMethodToken(sub.PaymentDetails.GatewayPaymentID).SetPaymentGatewayPublicID(gatewayID).
			SetPaymentDetails(map[string]string{"gateway_name": sub.PaymentDetails.GatewayName,
				"gateway_customer_id": sub.PaymentDetails.GatewayCustomerID, "gateway_payment_id": sub.PaymentDetails.GatewayPaymentID}).
			SetOrderRrule(sub.OrderRRule).SetOrderRruleStart(*next).SetOrderRruleText(ruleText(rule)).
			SetPaymentRrule(sub.OrderRRule).SetPaymentRruleText(ruleText(rule)).
			SetOrderCount(sub.OrderCount).SetChargedCurrency(sub.ChargedCurrency).SetBaseCurrency(sub.BaseCurrency).
			SetBaseToChargedExchangeRate(rate)
		if sub.IdempotencyKey != "" {
			create.SetIdempotencyKey(sub.IdempotencyKey)
		}
		row, err := create.Save(ctx)
		if err != nil {
			return err
		}
		id = row.ID
		for _, l := range lines {
			l.SetSubscriptionID(row.ID)
		}
		if _, err := tx.SubscriptionLineItem.CreateBulk(lines...).Save(ctx); err != nil {
			return err
		}
		for kind, a := range map[subscriptionaddress.Kind]*AddressInput{subscriptionaddress.KindBilling: sub.BillingAddress, subscriptionaddress.KindShipping: sub.ShippingAddress} {
			if a == nil {
				continue
			}
			if err := tx.SubscriptionAddress.Create().SetSubscriptionID(row.ID).SetKind(kind).SetPlatformID(a.PlatformID).
				SetPlatformType(sh.PlatformType).SetPlatformCustomerID(in.Customer.PlatformID).SetFirstName(a.FirstName).
				SetLastName(a.LastName).SetCompany(a.Company).SetPhone(a.Phone).SetStreet1(a.Street1).SetStreet2(a.Street2).
				SetCity(a.City).SetProvince(a.Province).SetProvinceCode(a.ProvinceCode).SetCountry(a.Country).
				SetCountryCode(strings.ToUpper(a.CountryCode)).SetZip(a.Zip).SetIsDefault(a.IsDefault).SetAddressUse(a.AddressUse).
				SetAddressSource(a.AddressSource).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if ent.IsConstraintError(err) && sub.IdempotencyKey != "" {
		// Another create with this key committed first: its subscription is the answer.
		if v, err := s.byIdempotencyKey(ctx, sh, sub.IdempotencyKey); v != nil || err != nil {
			return v, err
		}
	}
	if err != nil {
		return nil, err
	}
	return s.Subscription(ctx, sh, id, true)
}

func (s *Service) byIdempotencyKey(ctx context.Context, sh *ent.Shop, key string) (*View, error) {
	id, err := s.p.DB.Read.Subscription.Query().Where(subscription.ShopID(sh.ID), subscription.IdempotencyKey(key)).OnlyID(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return s.Subscription(ctx, sh, id, true)
}

func clipText(s string, max int) string {
	r := []rune(s)
	if len(r) > max {
		return string(r[:max])
	}
	return s
}
