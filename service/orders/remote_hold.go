package orders

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/service/platform"
)

// RemoteHold is the session's order held for the shop's remote state authority (service/rsa),
// from before a call until its answer is applied: no other request of any process calls the RSA
// about the order meanwhile, so its events reach it one at a time, each carrying the last
// answer. Within a process the order is held in memory (platform.Database.HoldKey). Across
// processes on one PostgreSQL it is also held on the order's row: two columns taken in one
// statement, so no transaction is open during the call, and given back by the statement that
// applies the answer. It does not move the order's version: it is not the order's state. A hold
// past its expiry was left by a request that died, and is taken over. A process that is the
// only one on its database (SQLite, which serves one process, or PostgreSQL while no other
// process holds orders there) holds in memory alone, without a write.
type RemoteHold struct {
	// View is the order as it stood when it was held: the last answer applied.
	View    *OrderView
	s       *Service
	orderID int
	holder  string
	// done: given back, or the answer applied (which gives the row's hold back).
	done bool
	// unread: View is the order as this process kept it, not read once held.
	unread bool
	// local gives back the hold in memory.
	local func()
	// inMemory: the hold is the one in memory alone; onRow: the order's row is held too.
	inMemory, onRow bool
}

// ErrRemoteHoldBusy: another request held the order for longer than the wait.
var ErrRemoteHoldBusy = errors.New("the order is held by another request to its remote state authority")

// remoteHoldRetry is how often a request waiting for an order's hold asks again.
const remoteHoldRetry = 15 * time.Millisecond

// HoldForRemote holds the session's open order for hold, waiting up to wait for a request that
// holds it. When this process kept the order as its last change left it, the kept order is the
// view: held in memory alone it is taken without asking the database (a row changed around
// this process is found when the answer is applied: ErrHeldOrderMoved); held on the row, the
// row is held at the kept version (applyToKeptOrder's rule: a row at the kept version is the
// kept order). Otherwise the order is read once held.
func (s *Service) HoldForRemote(ctx context.Context, sess *OrderSession, hold, wait time.Duration) (*RemoteHold, error) {
	o, err := s.LastKnownOrder(ctx, sess)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	release, inMemory, taken, err := s.p.DB.HoldKey(ctx, o.ID, wait)
	if errors.Is(err, platform.ErrNotJoined) || (err == nil && !taken) {
		return nil, ErrRemoteHoldBusy
	}
	if err != nil {
		return nil, err
	}
	h := &RemoteHold{s: s, orderID: o.ID, holder: platform.NewPublicID(), local: release, inMemory: inMemory}
	kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID())
	ok = ok && kept.order.Status == order.StatusOpen && kept.order.ID == o.ID
	if inMemory {
		// Every change of this process keeps its result or forgets the order (ForgetKeptOrder),
		// so the kept order is the row but for a change made around this process (by hand, or
		// by a process gone since); the answer is applied only on the row at the kept version
		// (ApplyRemoteOrder), and a row found moved then is read and the RSA asked again.
		if !ok {
			return s.readHeld(ctx, sess, h)
		}
		if h.View, err = s.ViewWith(ctx, s.p.DB.Read, sess.Shop, kept.order, kept.items, kept.payments); err != nil {
			h.Release(ctx)
			return nil, err
		}
		h.unread = true
		return h, nil
	}
	if ok {
		if err := h.take(ctx, hold, kept.order.Version); err != nil {
			h.Release(ctx)
			return nil, err
		}
		if h.onRow {
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
	}
	for !h.onRow {
		if err := h.take(ctx, hold); err != nil {
			h.Release(ctx)
			return nil, err
		}
		if h.onRow {
			break
		}
		if time.Now().After(deadline) {
			h.Release(ctx)
			return nil, ErrRemoteHoldBusy
		}
		select {
		case <-ctx.Done():
			h.Release(ctx)
			return nil, ctx.Err()
		case <-time.After(remoteHoldRetry + rand.N(remoteHoldRetry)):
		}
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

// take holds the order's row for hold when no live hold is on it (and, with version, while the
// row is open at that version); onRow says whether it did.
func (h *RemoteHold) take(ctx context.Context, hold time.Duration, version ...int) error {
	now := time.Now().UTC()
	cond := entsql.And(entsql.EQ(order.FieldID, h.orderID),
		entsql.Or(entsql.IsNull(order.FieldRsaLeaseExpiresAt), entsql.LT(order.FieldRsaLeaseExpiresAt, now)))
	if len(version) > 0 {
		cond = entsql.And(cond, entsql.EQ(order.FieldVersion, version[0]), entsql.EQ(order.FieldStatus, order.StatusOpen.String()))
	}
	n, err := h.s.writeHold(ctx, cond, h.holder, now.Add(hold))
	h.onRow = n == 1
	return err
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

// heldBy are the predicates of an order still held by h: none for a hold in memory alone.
func (h *RemoteHold) heldBy() []predicate.Order {
	if h.inMemory {
		return nil
	}
	return []predicate.Order{order.RsaLeaseHolder(h.holder)}
}

// givenBack records on update that the row's hold is given back (the hold in memory is given
// back by Release).
func (h *RemoteHold) givenBack(update *ent.OrderMutation) {
	if h.inMemory {
		return
	}
	update.ClearRsaLeaseHolder()
	update.ClearRsaLeaseExpiresAt()
}

// Release gives the hold back: the row's when no answer was applied (the call failed, or the
// answer changed nothing), even when the request's context has ended, and the one in memory.
func (h *RemoteHold) Release(ctx context.Context) {
	if h == nil {
		return
	}
	if h.onRow && !h.done {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_, err := h.s.writeHold(ctx, entsql.And(entsql.EQ(order.FieldID, h.orderID), entsql.EQ(order.FieldRsaLeaseHolder, h.holder)), "", time.Time{})
		if err != nil {
			h.s.p.Log.WarnContext(ctx, "giving back an order's RSA hold failed; it expires on its own", "order_id", h.orderID, "error", err)
		}
	}
	h.done = true
	if h.local != nil {
		h.local()
	}
}
