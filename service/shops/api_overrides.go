package shops

import (
	"context"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/apioverride"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/override"
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
	// FailurePolicy (refuse or fallback) is what a failed call does; unset, the type's default
	// (override.DefaultPolicy).
	FailurePolicy *string `json:"failure_policy"`
	// TimeoutMS bounds each call (override.MinTimeoutMS to MaxTimeoutMS; default 2000).
	TimeoutMS *int `json:"timeout_ms"`
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
	override.CheckPolicy(p, "failure_policy", in.FailurePolicy)
	override.CheckTimeout(p, "timeout_ms", in.TimeoutMS)
	if len(p) > 0 {
		return problem.Validation("api_override.invalid_api_override_data", "invalid API override: "+p.Message(), p.Details())
	}
	return nil
}

// HasAPIOverrides says whether the shop has an API override, through the cache (ShopOverrides).
func (s *Service) HasAPIOverrides(ctx context.Context, sh *ent.Shop) (bool, error) {
	all, err := s.ShopOverrides(ctx, sh)
	return len(all) > 0, err
}

// ShopOverrides is the shop's API overrides, oldest first, through the cache: every order
// change asks. A change made through this process is seen at once, one made by another within
// platform.CacheTTL. The overrides answered are shared: nothing may change them.
func (s *Service) ShopOverrides(ctx context.Context, sh *ent.Shop) ([]*ent.APIOverride, error) {
	return s.overrides.Get(sh.ID, s.p.Clock, func() ([]*ent.APIOverride, error) {
		return s.APIOverrides(ctx, sh)
	})
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
	create := s.p.DB.Client.APIOverride.Create().SetShopID(sh.ID).SetPublicID(platform.NewPublicID()).
		SetOverrideType(*in.OverrideType).SetURL(*in.URL).SetSharedSecret(*in.SharedSecret).
		SetFailurePolicy(override.DefaultPolicy(*in.OverrideType))
	if in.FailurePolicy != nil {
		create.SetFailurePolicy(*in.FailurePolicy)
	}
	if in.TimeoutMS != nil {
		create.SetTimeoutMs(*in.TimeoutMS)
	}
	return create.Save(ctx)
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
		if in.FailurePolicy != nil {
			u.SetFailurePolicy(*in.FailurePolicy)
		}
		if in.TimeoutMS != nil {
			u.SetTimeoutMs(*in.TimeoutMS)
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

// EffectivePolicy is the failure policy an override applies: its own, or its type's default.
func EffectivePolicy(o *ent.APIOverride) string {
	if o.FailurePolicy == "" {
		return override.DefaultPolicy(o.OverrideType)
	}
	return o.FailurePolicy
}
