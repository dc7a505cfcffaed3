// Package connector is the platform connector domain: a shop's destinations (where its
// platform's connector server lives, one per topic) and the signed calls checkoutd makes to
// them (client.go).
package connector

import (
	"time"

	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Service owns the destinations: their rules and their table's writes.
type Service struct {
	p        *platform.Platform
	client   *Client
	outbound outbound.Policy
}

// New returns the platform connector domain.
func New(p *platform.Platform, policy outbound.Policy) *Service {
	// Signatures carry the wall-clock time the platform checks, whatever the service clock says.
	return &Service{p: p, outbound: policy, client: NewClient(policy, time.Now)}
}
