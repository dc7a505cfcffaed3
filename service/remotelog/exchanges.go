package remotelog

import (
	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/remoteexchange"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Filter narrows the log: to one kind of remote (rsa, override) and/or one order. Empty
// fields do not narrow.
type Filter struct {
	Kind          string
	PublicOrderID string
}

// Kinds are the kinds of remote a filter may name.
var Kinds = []string{"rsa", "override"}

// Exchanges is the shop's exchange log narrowed by f, for the caller to order and page
// through; a filter that names no kind there is or is longer than an order id is refused.
func (s *Service) Exchanges(sh *ent.Shop, f Filter) (*ent.RemoteExchangeQuery, error) {
	q := s.p.DB.Read.RemoteExchange.Query().Where(remoteexchange.ShopID(sh.ID))
	if f.Kind != "" {
		if f.Kind != Kinds[0] && f.Kind != Kinds[1] {
			return nil, problem.Validation("remote_exchange.invalid_kind", "kind must be rsa or override",
				map[string]any{"field": "kind", "allowed": Kinds})
		}
		q.Where(remoteexchange.Kind(f.Kind))
	}
	if f.PublicOrderID != "" {
		if input.TooLong(f.PublicOrderID, input.MaxShortText) {
			return nil, input.TextTooLong("public_order_id", input.MaxShortText)
		}
		q.Where(remoteexchange.PublicOrderID(f.PublicOrderID))
	}
	return q, nil
}
