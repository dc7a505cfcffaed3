// Package checkout is what spans the domains of a sale. It holds the one idempotency mechanism
// every money call runs under, whichever door it came through. Process order, authorize all,
// cancel and the sweeps join it as they leave the root package.
package checkout

import "github.com/checkoutd/checkoutd/service/platform"

// Service is the checkout domain.
type Service struct {
	p *platform.Platform
}

// New returns the checkout domain.
func New(p *platform.Platform) *Service { return &Service{p: p} }
