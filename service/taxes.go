package service

import (
	"context"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/ent/taxzone"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// TaxZoneInput is a new tax zone: a country's rate (no province) or one province's.
type TaxZoneInput struct {
	Name         string `json:"name"`
	CountryCode  string `json:"country_code"`
	ProvinceCode string `json:"province_code"`
	// RatePpm is the rate in parts per million: 8.875% is 88750.
	RatePpm         int  `json:"rate_ppm"`
	ShippingTaxable bool `json:"shipping_taxable"`
}

// TaxZonePatch changes the fields it carries.
type TaxZonePatch struct {
	Name            *string
	CountryCode     *string
	ProvinceCode    *string
	RatePpm         *int
	ShippingTaxable *bool
}

func (in *TaxZoneInput) validate() error {
	p := input.Problems{}
	in.Name = strings.TrimSpace(in.Name)
	in.CountryCode = strings.ToUpper(strings.TrimSpace(in.CountryCode))
	in.ProvinceCode = strings.ToUpper(strings.TrimSpace(in.ProvinceCode))
	if in.Name == "" {
		p.Add("name", "is required: it names the tax line")
	}
	country, known := findCountry(in.CountryCode)
	if !known {
		p.Add("country_code", "is not an ISO 3166 country code")
	}
	if known && in.ProvinceCode != "" {
		found := false
		for _, pr := range country.Provinces {
			found = found || strings.EqualFold(pr.IsoCode, in.ProvinceCode)
		}
		if !found {
			p.Add("province_code", "is not a subdivision of "+in.CountryCode)
		}
	}
	p.Text("name", in.Name, input.MaxShortText)
	if in.RatePpm < 0 || in.RatePpm > 1_000_000 {
		p.Add("rate_ppm", "must be between 0 and 1000000 (parts per million)")
	}
	if len(p) > 0 {
		return problem.Validation("tax.invalid_tax_zone", "invalid tax zone: "+p.Message(), p.Details())
	}
	return nil
}

func taxZoneNotFound() *problem.Error {
	return problem.NotFoundError("tax.zone_not_found", "no tax zone with that id")
}

// CreateTaxZone adds a tax zone to the shop.
func (s *Service) CreateTaxZone(ctx context.Context, sh *ent.Shop, in TaxZoneInput) (*ent.TaxZone, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	// The zones are counted before the insert, not under a lock: two admins racing past the
	// bound together add a zone or two beyond it, which the bound's margin absorbs.
	n, err := s.db.Client.TaxZone.Query().Where(taxzone.ShopID(sh.ID)).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n >= input.MaxTaxZones {
		return nil, problem.Validation("tax.too_many_tax_zones", "a shop has at most "+strconv.Itoa(input.MaxTaxZones)+" tax zones", nil)
	}
	return s.db.Client.TaxZone.Create().SetShopID(sh.ID).SetName(in.Name).SetCountryCode(in.CountryCode).
		SetProvinceCode(in.ProvinceCode).SetRatePpm(in.RatePpm).SetShippingTaxable(in.ShippingTaxable).Save(ctx)
}

// UpdateTaxZone changes a zone of the shop; orders priced by it follow on their next read.
func (s *Service) UpdateTaxZone(ctx context.Context, sh *ent.Shop, id int, in TaxZonePatch) (*ent.TaxZone, error) {
	var out *ent.TaxZone
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		z, err := tx.TaxZone.Query().Where(taxzone.ShopID(sh.ID), taxzone.ID(id)).Only(ctx)
		if ent.IsNotFound(err) {
			return taxZoneNotFound()
		}
		if err != nil {
			return err
		}
		merged := TaxZoneInput{Name: z.Name, CountryCode: z.CountryCode, ProvinceCode: z.ProvinceCode, RatePpm: z.RatePpm, ShippingTaxable: z.ShippingTaxable}
		if in.Name != nil {
			merged.Name = *in.Name
		}
		if in.CountryCode != nil {
			merged.CountryCode = *in.CountryCode
		}
		if in.ProvinceCode != nil {
			merged.ProvinceCode = *in.ProvinceCode
		}
		if in.RatePpm != nil {
			merged.RatePpm = *in.RatePpm
		}
		if in.ShippingTaxable != nil {
			merged.ShippingTaxable = *in.ShippingTaxable
		}
		if err := merged.validate(); err != nil {
			return err
		}
		out, err = z.Update().SetName(merged.Name).SetCountryCode(merged.CountryCode).SetProvinceCode(merged.ProvinceCode).
			SetRatePpm(merged.RatePpm).SetShippingTaxable(merged.ShippingTaxable).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out.Unwrap(), nil
}

// DeleteTaxZone removes a zone of the shop.
func (s *Service) DeleteTaxZone(ctx context.Context, sh *ent.Shop, id int) error {
	n, err := s.db.Client.TaxZone.Delete().Where(taxzone.ShopID(sh.ID), taxzone.ID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return taxZoneNotFound()
	}
	return nil
}

// SetPricesIncludeTax says whether the shop's prices already hold the tax.
func (s *Service) SetPricesIncludeTax(ctx context.Context, sh *ent.Shop, include bool) (*ent.Shop, error) {
	return s.db.Client.Shop.UpdateOneID(sh.ID).SetPricesIncludeTax(include).Save(ctx)
}

// GenerateTaxes sets the order's tax basis to the jurisdiction of the address taxes are due at:
// the shipping address when a line ships, else the billing address. The basis stays until the
// next Generate Taxes, whatever happens to the addresses.
func (s *Service) GenerateTaxes(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	return s.changeOrderFieldsReadingItems(ctx, sess, func(_ *ent.Client, o *ent.Order, items []*ent.LineItem, update *ent.OrderUpdate) error {
		addr, kind := taxAddress(o, items)
		if addr == nil {
			return problem.Validation("taxes.address_required", "taxes need the order's "+string(kind)+" address: set it first",
				map[string]any{"field": "address", "address_type": string(kind)})
		}
		update.SetTaxBasis(basisOf(addr))
		return nil
	})
}

// TaxEstimate is what the order's taxes and total would be at an address; the order is unchanged.
type TaxEstimate struct {
	View     *OrderView
	Basis    schema.TaxBasis
	Taxes    []TaxLine
	TaxTotal int64
	Total    int64
}

// EstimateTaxes prices the order as it stands (lines, discounts, selected shipping) with the
// taxes of the given address, without changing it.
func (s *Service) EstimateTaxes(ctx context.Context, sess *OrderSession, in AddressInput) (*TaxEstimate, error) {
	if err := validateAddress(ShippingAddress, &in, false); err != nil {
		return nil, err
	}
	v, err := s.loadOrder(ctx, sess.Shop, sess.PublicOrderID())
	if err != nil {
		return nil, err
	}
	at := *v.Order
	at.TaxBasis = &schema.TaxBasis{CountryCode: in.CountryCode, ProvinceCode: in.ProvinceCode}
	rules, err := s.loadPricingRules(ctx, s.db.Read, sess.Shop, &at)
	if err != nil {
		return nil, err
	}
	p := priceOrder(sess.Shop, &at, v.LineItems, v.SelectedShipping, rules, s.clock())
	return &TaxEstimate{View: v, Basis: *at.TaxBasis, Taxes: p.Taxes, TaxTotal: p.TaxTotal, Total: p.Total}, nil
}
