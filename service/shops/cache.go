package shops

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/accesstoken"
	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/ent/lifeelement"
	"github.com/checkoutd/checkoutd/ent/shop"
	"github.com/checkoutd/checkoutd/service/platform"
)

// shopCache keeps what every checkout call reads of its shop's setup: the shop itself (by
// identifier for storefront calls, by access token hash for backend calls, by id for webhook
// deliveries), and by shop id its payment gateways and LiFE elements.
// One read per call saved on the busiest paths; a checkout reads its gateways three times.
// Cached values are shared: nothing may change them.
type shopCache struct {
	byIdentifier, byTokenHash platform.FreshCache[string, *ent.Shop]
	byID                      platform.FreshCache[int, *ent.Shop]
	gateways                  platform.FreshCache[int, []*ent.ExternalPaymentGateway]
	lifeElements              platform.FreshCache[int, []*ent.LifeElement]
}

// watchShops clears each cache after any write to what it keeps, and again when the write's
// transaction commits.
func (s *Service) watchShops() {
	c := &s.shops
	clearShops := func() { c.byIdentifier.Clear(); c.byTokenHash.Clear(); c.byID.Clear() }
	s.p.DB.Client.Shop.Use(platform.ClearingHook(clearShops, nil))
	s.p.DB.Client.AccessToken.Use(platform.ClearingHook(clearShops, nil))
	s.p.DB.Client.ExternalPaymentGateway.Use(platform.ClearingHook(c.gateways.Clear, nil))
	s.p.DB.Client.LifeElement.Use(platform.ClearingHook(c.lifeElements.Clear, nil))
}

// CachedByIdentifier reads a shop by its identifier, through the cache.
func (s *Service) CachedByIdentifier(ctx context.Context, identifier string) (*ent.Shop, error) {
	return s.shops.byIdentifier.Get(identifier, s.p.Clock, func() (*ent.Shop, error) {
		return s.p.DB.Read.Shop.Query().Where(shop.Identifier(identifier)).Only(ctx)
	})
}

// shopByTokenHash reads the shop an access token (by its hash) belongs to, through the cache.
func (s *Service) shopByTokenHash(ctx context.Context, hash string) (*ent.Shop, error) {
	return s.shops.byTokenHash.Get(hash, s.p.Clock, func() (*ent.Shop, error) {
		return s.p.DB.Read.AccessToken.Query().Where(accesstoken.TokenHash(hash)).QueryShop().Only(ctx)
	})
}

// CachedByID reads a shop by its id, through the cache (webhook deliveries sign with its secret).
func (s *Service) CachedByID(ctx context.Context, id int) (*ent.Shop, error) {
	return s.shops.byID.Get(id, s.p.Clock, func() (*ent.Shop, error) {
		return s.p.DB.Read.Shop.Get(ctx, id)
	})
}

// ExternalPaymentGateways lists the shop's gateways, oldest first, through the cache.
func (s *Service) ExternalPaymentGateways(ctx context.Context, sh *ent.Shop) ([]*ent.ExternalPaymentGateway, error) {
	return s.shops.gateways.Get(sh.ID, s.p.Clock, func() ([]*ent.ExternalPaymentGateway, error) {
		return s.p.DB.Read.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(sh.ID)).Order(externalpaymentgateway.ByID()).All(ctx)
	})
}

// GatewaysByPublicID are the shop's gateways by public id, through the cache (the read pool), so
// that process_order reads them before its first transaction and SQLite's one writer is not held
// for them. A gateway changed in between is used as it was read a moment before.
func (s *Service) GatewaysByPublicID(ctx context.Context, sh *ent.Shop) (map[string]*ent.ExternalPaymentGateway, error) {
	gws, err := s.ExternalPaymentGateways(ctx, sh)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*ent.ExternalPaymentGateway, len(gws))
	for _, g := range gws {
		out[g.PublicID] = g
	}
	return out, nil
}

// LifeElements lists the shop's elements by location and order_asc, through the cache.
func (s *Service) LifeElements(ctx context.Context, sh *ent.Shop) ([]*ent.LifeElement, error) {
	return s.shops.lifeElements.Get(sh.ID, s.p.Clock, func() ([]*ent.LifeElement, error) {
		return s.p.DB.Read.LifeElement.Query().Where(lifeelement.ShopID(sh.ID)).
			Order(lifeelement.ByLocation(), lifeelement.ByOrderAsc(), lifeelement.ByID()).All(ctx)
	})
}
