package orders

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/Boostport/address"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

// AddressKind is which of the order's two addresses a call concerns.
type AddressKind string

const (
	ShippingAddress AddressKind = "shipping"
	BillingAddress  AddressKind = "billing"
)

// AddressInput is an order address as sent.
type AddressInput = schema.OrderAddress

func addressError(kind AddressKind, p input.Problems) *problem.Error {
	d := p.Details()
	for k := range p {
		d["field"] = k
	}
	d["address_type"] = string(kind)
	return problem.Validation("address.invalid_address", "invalid "+string(kind)+" address: "+p.Message(), d)
}

// addressRules say which rules beyond the fields' bounds and codes an address check applies.
type addressRules struct {
	// strict is the update rule: country, country_code, and the province where the country has
	// provinces, cannot be blank.
	strict bool
	// complete: the address is to be the order's (set, update, validate), not one an estimate is
	// made for, so what its country's addresses need (the postal code) is required.
	complete bool
	// businessName and phoneNumber are the shop's settings (complete addresses only).
	businessName, phoneNumber bool
}

// orderAddressRules are the rules of an address that is to be the order's, in shop sh.
func orderAddressRules(sh *ent.Shop, strict bool) addressRules {
	return addressRules{strict: strict, complete: true, businessName: sh.RequireBusinessName, phoneNumber: sh.RequirePhoneNumber}
}

// validateAddress checks country and province codes against ISO 3166 data, requires the postal
// code where the country's addresses need one (complete addresses), and checks it against the
// country's format when one is given.
func validateAddress(kind AddressKind, in *AddressInput, rules addressRules) error {
	strict := rules.strict
	p := input.Problems{}
	p.Text("first_name", in.FirstName, input.MaxShortText)
	p.Text("last_name", in.LastName, input.MaxShortText)
	p.Text("address_line_1", in.AddressLine1, input.MaxShortText)
	p.Text("address_line_2", in.AddressLine2, input.MaxShortText)
	p.Text("country", in.Country, input.MaxShortText)
	p.Text("city", in.City, input.MaxShortText)
	p.Text("province", in.Province, input.MaxShortText)
	p.Text("business_name", in.BusinessName, input.MaxShortText)
	p.Text("phone_number", in.PhoneNumber, input.MaxShortText)
	p.Text("postal_code", in.PostalCode, input.MaxShortText)
	p.Text("country_code", in.CountryCode, input.MaxShortText)
	p.Text("province_code", in.ProvinceCode, input.MaxShortText)
	if len(p) > 0 {
		return addressError(kind, p)
	}
	in.CountryCode = strings.ToUpper(strings.TrimSpace(in.CountryCode))
	in.ProvinceCode = strings.ToUpper(strings.TrimSpace(in.ProvinceCode))
	country, known := shops.FindCountry(in.CountryCode)
	switch {
	case in.CountryCode == "":
		p.Add("country_code", "is required")
	case !known:
		p.Add("country_code", "is not an ISO 3166 country code")
	}
	if strings.TrimSpace(in.Country) == "" {
		if strict {
			p.Add("country", "cannot be blank")
		} else if known {
			in.Country = country.Name
		}
	}
	if known && len(country.Provinces) > 0 {
		switch {
		case in.ProvinceCode == "" && strict:
			p.Add("province_code", "cannot be blank")
		case in.ProvinceCode != "":
			var match *shops.Province
			for i := range country.Provinces {
				if strings.EqualFold(country.Provinces[i].IsoCode, in.ProvinceCode) {
					match = &country.Provinces[i]
				}
			}
			if match == nil {
				p.Add("province_code", "is not a subdivision of "+in.CountryCode)
			} else if strings.TrimSpace(in.Province) == "" {
				if strict {
					p.Add("province", "cannot be blank")
				} else {
					in.Province = match.Name
				}
			}
		}
	}
	if rules.complete && rules.businessName && strings.TrimSpace(in.BusinessName) == "" {
		p.Add("business_name", "is required by the shop")
	}
	if rules.complete && rules.phoneNumber && strings.TrimSpace(in.PhoneNumber) == "" {
		p.Add("phone_number", "is required by the shop")
	}
	if known && rules.complete && strings.TrimSpace(in.PostalCode) == "" && postalCodeRequired(in.CountryCode) {
		p.Add("postal_code", "is required for "+in.CountryCode)
	}
	if known && in.PostalCode != "" {
		if re := address.GetCountry(in.CountryCode).PostCodeRegex.Regex; re != "" {
			if ok, _ := regexp.MatchString(`(?i)^(?:`+re+`)$`, strings.TrimSpace(in.PostalCode)); !ok {
				p.Add("postal_code", "is not a valid postal code for "+in.CountryCode)
			}
		}
	}
	if len(p) > 0 {
		return addressError(kind, p)
	}
	return nil
}

// postalCodeRequired reports whether the country's addresses need a postal code (the address
// format data: the United States, Canada, Mexico and most others; not Ireland or Hong Kong).
func postalCodeRequired(countryCode string) bool {
	return slices.Contains(address.GetCountry(countryCode).Required, address.PostCode)
}

// ValidateAddress checks an address by the rules SetAddress applies, without touching the order.
func ValidateAddress(sh *ent.Shop, kind AddressKind, in AddressInput) error {
	if kind == "" {
		kind = ShippingAddress // address_type only names the address in the error
	}
	if kind != ShippingAddress && kind != BillingAddress {
		return problem.Validation("address.invalid_address_type", "address_type must be shipping or billing", map[string]any{"field": "address_type"})
	}
	return validateAddress(kind, &in, orderAddressRules(sh, false))
}

// SetAddress sets (or overwrites: one per kind per order) an address of the order.
func (s *Service) SetAddress(ctx context.Context, sess *OrderSession, kind AddressKind, in AddressInput) (*OrderView, error) {
	return s.putAddress(ctx, sess, kind, in, false)
}

// UpdateAddress replaces every field of the address; blank values become blank, but the
// country and province may not. Taxes are not recomputed, per the spec.
func (s *Service) UpdateAddress(ctx context.Context, sess *OrderSession, kind AddressKind, in AddressInput) (*OrderView, error) {
	return s.putAddress(ctx, sess, kind, in, true)
}

func (s *Service) putAddress(ctx context.Context, sess *OrderSession, kind AddressKind, in AddressInput, strict bool) (*OrderView, error) {
	if err := validateAddress(kind, &in, orderAddressRules(sess.Shop, strict)); err != nil {
		return nil, err
	}
	in.ID = platform.NewPublicID()
	if v, ok, err := s.remoteEvent(ctx, sess, "set_"+string(kind)+"_address", in); ok {
		return v, err
	}
	return changeWithOverrides(func(fresh bool) (outsideEdit, error) {
		return s.addressOverrides(ctx, sess, kind, &in, strict, fresh)
	}, func(edit outsideEdit) (*OrderView, error) {
		return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
			if kind == ShippingAddress {
				update.SetShippingAddress(&in)
			} else {
				update.SetBillingAddress(&in)
			}
			return edit.apply(o, update)
		})
	})
}

// DeleteAddress removes an address of the order.
func (s *Service) DeleteAddress(ctx context.Context, sess *OrderSession, kind AddressKind) (*OrderView, error) {
	if v, ok, err := s.remoteEvent(ctx, sess, "remove_"+string(kind)+"_address", struct{}{}); ok {
		return v, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if kind == ShippingAddress {
			update.ClearShippingAddress()
		} else {
			update.ClearBillingAddress()
		}
		return nil
	})
}
