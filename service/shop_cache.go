package service

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/accesstoken"
	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/ent/lifeelement"
	"github.com/checkoutd/checkoutd/ent/shop"
	"github.com/checkoutd/checkoutd/ent/webhooksubscription"
)

// shopCacheTTL bounds how long another process may answer with a shop's old settings; a change
// made through this process clears its cache at once, and again when its transaction commits.
// Access tokens are never revoked, only issued, so a cached token can only be one that is still
// valid.
const shopCacheTTL = 2 * time.Second

// shopCache keeps what every checkout call reads of its shop's setup: the shop itself (by
// identifier for storefront calls, by access token hash for backend calls, by id for webhook
// deliveries), and by shop id its payment gateways, LiFE elements and webhook subscriptions.
// One read per call saved on the busiest paths; a checkout reads its gateways three times.
// Cached values are shared: nothing may change them.
type shopCache struct {
	byIdentifier, byTokenHash freshCache[string, *ent.Shop]
	byID                      freshCache[int, *ent.Shop]
	gateways                  freshCache[int, []*ent.ExternalPaymentGateway]
	lifeElements              freshCache[int, []*ent.LifeElement]
	subscriptions             freshCache[int, []subscribedTopic]
}

// subscribedTopic is what recording an event needs of a webhook subscription.
type subscribedTopic struct{ subscriptionID, topicID int }

// freshCache keeps values for shopCacheTTL. A load that a clear overtakes is not kept, so a
// value read before a change committed cannot outlive the clear at its commit.
type freshCache[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]freshEntry[V]
	clears  uint64
}

type freshEntry[V any] struct {
	value  V
	loaded time.Time
}

func (c *freshCache[K, V]) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.clears++
}

// get returns the value kept under key when it is fresh at now, else loads and keeps it.
func (c *freshCache[K, V]) get(key K, now func() time.Time, load func() (V, error)) (V, error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	clears := c.clears
	c.mu.Unlock()
	started := now()
	if age := started.Sub(e.loaded); ok && age >= 0 && age < shopCacheTTL {
		return e.value, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clears != clears {
		return v, nil
	}
	if c.entries == nil || len(c.entries) > 10000 {
		c.entries = map[K]freshEntry[V]{}
	}
	c.entries[key] = freshEntry[V]{value: v, loaded: started}
	return v, nil
}

// watchShops clears each cache after any write to what it keeps, and again when the write's
// transaction commits.
func (s *Service) watchShops() {
	c := &s.shops
	clearShops := func() { c.byIdentifier.clear(); c.byTokenHash.clear(); c.byID.clear() }
	s.db.Client.Shop.Use(clearingHook(clearShops, nil))
	s.db.Client.AccessToken.Use(clearingHook(clearShops, nil))
	s.db.Client.ExternalPaymentGateway.Use(clearingHook(c.gateways.clear, nil))
	s.db.Client.LifeElement.Use(clearingHook(c.lifeElements.clear, nil))
	// Deliveries keep their subscription's health up to date; only what routes events clears.
	s.db.Client.WebhookSubscription.Use(clearingHook(c.subscriptions.clear, func(m ent.Mutation) bool {
		return !m.Op().Is(ent.OpUpdate|ent.OpUpdateOne) || slices.Contains(m.Fields(), webhooksubscription.FieldWebhookTopicID)
	}))
}

// clearingHook runs clear after every mutation it sees that concerns it (all when concerns is
// nil), whether or not the mutation succeeded, and once more when its transaction ends, so
// that nothing read inside it, or before its commit, is kept.
func clearingHook(clear func(), concerns func(ent.Mutation) bool) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, err := next.Mutate(ctx, m)
			if concerns != nil && !concerns(m) {
				return v, err
			}
			clear()
			if inTx, ok := m.(interface{ Tx() (*ent.Tx, error) }); ok {
				if tx, txErr := inTx.Tx(); txErr == nil {
					tx.OnCommit(func(next ent.Committer) ent.Committer {
						return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
							defer clear()
							return next.Commit(ctx, tx)
						})
					})
					tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
						return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
							defer clear()
							return next.Rollback(ctx, tx)
						})
					})
				}
			}
			return v, err
		})
	}
}

// shopByIdentifier reads a shop by its identifier, through the cache.
func (s *Service) shopByIdentifier(ctx context.Context, identifier string) (*ent.Shop, error) {
	return s.shops.byIdentifier.get(identifier, s.clock, func() (*ent.Shop, error) {
		return s.db.Read.Shop.Query().Where(shop.Identifier(identifier)).Only(ctx)
	})
}

// shopByTokenHash reads the shop an access token (by its hash) belongs to, through the cache.
func (s *Service) shopByTokenHash(ctx context.Context, hash string) (*ent.Shop, error) {
	return s.shops.byTokenHash.get(hash, s.clock, func() (*ent.Shop, error) {
		return s.db.Read.AccessToken.Query().Where(accesstoken.TokenHash(hash)).QueryShop().Only(ctx)
	})
}

// shopByID reads a shop by its id, through the cache (webhook deliveries sign with its secret).
func (s *Service) shopByID(ctx context.Context, id int) (*ent.Shop, error) {
	return s.shops.byID.get(id, s.clock, func() (*ent.Shop, error) {
		return s.db.Read.Shop.Get(ctx, id)
	})
}

// ExternalPaymentGateways lists the shop's gateways, oldest first, through the cache.
func (s *Service) ExternalPaymentGateways(ctx context.Context, sh *ent.Shop) ([]*ent.ExternalPaymentGateway, error) {
	return s.shops.gateways.get(sh.ID, s.clock, func() ([]*ent.ExternalPaymentGateway, error) {
		return s.db.Read.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(sh.ID)).Order(externalpaymentgateway.ByID()).All(ctx)
	})
}

// LifeElements lists the shop's elements by location and order_asc, through the cache.
func (s *Service) LifeElements(ctx context.Context, sh *ent.Shop) ([]*ent.LifeElement, error) {
	return s.shops.lifeElements.get(sh.ID, s.clock, func() ([]*ent.LifeElement, error) {
		return s.db.Read.LifeElement.Query().Where(lifeelement.ShopID(sh.ID)).
			Order(lifeelement.ByLocation(), lifeelement.ByOrderAsc(), lifeelement.ByID()).All(ctx)
	})
}

// subscribedTopics are the shop's webhook subscriptions as events are routed to them, in the
// order they were made, through the cache; read through c (a transaction's client inside one,
// where asking the pool for a second connection could wait forever).
func (s *Service) subscribedTopics(ctx context.Context, c *ent.Client, shopID int) ([]subscribedTopic, error) {
	return s.shops.subscriptions.get(shopID, s.clock, func() ([]subscribedTopic, error) {
		var rows []struct {
			ID             int `json:"id"`
			WebhookTopicID int `json:"webhook_topic_id"`
		}
		err := c.WebhookSubscription.Query().Where(webhooksubscription.ShopID(shopID)).Order(webhooksubscription.ByID()).
			Select(webhooksubscription.FieldID, webhooksubscription.FieldWebhookTopicID).Scan(ctx, &rows)
		out := make([]subscribedTopic, len(rows))
		for i, r := range rows {
			out[i] = subscribedTopic{subscriptionID: r.ID, topicID: r.WebhookTopicID}
		}
		return out, err
	})
}
