// Package shops is the shop configuration domain: shops and their access tokens, the store
// configuration (CORS domains, flows, API overrides, LiFE elements, payment gateways, the shared
// secret and the remote state authority's settings, shipping zones, tax zones, discount codes),
// and the cache every checkout call reads its shop's setup through.
package shops

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Service owns the shops' configuration: its rules and its tables' writes.
type Service struct {
	p        *platform.Platform
	outbound outbound.Policy
	shops    shopCache
	// rsaConfigs keeps each shop's remote state authority (nil: none), which every order change
	// asks for.
	rsaConfigs platform.FreshCache[int, *ent.RSAConfig]
	// overrides keeps each shop's API overrides, which every order change asks for.
	overrides platform.FreshCache[int, []*ent.APIOverride]
	rules     platform.FreshCache[int, *Rules]
	// rsaDeleted are called in the transaction that deletes a shop's remote state authority.
	rsaDeleted []func(ctx context.Context, tx *ent.Tx, shopID int) error
}

// New returns the shop configuration domain. Configured URLs are checked against policy.
func New(p *platform.Platform, policy outbound.Policy) *Service {
	s := &Service{p: p, outbound: policy}
	s.watchShops()
	s.p.DB.Client.RSAConfig.Use(platform.ClearingHook(s.rsaConfigs.Clear, nil))
	s.p.DB.Client.APIOverride.Use(platform.ClearingHook(s.overrides.Clear, nil))
	s.watchRules()
	return s
}
