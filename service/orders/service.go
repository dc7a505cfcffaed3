// Package orders is the order domain: the order and everything a shopper or the shop's backend
// changes on it before it is processed (init, resume, the order JWT, customer, addresses, lines,
// shipping, taxes, discount codes, tenders), its application state, its events and the
// abandoned-order sweep.
package orders

import (
	"context"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/shops"
)

// AbandonedSweepInterval is how often the order/abandoned queue is dispatched (the spec's five
// minutes).
const AbandonedSweepInterval = 5 * time.Minute

// Service is the order domain.
type Service struct {
	p       *platform.Platform
	shops   *shops.Service
	catalog *catalog.Service
	smtpURL string
	// children keeps the line items and payments of orders this process changed last.
	children orderChildrenCache
	// customerTokens checks an authenticated customer's token with the shop's platform (the
	// platform connector; nil: no check).
	customerTokens CustomerTokens
	// overrides calls the shops' API overrides (nil: the built-in functions always answer).
	overrides *override.Service
	// ownOverrides keeps, by order id, the API overrides orders were given at init.
	ownOverrides *lru.Cache[int, []*ent.OrderAPIOverride]
	// authority is the shops' remote state authorities (service/rsa; nil: none is asked).
	authority StateAuthority
	// fieldChanges counts changes of an order's own row by how they were written: "kept" in one
	// conditional statement on the order this process kept, "locked" in a transaction.
	fieldChanges *prometheus.CounterVec
	// initialized counts the orders created, once each, at the commit that creates them.
	initialized prometheus.Counter
}

// New returns the order domain; smtpURL is where customer emails go (empty: none are sent).
func New(p *platform.Platform, sh *shops.Service, cat *catalog.Service, smtpURL string) *Service {
	s := &Service{p: p, shops: sh, catalog: cat, smtpURL: smtpURL,
		fieldChanges: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_order_field_changes_total",
			Help: "Changes of an order's own row (customer, addresses, shipping line, taxes, discount codes), by path: kept (one statement on the order this process kept, still current) or locked (a transaction on the locked row).",
		}, []string{"path"}),
		initialized: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "checkoutd_orders_initialized_total",
			Help: "Orders initialized (created from a cart); a resumed order is not a new one.",
		})}
	s.ownOverrides, _ = lru.New[int, []*ent.OrderAPIOverride](maxKeptOrders)
	p.Metrics.MustRegister(s.fieldChanges, s.initialized)
	platform.AddWorker(p.Jobs, &abandonedSweepWorker{s: s})
	platform.AddWorker(p.Jobs, &abandonedCartEmailWorker{s: s})
	p.Jobs.AddPeriodic("abandoned_order_sweep", AbandonedSweepInterval, func() river.JobArgs { return abandonedSweepArgs{} })
	return s
}

// CustomerTokens checks a customer's token with the shop's platform: nil when the platform
// says it is active, or when the shop has no platform to ask.
type CustomerTokens interface {
	ValidateCustomerToken(ctx context.Context, sh *ent.Shop, platformID, token string) error
}

// UseCustomerTokens makes init check an authenticated customer's token through t.
func (s *Service) UseCustomerTokens(t CustomerTokens) { s.customerTokens = t }
