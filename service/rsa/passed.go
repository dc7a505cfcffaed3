package rsa

import (
	"context"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/orders"
)

// An address or an email address the RSA passed for an order is not put to it again for that
// order while the pass is fresh: Validate Address and Validate Email Address only validate, so
// asking again about the same value gives the RSA nothing new. The common case is a billing
// address the same as the shipping address ("same as shipping"), and a customer updated with
// the email address they had. A refusal is not kept: the shopper may try again once the RSA has
// changed its mind. Discount codes and inventory are asked every time, since their answers
// change with the shop's stock and the codes' use.
const (
	// passFresh is how long a pass stands: longer than a checkout takes, short enough that an
	// RSA whose rules change is asked again about an order left open.
	passFresh = 15 * time.Minute
	// maxPasses bounds the passes kept in memory (a few hundred bytes each).
	maxPasses = 20000
)

// passedKey is one value the RSA passed: an address or an email address (the other empty), for
// an order, of one RSA configuration at one URL.
type passedKey struct {
	rsa     int
	url     string
	order   string
	address Address
	email   string
}

// passes keeps what the RSA passed, with when.
type passes struct {
	kept *lru.Cache[passedKey, time.Time]
}

func newPasses() passes {
	c, _ := lru.New[passedKey, time.Time](maxPasses)
	return passes{kept: c}
}

// validateOnce puts body to the RSA's validate operation call, unless the RSA passed the same
// value (key) for the order within passFresh.
func (s *Service) validateOnce(ctx context.Context, cfg *ent.RSAConfig, sess *orders.OrderSession, call string, key passedKey, body any) error {
	key.rsa, key.url, key.order = cfg.ID, cfg.URL, sess.PublicOrderID()
	if at, ok := s.passes.kept.Get(key); ok && time.Since(at) < passFresh {
		return nil
	}
	if _, err := s.call(ctx, cfg, sess.Shop, key.order, call, body); err != nil {
		return err
	}
	s.passes.kept.Add(key, time.Now())
	return nil
}
