// Package customers is the customer domain: a shop's customers and their addresses as its
// platform knows them, fed by the platform's event notifications (notifications.go), applied
// in the order the platform made the changes whatever order they arrive in.
package customers

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Service owns the customer store: its rules and its tables' writes.
type Service struct {
	p *platform.Platform
	// counts keeps the totals of large lists for a moment (filter.Counts).
	counts filter.Counts
	// names is this process's copy of the search's lexicon (lexicon.go).
	names lexicon
	// maxNameCandidates, when set, lowers the search's bound of names read for one word (tests).
	maxNameCandidates int
}

// New returns the customer domain, with its notification worker and queue registered.
func New(p *platform.Platform) *Service {
	s := &Service{p: p}
	platform.AddWorker(p.Jobs, &notificationWorker{s: s})
	return s
}

// Customer is the shop's customer with that platform id, with its addresses; a deleted one too
// (PlatformDeletedAt says so).
func (s *Service) Customer(ctx context.Context, sh *ent.Shop, platformID string) (*ent.Customer, error) {
	c, err := s.p.DB.Read.Customer.Query().Where(customer.ShopID(sh.ID), customer.PlatformID(platformID)).
		WithAddresses(func(q *ent.CustomerAddressQuery) { q.Order(ent.Asc("id")) }).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, problem.NotFoundError("customer.not_found", "the shop has no customer "+platformID)
	}
	return c, err
}
