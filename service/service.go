// Package service is checkoutd's one service layer: every rule, every transaction.
package service

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/webhook"
)

// Service owns the business rules of checkoutd.
type Service struct {
	db             *Database
	log            *slog.Logger
	clock          func() time.Time
	gatewayTimeout time.Duration
	gateways       *gateway.Client
	outbound       outbound.Policy
	smtpURL        string
	rules          freshCache[int, *shopRules]
	shops          shopCache
	children       orderChildrenCache

	webhookTimeout     time.Duration
	webhookRetryBase   time.Duration
	webhookMaxAttempts int
	webhooks           *webhook.Client
	jobPollInterval    time.Duration
	jobs               *river.Client[*sql.Tx]
	metrics            *metrics
	// sqlTxs maps each transaction inTx has open to its *sql.Tx, for River's InsertTx.
	sqlTxs sync.Map
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

// New returns a Service on db.
func New(db *Database, opts ...Option) *Service {
	s := &Service{db: db, log: slog.Default(), clock: time.Now, gatewayTimeout: gateway.DefaultTimeout,
		webhookTimeout: webhook.DefaultTimeout, webhookRetryBase: DefaultWebhookRetryBase,
		webhookMaxAttempts: DefaultWebhookMaxAttempts, jobPollInterval: DefaultJobPollInterval}
	for _, o := range opts {
		o(s)
	}
	// Signatures carry the wall-clock Date the gateway or receiver checks, whatever the
	// service clock says.
	s.gateways = gateway.New(s.gatewayTimeout, time.Now, s.outbound)
	s.watchShopRules()
	s.watchShops()
	s.webhooks = webhook.New(s.webhookTimeout, time.Now, s.outbound)
	s.metrics = newMetrics(s)
	jobs, err := newJobClient(s)
	if err != nil {
		// Only a mistake in the queue's configuration above gets here, never the environment.
		panic(fmt.Sprintf("service: job queue: %v", err))
	}
	s.jobs = jobs
	return s
}

// Client is the ent client that writes; tests use it to look at and arrange the database.
func (s *Service) Client() *ent.Client { return s.db.Client }

// Reader is the ent client for reads outside transactions (GraphQL queries scoped through the
// service, dataloaders).
func (s *Service) Reader() *ent.Client { return s.db.Read }

// Ready reports whether the database answers.
func (s *Service) Ready(ctx context.Context) error { return s.db.Ping(ctx) }

// inTx runs fn in one transaction: all of it is written, or none. Jobs inserted through
// s.insertJobsTx(tx, ...) are part of it.
func (s *Service) inTx(ctx context.Context, fn func(tx *ent.Tx) error) (err error) {
	slot := &txSlot{}
	tx, err := s.db.Client.Tx(context.WithValue(ctx, txSlotKey{}, slot))
	if err != nil {
		return err
	}
	if slot.tx != nil {
		s.sqlTxs.Store(tx, slot.tx)
		defer s.sqlTxs.Delete(tx)
	}
	defer s.wrote(time.Now())
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		if rerr := tx.Rollback(); rerr != nil {
			return fmt.Errorf("%w (rollback: %v)", err, rerr)
		}
		return err
	}
	return tx.Commit()
}

// wrote ends a write (a transaction, or a statement outside one) that began at began: it is
// counted in the metrics, with the time it held the writer.
func (s *Service) wrote(began time.Time) {
	s.metrics.writeTxs.Inc()
	s.metrics.writeTxSeconds.Add(time.Since(began).Seconds())
	if s.db.Dialect == dialect.SQLite {
		// The one writer connection has just been handed to the next waiting write, whose
		// goroutine Go queued to run after this one on this processor, that is after this
		// request's answer is written. Yielding runs it now and keeps the writer busy.
		runtime.Gosched()
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// newPublicID returns an opaque 32-character identifier.
func newPublicID() string { return randomHex(16) }
