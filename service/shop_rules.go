package service

import (
	"context"
	"sync"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/shippingrate"
	"github.com/checkoutd/checkoutd/ent/shippingzone"
	"github.com/checkoutd/checkoutd/ent/taxzone"
)

// shopRulesTTL bounds how long another process may price with a shop's old zones; a change made
// through this process clears its cache at once.
const shopRulesTTL = 2 * time.Second

// shopRules are a shop's shipping zones (with their rates) and tax zones: read by every order
// view and changed rarely, so they are kept in memory for a moment instead of being queried
// three times per request. Entities in here are shared: nothing may change them.
type shopRules struct {
	shippingZones []*ent.ShippingZone
	taxZones      []*ent.TaxZone
}

type shopRulesEntry struct {
	rules  *shopRules
	loaded time.Time
}

type shopRulesCache struct {
	mu      sync.Mutex
	entries map[int]shopRulesEntry
}

func (c *shopRulesCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
}

// watchShopRules clears the cache after any write to the zones, so that this process never
// prices with rules it has itself replaced.
func (s *Service) watchShopRules() {
	s.rules.entries = map[int]shopRulesEntry{}
	clearing := clearingHook(s.rules.clear, nil)
	s.db.Client.ShippingZone.Use(clearing)
	s.db.Client.ShippingRate.Use(clearing)
	s.db.Client.TaxZone.Use(clearing)
}

// shopRulesOf returns the shop's zones, from memory when fresh, else read through c (inside a
// transaction, its client: asking the pool for a second connection there could wait forever).
// Kept entities are only ever read for their fields and preloaded rates, never queried from,
// so that one read through a transaction outlives it safely.
func (s *Service) shopRulesOf(ctx context.Context, c *ent.Client, shopID int) (*shopRules, error) {
	s.rules.mu.Lock()
	e, ok := s.rules.entries[shopID]
	s.rules.mu.Unlock()
	if ok && s.clock().Sub(e.loaded) < shopRulesTTL {
		return e.rules, nil
	}
	started := s.clock()
	zones, err := c.ShippingZone.Query().Where(shippingzone.ShopID(shopID)).WithRates(func(q *ent.ShippingRateQuery) {
		q.Order(shippingrate.ByAmount(), shippingrate.ByID())
	}).Order(shippingzone.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	taxZones, err := c.TaxZone.Query().Where(taxzone.ShopID(shopID)).Order(taxzone.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	r := &shopRules{shippingZones: zones, taxZones: taxZones}
	s.rules.mu.Lock()
	if len(s.rules.entries) > 10000 {
		clear(s.rules.entries)
	}
	s.rules.entries[shopID] = shopRulesEntry{rules: r, loaded: started}
	s.rules.mu.Unlock()
	return r, nil
}
