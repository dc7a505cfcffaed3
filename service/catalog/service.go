// Package catalog is the catalog domain: products, their variants and the variants' stock,
// which orders reserve at processing and give back when they fail, are cancelled or refunded
// with restock.
package catalog

import (
	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Service owns the catalog: its rules and its tables' writes.
type Service struct {
	p *platform.Platform
	// counts keeps the totals of large lists for a moment (filter.Counts).
	counts filter.Counts
}

// New returns the catalog domain, with its notification worker and queue registered.
func New(p *platform.Platform) *Service {
	s := &Service{p: p}
	platform.AddWorker(p.Jobs, &notificationWorker{s: s})
	return s
}
