package payment

import (
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Service is the payment domain: the ledger, the gateway client and the gift cards an order's
// payments draw on.
type Service struct {
	p *platform.Platform
	// Ledger writes the ledger's entries.
	Ledger *Ledger
	// Gateways calls the shops' payment gateways.
	Gateways *gateway.Client
}

// New returns the payment domain.
func New(p *platform.Platform, gateways *gateway.Client) *Service {
	return &Service{p: p, Ledger: NewLedger(p), Gateways: gateways}
}
