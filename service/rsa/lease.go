package rsa

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/rsaorderlease"
	"github.com/checkoutd/checkoutd/service/platform"
)

// leaseRetry is how often a request waiting for an order's lease asks again.
const leaseRetry = 15 * time.Millisecond

// lease is an order's RSA lease, held by one request from before its call until its answer is
// applied: the order's events reach the RSA one at a time and each carries the last answer,
// whichever process serves the shopper. Taking it is one statement, so no transaction stays
// open during the call; a lease past its expiry was left by a request that died, and is taken
// over.
type lease struct {
	s       *Service
	orderID int
	holder  string
}

// acquire takes the order's lease for hold, waiting up to wait for the request holding it.
func (s *Service) acquire(ctx context.Context, orderID int, hold, wait time.Duration) (*lease, error) {
	l := &lease{s: s, orderID: orderID, holder: platform.NewPublicID()}
	deadline := time.Now().Add(wait)
	db := s.p.DB.Client
	for {
		now := time.Now()
		err := db.RSAOrderLease.Create().SetOrderID(orderID).SetHolder(l.holder).SetExpiresAt(now.Add(hold)).Exec(ctx)
		if err == nil {
			return l, nil
		}
		if !ent.IsConstraintError(err) {
			return nil, err
		}
		n, err := db.RSAOrderLease.Update().Where(rsaorderlease.OrderID(orderID), rsaorderlease.ExpiresAtLT(now)).
			SetHolder(l.holder).SetExpiresAt(now.Add(hold)).Save(ctx)
		if err != nil {
			return nil, err
		}
		if n == 1 {
			return l, nil
		}
		if now.After(deadline) {
			return nil, busy()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(leaseRetry + rand.N(leaseRetry)):
		}
	}
}

// release gives the lease back, even when the request's context has ended.
func (l *lease) release(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := l.s.p.DB.Client.RSAOrderLease.Delete().Where(rsaorderlease.OrderID(l.orderID), rsaorderlease.Holder(l.holder)).Exec(ctx); err != nil {
		l.s.p.Log.WarnContext(ctx, "releasing an order's RSA lease failed; it expires on its own", "order_id", l.orderID, "error", err)
	}
}
