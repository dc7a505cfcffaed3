package payment

import "github.com/checkoutd/checkoutd/service/platform"

// Service is the payment domain: the ledger and the gift cards an order's payments draw on.
type Service struct {
	p *platform.Platform
	// Ledger writes the ledger's entries.
	Ledger *Ledger
}

// New returns the payment domain.
func New(p *platform.Platform) *Service { return &Service{p: p, Ledger: NewLedger(p.Clock)} }
