package orders

import (
	"context"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
)

// applyToKeptOrder applies a change of the order's own row to the order as this process kept it
// after its last change (or its init), in one statement: an UPDATE that writes only while the
// row is still open at the kept version. Every write of an order's row bumps its version, but
// for the shopper's activity times (updated_at, last_activity_at, abandoned_at), which this
// update sets itself; so while the row is at the kept version it is the kept order, and what the
// change read of it holds. Asking for an open row too means that a change of state made without
// a version bump (a hand-made fix in the database) still stops the change. On PostgreSQL a
// change is one round trip instead of BEGIN, a locking read, the update and COMMIT; on SQLite
// it holds the one writer for that one statement instead of the change's reads.
//
// It is not done (done false), and the change is left to the locked path, when no order is kept,
// when the change refuses the kept order (the locked path refuses it again from the row, or
// applies it when the kept order was stale), or when another change moved the version on.
func (s *Service) applyToKeptOrder(ctx context.Context, sess *OrderSession, change fieldsChange) (view *OrderView, done bool, err error) {
	kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID())
	if !ok || kept.order.Status != order.StatusOpen {
		return nil, false, nil
	}
	return s.applyFieldsAt(ctx, sess, kept, change)
}

// applyFieldsAt is applyToKeptOrder's statement, on kept's order with its children at its
// version: not done when the change refuses it or the row has moved on from that version (or
// no longer holds where).
func (s *Service) applyFieldsAt(ctx context.Context, sess *OrderSession, kept orderChildren, change fieldsChange, where ...predicate.Order) (view *OrderView, done bool, err error) {
	o := *kept.order // the change is given a copy: the kept order is shared
	// The change records its fields on an update of its own, run by updateIfCurrent.
	recorded := s.p.DB.Client.Order.Update()
	if err := change(s.p.DB.Read, &o, kept.items, recorded); err != nil {
		return nil, false, nil
	}
	recorded.AddVersion(1)
	recordActivity(recorded.Mutation(), &o, s.p.Clock())
	written, err := s.updateIfCurrent(ctx, &o, recorded.Mutation(), where...)
	if err != nil || written == nil {
		return nil, err != nil, err
	}
	applied, err := s.AppliedOrder(kept.order, written)
	if err != nil {
		return nil, true, err
	}
	if VerifyAppliedOrders {
		if err := CheckAppliedOrder(ctx, s.p.DB.Read, applied); err != nil {
			return nil, true, err
		}
	}
	if verifyKeptChildren {
		if err := checkKeptChildren(ctx, s.p.DB.Read, applied.ID, applied.Version, kept.items, kept.payments); err != nil {
			return nil, true, err
		}
	}
	if view, err = s.ViewWith(ctx, s.p.DB.Read, sess.Shop, applied, kept.items, kept.payments); err != nil {
		return nil, true, err
	}
	s.children.keep(applied, view.LineItems, view.Payments)
	return view, true, nil
}

// updateIfCurrent writes the recorded fields to the order o while its row is still open at o's
// version (and holds where), in one statement (writeAlone), and answers the mutation written
// (nil when the row has moved on).
func (s *Service) updateIfCurrent(ctx context.Context, o *ent.Order, recorded *ent.OrderMutation, where ...predicate.Order) (*ent.OrderMutation, error) {
	var written *ent.OrderMutation
	err := s.writeAlone(ctx, func(c *ent.Client) error {
		update := c.Order.Update().Where(append(where, order.ID(o.ID), order.Version(o.Version), order.StatusEQ(order.StatusOpen))...)
		if err := replayOrderMutation(update.Mutation(), recorded); err != nil {
			return err
		}
		n, err := update.Save(ctx)
		if err == nil && n == 1 {
			written = update.Mutation()
		}
		return err
	})
	return written, err
}

// writeAlone runs write, one statement, by itself: on PostgreSQL autocommitted, on SQLite in a
// transaction of its own, as cheap there, so that the time counted as the writer's is the time
// it was held and not the wait for it.
func (s *Service) writeAlone(ctx context.Context, write func(c *ent.Client) error) error {
	if s.p.DB.Dialect != dialect.SQLite {
		defer s.p.Wrote(time.Now())
		return write(s.p.DB.Client)
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error { return write(tx.Client()) })
}

// replayOrderMutation sets, clears and adds to dst's fields as src does.
func replayOrderMutation(dst, src *ent.OrderMutation) error {
	for _, name := range src.Fields() {
		value, _ := src.Field(name)
		if err := dst.SetField(name, value); err != nil {
			return err
		}
	}
	for _, name := range src.ClearedFields() {
		if err := dst.ClearField(name); err != nil {
			return err
		}
	}
	for _, name := range src.AddedFields() {
		delta, _ := src.AddedField(name)
		if err := dst.AddField(name, delta); err != nil {
			return err
		}
	}
	return nil
}
