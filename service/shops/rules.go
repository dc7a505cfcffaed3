package shops

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/shippingrate"
	"github.com/checkoutd/checkoutd/ent/shippingzone"
	"github.com/checkoutd/checkoutd/ent/taxzone"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Rules are a shop's shipping zones (with their rates) and tax zones: read by every order
// view and changed rarely, so they are kept in memory for a moment instead of being queried
// three times per request. Entities in here are shared: nothing may change them.
type Rules struct {
	ShippingZones []*ent.ShippingZone
	TaxZones      []*ent.TaxZone
}

// watchRules clears the cache after any write to the zones, so that this process never
// prices with rules it has itself replaced; another process sees them within shopCacheTTL.
func (s *Service) watchRules() {
	clearing := platform.ClearingHook(s.rules.Clear, nil)
	s.p.DB.Client.ShippingZone.Use(clearing)
	s.p.DB.Client.ShippingRate.Use(clearing)
	s.p.DB.Client.TaxZone.Use(clearing)
}

// Rules returns the shop's zones, from memory when fresh, else read through c (inside a
// transaction, its client: asking the pool for a second connection there could wait forever).
// Kept entities are only ever read for their fields and preloaded rates, never queried from,
// so that one read through a transaction outlives it safely.
func (s *Service) Rules(ctx context.Context, c *ent.Client, shopID int) (*Rules, error) {
	return s.rules.Get(shopID, s.p.Clock, func() (*Rules, error) {
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
		return &Rules{ShippingZones: zones, TaxZones: taxZones}, nil
	})
}
