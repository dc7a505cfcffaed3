package shops

import (
	"context"
	"fmt"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/rsaconfig"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/problem"
)

// ConfigureSharedSecret sets or rotates the secret that signs the shop's webhook callbacks.
func (s *Service) ConfigureSharedSecret(ctx context.Context, sh *ent.Shop, secret string) (*ent.Shop, error) {
	if secret == "" {
		return nil, problem.Validation("integration.invalid_shared_secret", "shared_secret is required", map[string]any{"field": "shared_secret"})
	}
	if input.TooLong(secret, input.MaxSecretText) {
		return nil, problem.Validation("integration.invalid_shared_secret", fmt.Sprintf("shared_secret is longer than %d characters", input.MaxSecretText),
			map[string]any{"field": "shared_secret", "max_length": input.MaxSecretText})
	}
	return s.p.DB.Client.Shop.UpdateOneID(sh.ID).SetSharedSecret(secret).Save(ctx)
}

// MaskSecret shows the last four characters of a secret and nothing else.
func MaskSecret(secret string) string {
	if len(secret) <= 4 {
		return "****"
	}
	return "****" + secret[len(secret)-4:]
}

// RSAConfigInput is the remote state authority's address and secret; on PATCH, absent fields stay.
type RSAConfigInput struct {
	URL          *string `json:"url"`
	SharedSecret *string `json:"shared_secret"`
	// TimeoutMS bounds each call to the RSA (100 to 10000; default 2000).
	TimeoutMS *int `json:"timeout_ms"`
}

func (in RSAConfigInput) validate(creating bool, policy outbound.Policy) error {
	p := input.Problems{}
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
	override.CheckTimeout(p, "timeout_ms", in.TimeoutMS)
	if len(p) > 0 {
		return problem.Validation("rsa_config.invalid_rsa_config", "invalid remote state authority config: "+p.Message(), p.Details())
	}
	return nil
}

// RSAConfig returns the shop's remote state authority config, if any, through the cache: every
// order change asks. A change made through this process is seen at once, one made by another
// within platform.CacheTTL. The config answered is shared: nothing may change it.
func (s *Service) RSAConfig(ctx context.Context, sh *ent.Shop) (*ent.RSAConfig, error) {
	return s.rsaConfigs.Get(sh.ID, s.p.Clock, func() (*ent.RSAConfig, error) {
		c, err := s.p.DB.Read.RSAConfig.Query().Where(rsaconfig.ShopID(sh.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, nil
		}
		return c, err
	})
}

// CreateRSAConfig configures the remote state authority, replacing any earlier config.
func (s *Service) CreateRSAConfig(ctx context.Context, sh *ent.Shop, in RSAConfigInput) (*ent.RSAConfig, error) {
	if err := in.validate(true, s.outbound); err != nil {
		return nil, err
	}
	var out *ent.RSAConfig
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		if _, err := tx.RSAConfig.Delete().Where(rsaconfig.ShopID(sh.ID)).Exec(ctx); err != nil {
			return err
		}
		var err error
		create := tx.RSAConfig.Create().SetShopID(sh.ID).SetURL(*in.URL).SetSharedSecret(*in.SharedSecret)
		if in.TimeoutMS != nil {
			create.SetTimeoutMs(*in.TimeoutMS)
		}
		out, err = create.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

// UpdateRSAConfig changes the given fields; there must be a config to change.
func (s *Service) UpdateRSAConfig(ctx context.Context, sh *ent.Shop, in RSAConfigInput) (*ent.RSAConfig, error) {
	if err := in.validate(false, s.outbound); err != nil {
		return nil, err
	}
	var out *ent.RSAConfig
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		c, err := tx.RSAConfig.Query().Where(rsaconfig.ShopID(sh.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return &problem.Error{Kind: problem.Invalid, Code: problem.CodeRSANotSet, Type: "rsa_config.not_configured",
				Message: "no remote state authority is configured for this shop: POST /rsa_config first"}
		}
		if err != nil {
			return err
		}
		u := c.Update()
		if in.URL != nil {
			u.SetURL(*in.URL)
		}
		if in.SharedSecret != nil {
			u.SetSharedSecret(*in.SharedSecret)
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

// DeleteRSAConfig removes the remote state authority; the shop's checkout owns its state again.
func (s *Service) DeleteRSAConfig(ctx context.Context, sh *ent.Shop) error {
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		n, err := tx.RSAConfig.Delete().Where(rsaconfig.ShopID(sh.ID)).Exec(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return &problem.Error{Kind: problem.Invalid, Code: problem.CodeRSANotSet, Type: "rsa_config.not_configured",
				Message: "no remote state authority is configured for this shop"}
		}
		for _, f := range s.rsaDeleted {
			if err := f(ctx, tx, sh.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// OnRSAConfigDeleted has f called in the transaction that deletes a shop's remote state
// authority (the RSA domain takes its state off the shop's open orders there, so that no order
// change needs to look for it).
func (s *Service) OnRSAConfigDeleted(f func(ctx context.Context, tx *ent.Tx, shopID int) error) {
	s.rsaDeleted = append(s.rsaDeleted, f)
}
