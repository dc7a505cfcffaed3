// Package checkout is what spans the domains of a sale: process order, authorize all, capture,
// refund, cancel, the recovery and follow-up sweeps, and the one idempotency mechanism every
// money call runs under, whichever door it came through.
package checkout

import (
	"entgo.io/ent/dialect"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/shops"
)

// Service is the checkout domain.
type Service struct {
	p       *platform.Platform
	shops   *shops.Service
	catalog *catalog.Service
	orders  *orders.Service
	// connector creates processed orders on the platform when the shop has an orders destination.
	connector *connector.Service
	ledger    *payment.Ledger
	gateways  *gateway.Client
	// processCompletions counts process_order's last transactions by path: "reserved" on the
	// rows as its reservation left them, "locked" on rows read again because one moved on.
	processCompletions *prometheus.CounterVec
	// processed counts the orders processed, once each, at the commit that marks them so.
	processed prometheus.Counter
}

// New returns the checkout domain and gives the job queue its sweeps.
func New(p *platform.Platform, sh *shops.Service, cat *catalog.Service, o *orders.Service, pay *payment.Service, conn *connector.Service) *Service {
	s := &Service{p: p, shops: sh, catalog: cat, orders: o, connector: conn, ledger: pay.Ledger, gateways: pay.Gateways,
		processCompletions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_order_process_completions_total",
			Help: "process_order's last transactions (every payment authorized), by path: reserved (conditional updates of the rows as the order's reservation left them) or locked (the rows locked and read again, one having moved on).",
		}, []string{"path"}),
		processed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "checkoutd_orders_processed_total",
			Help: "Orders processed: every payment authorized (or verified) and the order marked processed.",
		})}
	p.Metrics.MustRegister(s.processCompletions, s.processed)
	platform.AddWorker(p.Jobs, &recoverySweepWorker{s: s})
	platform.AddWorker(p.Jobs, &followUpSweepWorker{s: s})
	p.Jobs.AddPeriodic("interrupted_authorization_sweep", SweepInterval, func() river.JobArgs { return recoverySweepArgs{} })
	p.Jobs.AddPeriodic("pending_move_follow_up", SweepInterval, func() river.JobArgs { return followUpSweepArgs{} })
	p.Jobs.AddRetention(s.idempotencyRetentionRule())
	if p.DB.Dialect == dialect.Postgres {
		s.registerLeaseTakeover()
	}
	return s
}
