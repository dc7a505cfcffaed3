package service

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/accesstoken"
	"github.com/checkoutd/checkoutd/ent/shop"
)

// shopCacheTTL bounds how long another process may answer with a shop's old settings; a change
// made through this process clears its cache at once. Access tokens are never revoked, only
// issued, so a cached token can only be one that is still valid.
const shopCacheTTL = 2 * time.Second

// shopCache keeps shops as every authenticated call finds them (by identifier for storefront
// calls, by access token hash for backend calls): one read per call saved on the busiest paths.
// Cached shops are shared: nothing may change them.
type shopCache struct {
	mu           sync.Mutex
	byIdentifier map[string]cachedShop
	byTokenHash  map[string]cachedShop
	byID         map[string]cachedShop
}

type cachedShop struct {
	shop   *ent.Shop
	loaded time.Time
}

func (c *shopCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.byIdentifier)
	clear(c.byTokenHash)
	clear(c.byID)
}

// watchShops clears the cache after any write to shops or access tokens.
func (s *Service) watchShops() {
	s.shops.byIdentifier, s.shops.byTokenHash, s.shops.byID = map[string]cachedShop{}, map[string]cachedShop{}, map[string]cachedShop{}
	s.db.Client.Shop.Use(clearingHook(s.shops.clear))
	s.db.Client.AccessToken.Use(clearingHook(s.shops.clear))
}

// clearingHook runs clear after every mutation it sees, whether or not the mutation succeeded.
func clearingHook(clear func()) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, err := next.Mutate(ctx, m)
			clear()
			return v, err
		})
	}
}

// cachedShopBy returns the shop kept under key in m when fresh, else loads and keeps it.
func (s *Service) cachedShopBy(m map[string]cachedShop, key string, load func() (*ent.Shop, error)) (*ent.Shop, error) {
	s.shops.mu.Lock()
	e, ok := m[key]
	s.shops.mu.Unlock()
	if age := s.clock().Sub(e.loaded); ok && age >= 0 && age < shopCacheTTL {
		return e.shop, nil
	}
	started := s.clock()
	sh, err := load()
	if err != nil {
		return nil, err
	}
	s.shops.mu.Lock()
	if len(m) > 10000 {
		clear(m)
	}
	m[key] = cachedShop{shop: sh, loaded: started}
	s.shops.mu.Unlock()
	return sh, nil
}

// shopByIdentifier reads a shop by its identifier, through the cache.
func (s *Service) shopByIdentifier(ctx context.Context, identifier string) (*ent.Shop, error) {
	return s.cachedShopBy(s.shops.byIdentifier, identifier, func() (*ent.Shop, error) {
		return s.db.Read.Shop.Query().Where(shop.Identifier(identifier)).Only(ctx)
	})
}

// shopByTokenHash reads the shop an access token (by its hash) belongs to, through the cache.
func (s *Service) shopByTokenHash(ctx context.Context, hash string) (*ent.Shop, error) {
	return s.cachedShopBy(s.shops.byTokenHash, hash, func() (*ent.Shop, error) {
		return s.db.Read.AccessToken.Query().Where(accesstoken.TokenHash(hash)).QueryShop().Only(ctx)
	})
}

// shopByID reads a shop by its id, through the cache (webhook deliveries sign with its secret).
func (s *Service) shopByID(ctx context.Context, id int) (*ent.Shop, error) {
	return s.cachedShopBy(s.shops.byID, strconv.Itoa(id), func() (*ent.Shop, error) {
		return s.db.Read.Shop.Get(ctx, id)
	})
}
