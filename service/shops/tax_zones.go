package shops

import (
	"context"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
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
	country, known := FindCountry(in.CountryCode)
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

func TaxZoneNotFound() *problem.Error {
	return problem.NotFoundError("tax.zone_not_found", "no tax zone with that id")
}

// CreateTaxZone adds a tax zone to the shop.
func (s *Service) CreateTaxZone(ctx context.Context, sh *ent.Shop, in TaxZoneInput) (*ent.TaxZone, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	// The zones are counted before the insert, not under a lock: two admins racing past the
	// bound together add a zone or two beyond it, which the bound's margin absorbs.
	n, err := s.p.DB.Client.TaxZone.Query().Where(taxzone.ShopID(sh.ID)).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n >= input.MaxTaxZones {
		return nil, problem.Validation("tax.too_many_tax_zones", "a shop has at most "+strconv.Itoa(input.MaxTaxZones)+" tax zones", nil)
	}
	return s.p.DB.Client.TaxZone.Create().SetShopID(sh.ID).SetName(in.Name).SetCountryCode(in.CountryCode).
		SetProvinceCode(in.ProvinceCode).SetRatePpm(in.RatePpm).SetShippingTaxable(in.ShippingTaxable).Save(ctx)
}

// UpdateTaxZone changes a zone of the shop; orders priced by it follow on their next read.
func (s *Service) UpdateTaxZone(ctx context.Context, sh *ent.Shop, id int, in TaxZonePatch) (*ent.TaxZone, error) {
	var out *ent.TaxZone
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		z, err := tx.TaxZone.Query().Where(taxzone.ShopID(sh.ID), taxzone.ID(id)).Only(ctx)
		if ent.IsNotFound(err) {
			return TaxZoneNotFound()
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
	n, err := s.p.DB.Client.TaxZone.Delete().Where(taxzone.ShopID(sh.ID), taxzone.ID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return TaxZoneNotFound()
	}
	return nil
}

// SetPricesIncludeTax says whether the shop's prices already hold the tax.
func (s *Service) SetPricesIncludeTax(ctx context.Context, sh *ent.Shop, include bool) (*ent.Shop, error) {
	return s.p.DB.Client.Shop.UpdateOneID(sh.ID).SetPricesIncludeTax(include).Save(ctx)
}
