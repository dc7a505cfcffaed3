// Package admin is the console's read models (listings of what grows without bound, one page at
// a time, scoped by the caller's shop) and its sign-in sessions.
package admin

import (
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Service reads for the admin console and keeps its sessions; it writes no other table.
type Service struct {
	p      *platform.Platform
	orders *orders.Service
}

// New returns the console's read models.
func New(p *platform.Platform, o *orders.Service) *Service { return &Service{p: p, orders: o} }
