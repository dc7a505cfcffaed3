// Package connector is the platform connector domain: a shop's destinations (where its
// platform's connector server lives, one per topic) and the signed calls checkoutd makes to
// them (client.go).
package connector

import (
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/platformorders"
)

// Service owns the destinations and the connector calls: their rules and their tables' writes.
type Service struct {
	p         *platform.Platform
	orders    *orders.Service
	customers *customers.Service
	catalog   *catalog.Service
	// platformOrders keeps the platform's orders a sync imports.
	platformOrders *platformorders.Service
	client         *Client
	outbound       outbound.Policy
	retryBase      time.Duration
	maxAttempts    int
	destinations   platform.FreshCache[int, map[destination.Topic]*ent.Destination]
}

// Config is how connector calls are made and retried.
type Config struct {
	// Outbound is the policy destination URLs are checked against, when configured and called.
	Outbound outbound.Policy
	// RetryBase is the wait before a call's first retry (DefaultRetryBase if zero).
	RetryBase time.Duration
	// MaxAttempts is how many attempts a call gets before it fails (DefaultMaxAttempts if zero).
	MaxAttempts int
	// Calls counts and times the calls made (nil: not).
	Calls *outbound.CallMetrics
}

// New returns the platform connector domain, with its call worker and queue registered.
func New(p *platform.Platform, o *orders.Service, cu *customers.Service, cat *catalog.Service, po *platformorders.Service, cfg Config) *Service {
	if cfg.RetryBase == 0 {
		cfg.RetryBase = DefaultRetryBase
	}
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	// Signatures carry the wall-clock time the platform checks, whatever the service clock says.
	s := &Service{p: p, orders: o, customers: cu, catalog: cat, platformOrders: po, outbound: cfg.Outbound, client: NewClient(cfg.Outbound, time.Now, cfg.Calls),
		retryBase: cfg.RetryBase, maxAttempts: cfg.MaxAttempts}
	s.watchDestinations()
	platform.AddWorker(p.Jobs, &callWorker{s: s})
	platform.AddWorker(p.Jobs, &syncPageWorker{s: s})
	p.Jobs.AddRetention(s.retentionRule())
	return s
}
