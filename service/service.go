// Package service wires checkoutd's domains together: it builds each domain's service on the
// platform part and hands the front doors one value that holds them (svc.Orders, svc.Checkout, ...).
// The rules live in the domain packages beneath it.
package service

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"entgo.io/ent/dialect"
	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/platformorders"
	"github.com/checkoutd/checkoutd/service/remote"
	"github.com/checkoutd/checkoutd/service/remotelog"
	"github.com/checkoutd/checkoutd/service/rsa"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/subscription"
	"github.com/checkoutd/checkoutd/service/webhook"
	"github.com/checkoutd/checkoutd/service/webhooks"
)

// Service holds the domains; the front doors call them through it (svc.Orders.SetAddress, svc.Checkout.Capture).
type Service struct {
	// Shops is the shop configuration domain.
	Shops *shops.Service
	// Catalog is the catalog domain: products, variants, stock.
	Catalog *catalog.Service
	// Admin is the console's read models.
	Admin *admin.Service
	// Checkout is what spans the domains of a sale: process order, authorize all, capture,
	// refund, cancel, the sweeps, and the idempotency of money calls.
	Checkout *checkout.Service
	// Orders is the order domain: the order and what a shopper changes on it.
	Orders *orders.Service
	// Payments is the payment domain: the ledger, the gateway client, gift cards.
	Payments *payment.Service
	// Webhooks is the webhook domain: subscriptions and deliveries.
	Webhooks *webhooks.Service
	// Connector is the platform connector domain: destinations and the calls made to them.
	Connector *connector.Service
	// Customers is the customer domain: the platform's customers and addresses.
	Customers *customers.Service
	// PlatformOrders are the shop's orders as its platform knows them.
	PlatformOrders *platformorders.Service
	// RSA is the shops' remote state authorities.
	RSA *rsa.Service
	// Remote is the one client of the shops' remote state authorities and API overrides: its
	// circuits are shared by every call to a remote, and it hands each exchange to RemoteLog.
	Remote *remote.Client
	// RemoteLog is the support log of the exchanges with remote state authorities and overrides.
	RemoteLog *remotelog.Service
	// Subscriptions are the customers' recurring orders, placed through checkout when due.
	Subscriptions *subscription.Service

	p              *platform.Platform
	db             *platform.Database
	log            *slog.Logger
	clock          func() time.Time
	gatewayTimeout time.Duration
	outbound       outbound.Policy
	smtpURL        string

	webhookTimeout     time.Duration
	webhookRetryBase   time.Duration
	webhookMaxAttempts int
	connectorRetryBase time.Duration
	jobPollInterval    time.Duration
	subscriptions      subscription.Config
}

// Option configures a Service.
type Option func(*Service)

// WithClock replaces the wall clock, so that time rules are tested without sleeping.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.clock = now } }

// WithGatewayTimeout bounds each call to an external payment gateway (default 10s).
func WithGatewayTimeout(d time.Duration) Option { return func(s *Service) { s.gatewayTimeout = d } }

// WithOutboundAllowPrivate lets calls to configured URLs (gateways, webhooks, and the
// integrations to come) reach private, loopback and other non-public addresses
// (CHECKOUT_OUTBOUND_ALLOW_PRIVATE=true; make run and the tests set it). Link-local and cloud
// metadata addresses stay refused. Off by default.
func WithOutboundAllowPrivate(allow bool) Option {
	return func(s *Service) { s.outbound.AllowPrivate = allow }
}

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithJobPollInterval sets how often idle workers look for jobs (tests shorten it).
func WithJobPollInterval(d time.Duration) Option { return func(s *Service) { s.jobPollInterval = d } }

// WithSubscriptionSweepInterval sets how often the due subscriptions are placed (default
// subscription.DefaultSweepInterval).
func WithSubscriptionSweepInterval(d time.Duration) Option {
	return func(s *Service) { s.subscriptions.SweepInterval = d }
}

// New returns a Service on db.
func New(db *platform.Database, opts ...Option) *Service {
	s := &Service{db: db, log: slog.Default(), clock: time.Now, gatewayTimeout: gateway.DefaultTimeout,
		webhookTimeout: webhook.DefaultTimeout, webhookRetryBase: webhooks.DefaultRetryBase,
		webhookMaxAttempts: webhooks.DefaultMaxAttempts, jobPollInterval: platform.DefaultJobPollInterval}
	for _, o := range opts {
		o(s)
	}
	s.p = platform.New(db, s.log, s.clock)
	// Signatures carry the wall-clock Date the gateway or receiver checks, whatever the
	// service clock says.
	calls := outbound.NewCallMetrics(s.p.Metrics)
	gateways := gateway.New(s.gatewayTimeout, time.Now, s.outbound).Measured(calls)
	s.RemoteLog = remotelog.New(s.p)
	// One remote client for every outside system taking part in a checkout while the shopper
	// waits (the remote state authority and the API overrides): one set of circuits.
	s.Remote = remote.New(s.outbound, time.Now, remote.WithRecorder(s.RemoteLog), remote.WithMetrics(calls))
	s.Shops = shops.New(s.p, s.outbound)
	s.Catalog = catalog.New(s.p)
	s.Payments = payment.New(s.p, gateways)
	s.Orders = orders.New(s.p, s.Shops, s.Catalog, s.smtpURL)
	s.Customers = customers.New(s.p)
	s.PlatformOrders = platformorders.New(s.p)
	s.Connector = connector.New(s.p, s.Orders, s.Customers, s.Catalog, s.PlatformOrders, connector.Config{Outbound: s.outbound, RetryBase: s.connectorRetryBase, Calls: calls})
	s.Orders.UseCustomerTokens(s.Connector)
	s.Orders.UseOverrides(override.New(s.Remote, s.outbound))
	s.RSA = rsa.New(s.p, s.Shops, s.Orders, s.Remote)
	s.Orders.UseStateAuthority(s.RSA)
	s.Checkout = checkout.New(s.p, s.Shops, s.Catalog, s.Orders, s.Payments, s.Connector)
	s.Subscriptions = subscription.New(s.p, s.Shops, s.Catalog, s.Customers, s.Orders, s.Checkout, s.subscriptions)
	s.Admin = admin.New(s.p, s.Orders)
	s.Webhooks = webhooks.New(s.p, s.Shops, webhooks.Config{Timeout: s.webhookTimeout, RetryBase: s.webhookRetryBase,
		MaxAttempts: s.webhookMaxAttempts, Outbound: s.outbound})
	s.registerProcessMetrics()
	// A job runs for at most one callback plus the reads before it (the writes after it do
	// not depend on the job's context).
	if err := s.p.Jobs.Open(platform.QueueConfig{PollInterval: s.jobPollInterval,
		JobTimeout: s.webhookTimeout + 5*time.Second, LongestJob: checkout.SweepInterval}); err != nil {
		// Only a mistake in the queue's configuration gets here, never the environment.
		panic(fmt.Sprintf("service: job queue: %v", err))
	}
	return s
}

// Client is the ent client that writes; tests use it to look at and arrange the database.
func (s *Service) Client() *ent.Client { return s.db.Client }

// Reader is the ent client for reads outside transactions (GraphQL queries scoped through the
// service, dataloaders).
func (s *Service) Reader() *ent.Client { return s.db.Read }

// Ready reports whether the database answers.
func (s *Service) Ready(ctx context.Context) error { return s.db.Ping(ctx) }

// StartJobs starts working the job queue (webhook deliveries, the periodic sweeps) until
// StopJobs or ctx ends. Every checkoutd process may run it: each job is worked once.
//
// On PostgreSQL, which several processes share, it also takes this process's lease (renewed
// while it runs): what the process leaves running when it dies is taken over once the lease
// lapses; and its part in the lock by which a process alone on the database holds orders for
// their remote state authority in memory (platform.Database.HoldKey).
func (s *Service) StartJobs(ctx context.Context) error {
	if s.db.Dialect == dialect.Postgres {
		if err := s.p.StartLease(ctx); err != nil {
			return err
		}
		s.db.JoinHolders(s.p.LeaseID())
	}
	return s.p.Jobs.Start(ctx)
}

// SetRetention sets how long the records named name (webhook_deliveries, connector_calls,
// idempotency_records, remote_exchanges) are kept before the retention job deletes them; before StartJobs.
func (s *Service) SetRetention(name string, keep time.Duration) error {
	return s.p.Jobs.SetRetention(name, keep)
}

// RetentionRules are the kinds of records deleted when old, with how long each is kept.
func (s *Service) RetentionRules() []platform.RetentionRule { return s.p.Jobs.RetentionRules() }

// PruneOldRecords deletes what the retention rules no longer keep, as the hourly retention job
// does, for at most budget.
func (s *Service) PruneOldRecords(ctx context.Context, budget time.Duration) (map[string]int, error) {
	return s.p.Jobs.Prune(ctx, budget)
}

// StopJobs lets running jobs finish (within ctx) and stops taking new ones.
func (s *Service) StopJobs(ctx context.Context) error {
	err := s.p.Jobs.Stop(ctx)
	s.p.StopLease(ctx)
	// The exchanges still in memory are written before the process goes.
	s.RemoteLog.Flush(ctx)
	return err
}

// WithSMTP sends customer emails through the SMTP server of url
// (smtp://user:password@host:port?from=shop@example.com, CHECKOUT_SMTP_URL). Without it no
// email is sent and answers say so.
func WithSMTP(rawURL string) Option { return func(s *Service) { s.smtpURL = rawURL } }

// WithWebhookTimeout bounds each webhook callback (default 10s).
func WithWebhookTimeout(d time.Duration) Option { return func(s *Service) { s.webhookTimeout = d } }

// WithWebhookRetryBase sets the wait before the first retry of a failed callback (default 10s).
func WithWebhookRetryBase(d time.Duration) Option {
	return func(s *Service) { s.webhookRetryBase = d }
}

// WithConnectorRetryBase sets the wait before a connector call's first retry (default 10 s).
func WithConnectorRetryBase(d time.Duration) Option {
	return func(s *Service) { s.connectorRetryBase = d }
}

// WithWebhookMaxAttempts sets how many attempts a delivery gets before it is failed (default 18).
func WithWebhookMaxAttempts(n int) Option { return func(s *Service) { s.webhookMaxAttempts = n } }
