package orders

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/service/platform"
)

// RemoteHold is the session's order held for the shop's remote state authority (service/rsa),
// from before a call until its answer is applied: no other request of any process calls the RSA
// about the order meanwhile, so its events reach it one at a time, each carrying the last
// answer. The hold is two columns of the order's row, taken in one statement, so no transaction
// is open during the call, and given back by the statement that applies the answer. It does not
// move the order's version: it is not the order's state. A hold past its expiry was left by a
// request that died, and is taken over. On SQLite, which serves one process, the hold is that
// process's (platform.LocalHolds), taken and given back without a write.
type RemoteHold struct {
	// View is the order as it stood when it was held: the last answer applied.
	View    *OrderView
	s       *Service
	orderID int
	holder  string
	// done: given back, or the answer applied (which gives it back).
	done bool
	// unread: View is the order as this process kept it, not read once held.
	unread bool
	// local gives back a hold of this process (SQLite); nil for a hold on the order's row.
	local func()
}

// ErrRemoteHoldBusy: another request held the order for longer than the wait.
var ErrRemoteHoldBusy = errors.New("the order is held by another request to its remote state authority")

// remoteHoldRetry is how often a request waiting for an order's hold asks again.
const remoteHoldRetry = 15 * time.Millisecond

// HoldForRemote holds the session's open order for hold, waiting up to wait for a request that
// holds it. When this process kept the order as its last change left it, the hold is taken on
// that version and the kept order is the view, without reading it (applyToKeptOrder's rule: a
// row at the kept version is the kept order); otherwise the order is read once held.
func (s *Service) HoldForRemote(ctx context.Context, sess *OrderSession, hold, wait time.Duration) (*RemoteHold, error) {
	h := &RemoteHold{s: s, holder: platform.NewPublicID()}
	if s.p.DB.Dialect == dialect.SQLite {
		return s.holdInProcess(ctx, sess, h, wait)
	}
	if kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID()); ok && kept.order.Status == order.StatusOpen {
		h.orderID = kept.order.ID
		taken, err := h.take(ctx, hold, kept.order.Version)
		if err != nil {
			return nil, err
		}
		if taken {
			if verifyKeptChildren {
				if err := checkKeptChildren(ctx, s.p.DB.Read, kept.order.ID, kept.order.Version, kept.items, kept.payments); err != nil {
					h.Release(ctx)
					return nil, err
				}
			}
			if h.View, err = s.ViewWith(ctx, s.p.DB.Read, sess.Shop, kept.order, kept.items, kept.payments); err != nil {
				h.Release(ctx)
				return nil, err
			}
			return h, nil
		}
	} else {
		o, err := s.LastKnownOrder(ctx, sess)
		if err != nil {
			return nil, err
		}
		h.orderID = o.ID
	}
	deadline := time.Now().Add(wait)
	for {
		taken, err := h.take(ctx, hold)
		if err != nil {
			return nil, err
		}
		if taken {
			break
		}
		if time.Now().After(deadline) {
			return nil, ErrRemoteHoldBusy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(remoteHoldRetry + rand.N(remoteHoldRetry)):
		}
	}
	return s.readHeld(ctx, sess, h)
}

// holdInProcess holds the order in this process (SQLite, which serves one process): the kept
// order is the view without asking the database whether the row is still at its version. Every
// change of this process keeps its result or forgets the order (ForgetKeptOrder), so the kept
// order is the row but for a change made around checkoutd; the answer is applied only on the
// row at the kept version (ApplyRemoteOrder), and a row found moved then is read and the RSA
// asked again (ErrHeldOrderMoved). Without a kept order, the order is read once held.
func (s *Service) holdInProcess(ctx context.Context, sess *OrderSession, h *RemoteHold, wait time.Duration) (*RemoteHold, error) {
	o, err := s.LastKnownOrder(ctx, sess)
	if err != nil {
		return nil, err
	}
	h.orderID = o.ID
	release, taken, err := s.p.DB.Holds().Take(ctx, o.ID, wait)
	if err != nil {
		return nil, err
	}
	if !taken {
		return nil, ErrRemoteHoldBusy
	}
	h.local = release
	if kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID()); ok && kept.order.Status == order.StatusOpen && kept.order.ID == o.ID {
		if h.View, err = s.ViewWith(ctx, s.p.DB.Read, sess.Shop, kept.order, kept.items, kept.payments); err != nil {
			h.Release(ctx)
			return nil, err
		}
		h.unread = true
		return h, nil
	}
	return s.readHeld(ctx, sess, h)
}

// ErrHeldOrderMoved: the order held as this process kept it was found, when the answer was to
// be applied, to have moved on without this process; it has been read under the hold
// (ReadHeldAgain) before the answer can be applied.
var ErrHeldOrderMoved = errors.New("the held order moved on from the version kept")

// ReadHeldAgain reads the held order as the hold's view, after ErrHeldOrderMoved.
func (s *Service) ReadHeldAgain(ctx context.Context, sess *OrderSession, h *RemoteHold) error {
	h.unread = false
	_, err := s.readHeld(ctx, sess, h)
	return err
}

// readHeld reads the held order as the hold's view, giving the hold back when it is no longer
// open.
func (s *Service) readHeld(ctx context.Context, sess *OrderSession, h *RemoteHold) (*RemoteHold, error) {
	v, err := s.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
	if err == nil && v.Order.Status != order.StatusOpen {
		err = OrderNotInState(v.Order)
	}
	if err != nil {
		h.Release(ctx)
		return nil, err
	}
	h.View = v
	return h, nil
}

// take holds the order for hold when no live hold is on it (and, with version, while the row
// is open at that version).
func (h *RemoteHold) take(ctx context.Context, hold time.Duration, version ...int) (bool, error) {
	now := time.Now().UTC()
	cond := entsql.And(entsql.EQ(order.FieldID, h.orderID),
		entsql.Or(entsql.IsNull(order.FieldRsaLeaseExpiresAt), entsql.LT(order.FieldRsaLeaseExpiresAt, now)))
	if len(version) > 0 {
		cond = entsql.And(cond, entsql.EQ(order.FieldVersion, version[0]), entsql.EQ(order.FieldStatus, order.StatusOpen.String()))
	}
	n, err := h.s.writeHold(ctx, cond, h.holder, now.Add(hold))
	return n == 1, err
}

// writeHold sets the hold columns alone where cond holds (holder empty: clears them), and
// answers the rows written. It is not written through the order's update builder, which would
// set updated_at: a hold is not a change of the order.
func (s *Service) writeHold(ctx context.Context, cond *entsql.Predicate, holder string, expires time.Time) (int64, error) {
	update := entsql.Dialect(s.p.DB.Dialect).Update(order.Table)
	if holder == "" {
		update.SetNull(order.FieldRsaLeaseHolder).SetNull(order.FieldRsaLeaseExpiresAt)
	} else {
		update.Set(order.FieldRsaLeaseHolder, holder).Set(order.FieldRsaLeaseExpiresAt, expires)
	}
	query, args := update.Where(cond).Query()
	var n int64
	err := s.writeAlone(ctx, func(c *ent.Client) error {
		res, err := c.ExecContext(ctx, query, args...)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	return n, err
}

// heldBy are the predicates of an order still held by h: none for a hold of this process.
func (h *RemoteHold) heldBy() []predicate.Order {
	if h.local != nil {
		return nil
	}
	return []predicate.Order{order.RsaLeaseHolder(h.holder)}
}

// givenBack records on update that h is given back (a hold of this process is given back by
// Release).
func (h *RemoteHold) givenBack(update *ent.OrderMutation) {
	if h.local != nil {
		return
	}
	update.ClearRsaLeaseHolder()
	update.ClearRsaLeaseExpiresAt()
}

// Release gives the hold back when no answer was applied (the call failed, or the answer changed
// nothing), even when the request's context has ended; after an answer was applied it does
// nothing.
func (h *RemoteHold) Release(ctx context.Context) {
	if h == nil {
		return
	}
	if h.local != nil {
		h.done = true
		h.local()
		return
	}
	if h.done {
		return
	}
	h.done = true
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	_, err := h.s.writeHold(ctx, entsql.And(entsql.EQ(order.FieldID, h.orderID), entsql.EQ(order.FieldRsaLeaseHolder, h.holder)), "", time.Time{})
	if err != nil {
		h.s.p.Log.WarnContext(ctx, "giving back an order's RSA hold failed; it expires on its own", "order_id", h.orderID, "error", err)
	}
}
