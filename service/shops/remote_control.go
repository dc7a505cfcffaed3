package shops

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/apioverride"
	"github.com/checkoutd/checkoutd/ent/rsaconfig"
)

// Where an override of an order comes from: the shop's configuration, or the order's own
// (given at init), which wins over the shop's of the same type.
const (
	OverrideFromShop  = "shop"
	OverrideFromOrder = "order"
)

// AppliedOverride is one override type an order's checkout sends to an outside endpoint.
type AppliedOverride struct {
	OverrideType string
	Source       string
	// InEffect is false when a remote state authority is configured: it owns the order's
	// state, shipping lines, taxes and discounts included, so the overrides are not called.
	InEffect bool
}

// RemoteControl says which parts of a shop's checkouts are decided outside checkoutd: by a
// remote state authority, and by which API overrides.
type RemoteControl struct {
	UnderRSA  bool
	Overrides []AppliedOverride
}

// RemoteControl is the shop's: whether it has a remote state authority and its overrides, one
// per type (the first configured of a type is the one called).
func (s *Service) RemoteControl(ctx context.Context, sh *ent.Shop) (RemoteControl, error) {
	under, err := s.p.DB.Read.RSAConfig.Query().Where(rsaconfig.ShopID(sh.ID)).Exist(ctx)
	if err != nil {
		return RemoteControl{}, err
	}
	types, err := s.p.DB.Read.APIOverride.Query().Where(apioverride.ShopID(sh.ID)).Order(apioverride.ByID()).
		Select(apioverride.FieldOverrideType).Strings(ctx)
	if err != nil {
		return RemoteControl{}, err
	}
	rc := RemoteControl{UnderRSA: under, Overrides: []AppliedOverride{}}
	seen := map[string]bool{}
	for _, t := range types {
		if seen[t] {
			continue
		}
		seen[t] = true
		rc.Overrides = append(rc.Overrides, AppliedOverride{OverrideType: t, Source: OverrideFromShop, InEffect: !under})
	}
	return rc, nil
}
