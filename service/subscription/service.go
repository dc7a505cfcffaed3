// Package subscription is the subscription domain: a customer's recurring order, created
// through the read interfaces' subscription operations, and placed as a shopper's order is, by
// the checkout path, on each date its order_rrule gives (recurrence.go; docs/subscriptions.md).
package subscription

import (
	"time"

	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/shops"
)

// Service owns the subscriptions: their rules and their tables' writes.
type Service struct {
	p         *platform.Platform
	shops     *shops.Service
	catalog   *catalog.Service
	customers *customers.Service
	orders    *orders.Service
	checkout  *checkout.Service
	cfg       Config
}

// Config is how the subscription domain runs.
type Config struct {
	// SweepInterval is how often the due subscriptions are placed (DefaultSweepInterval if
	// zero): each is placed within it of its next_order_datetime.
	SweepInterval time.Duration
}

// New returns the subscription domain and gives the job queue its sweep of due subscriptions.
func New(p *platform.Platform, sh *shops.Service, cat *catalog.Service, cust *customers.Service, o *orders.Service, co *checkout.Service, cfg Config) *Service {
	if cfg.SweepInterval <= 0 {
		cfg.SweepInterval = DefaultSweepInterval
	}
	s := &Service{p: p, shops: sh, catalog: cat, customers: cust, orders: o, checkout: co, cfg: cfg}
	s.registerSweep()
	return s
}
