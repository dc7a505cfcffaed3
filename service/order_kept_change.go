package service

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
)

// applyToKeptOrder applies a change of the order's own row to the order as this process kept it
// after its last change, in one statement and no transaction: an UPDATE that writes only while
// the row is still at the kept version. Every write of an order's row bumps its version, but for
// the shopper's activity times (updated_at, last_activity_at, abandoned_at), which this update
// sets itself; so while the row is at the kept version it is the kept order, and what the change
// read of it holds. On PostgreSQL a change is one round trip instead of BEGIN, a locking read,
// the update and COMMIT; on SQLite it holds the one writer for that one statement.
//
// It is not done (done false), and the change is left to the locked path, when no order is kept,
// when the change refuses the kept order (the locked path refuses it again from the row, or
// applies it when the kept order was stale), or when another change moved the version on.
func (s *Service) applyToKeptOrder(ctx context.Context, sess *OrderSession, change fieldsChange) (view *OrderView, done bool, err error) {
	kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID())
	if !ok || kept.order.Status != order.StatusOpen {
		return nil, false, nil
	}
	o := *kept.order // the change is given a copy: the kept order is shared
	// The status is asked for too: a change of state that skipped the version (a hand-made fix
	// in the database) must still stop the change.
	update := s.db.Client.Order.Update().Where(order.ID(o.ID), order.Version(o.Version), order.StatusEQ(order.StatusOpen))
	if err := change(s.db.Read, &o, kept.items, update); err != nil {
		return nil, false, nil
	}
	update.AddVersion(1).SetLastActivityAt(s.clock()).ClearAbandonedAt()
	n, err := s.updateIfVersion(ctx, update)
	if err != nil || n == 0 {
		return nil, err != nil, err
	}
	applied, err := s.appliedOrder(kept.order, update.Mutation())
	if err != nil {
		return nil, true, err
	}
	if verifyAppliedOrders {
		if err := checkAppliedOrder(ctx, s.db.Read, applied); err != nil {
			return nil, true, err
		}
	}
	if verifyKeptChildren {
		if err := checkKeptChildren(ctx, s.db.Read, applied.ID, applied.Version, kept.items, kept.payments); err != nil {
			return nil, true, err
		}
	}
	if view, err = s.viewWith(ctx, s.db.Read, sess.Shop, applied, kept.items, kept.payments); err != nil {
		return nil, true, err
	}
	s.children.keep(applied, view.LineItems, view.Payments)
	return view, true, nil
}

// updateIfVersion runs an update conditioned on the order's version, outside any transaction,
// and says how many rows it wrote (0 when the version has moved on).
func (s *Service) updateIfVersion(ctx context.Context, update *ent.OrderUpdate) (int, error) {
	defer s.wrote(time.Now())
	return update.Save(ctx)
}
