package shops

import (
	"context"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/apioverride"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// APIOverrideTypes are the pieces of checkout functionality a shop can send to its own endpoint.
var APIOverrideTypes = []string{"address_validate", "shipping", "discount", "inventory", "tax"}

// APIOverrideInput creates an override (all fields) or patches one (any subset).
type APIOverrideInput struct {
	OverrideType *string `json:"override_type"`
	URL          *string `json:"url"`
	SharedSecret *string `json:"shared_secret"`
}

func (in APIOverrideInput) validate(creating bool, policy outbound.Policy) error {
	p := input.Problems{}
	if in.OverrideType == nil && creating {
		p.Add("override_type", "is required")
	} else if in.OverrideType != nil && !slices.Contains(APIOverrideTypes, *in.OverrideType) {
		p.Add("override_type", "must be one of address_validate, shipping, discount, inventory, tax")
	}
	if in.URL == nil && creating {
		p.Add("url", "is required")
	} else if in.URL != nil {
		if why := input.OutboundURLProblem(policy, *in.URL); why != "" {
			p.Add("url", why)
		}
	}
	if in.SharedSecret == nil && creating {
		p.Add("shared_secret", "is required")
	} else if in.SharedSecret != nil && *in.SharedSecret == "" {
		p.Add("shared_secret", "cannot be blank")
	} else if in.SharedSecret != nil {
		p.Text("shared_secret", *in.SharedSecret, input.MaxSecretText)
	}
	if len(p) > 0 {
		return problem.Validation("api_override.invalid_api_override_data", "invalid API override: "+p.Message(), p.Details())
	}
	return nil
}

// APIOverrides lists the shop's overrides, oldest first.
func (s *Service) APIOverrides(ctx context.Context, sh *ent.Shop) ([]*ent.APIOverride, error) {
	return s.p.DB.Read.APIOverride.Query().Where(apioverride.ShopID(sh.ID)).Order(apioverride.ByID()).All(ctx)
}

// CreateAPIOverride adds an override.
func (s *Service) CreateAPIOverride(ctx context.Context, sh *ent.Shop, in APIOverrideInput) (*ent.APIOverride, error) {
	if err := in.validate(true, s.outbound); err != nil {
		return nil, err
	}
	return s.p.DB.Client.APIOverride.Create().SetShopID(sh.ID).SetPublicID(platform.NewPublicID()).
		SetOverrideType(*in.OverrideType).SetURL(*in.URL).SetSharedSecret(*in.SharedSecret).Save(ctx)
}

func overrideNotFound(publicID string) *problem.Error {
	return problem.NotFoundError("api_override.not_found", "no API override with public_id "+publicID)
}

// UpdateAPIOverride changes the given fields.
func (s *Service) UpdateAPIOverride(ctx context.Context, sh *ent.Shop, publicID string, in APIOverrideInput) (*ent.APIOverride, error) {
	if err := in.validate(false, s.outbound); err != nil {
		return nil, err
	}
	var out *ent.APIOverride
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := tx.APIOverride.Query().Where(apioverride.ShopID(sh.ID), apioverride.PublicID(publicID)).Only(ctx)
		if ent.IsNotFound(err) {
			return overrideNotFound(publicID)
		}
		if err != nil {
			return err
		}
		u := o.Update()
		if in.OverrideType != nil {
			u.SetOverrideType(*in.OverrideType)
		}
		if in.URL != nil {
			u.SetURL(*in.URL)
		}
		if in.SharedSecret != nil {
			u.SetSharedSecret(*in.SharedSecret)
		}
		out, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

// DeleteAPIOverride removes an override.
func (s *Service) DeleteAPIOverride(ctx context.Context, sh *ent.Shop, publicID string) error {
	n, err := s.p.DB.Client.APIOverride.Delete().Where(apioverride.ShopID(sh.ID), apioverride.PublicID(publicID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return overrideNotFound(publicID)
	}
	return nil
}
