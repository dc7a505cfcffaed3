package service

import (
	"context"
	"time"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/shop"
)

// AbandonedAfter is how long an open order with items may go without the shopper changing it
// before it is abandoned (the spec's one hour).
const AbandonedAfter = time.Hour

// abandonedSweepArgs is the periodic job that dispatches the abandoned-order queue.
type abandonedSweepArgs struct{}

func (abandonedSweepArgs) Kind() string { return "abandoned_order_sweep" }

type abandonedSweepWorker struct {
	river.WorkerDefaults[abandonedSweepArgs]
	s *Service
}

func (w *abandonedSweepWorker) Work(ctx context.Context, _ *river.Job[abandonedSweepArgs]) error {
	_, err := w.s.DispatchAbandonedOrders(ctx)
	return err
}

// abandoned selects the open orders with items that the shopper left before cutoff and that
// are not abandoned yet, in shops that leave abandoned carts to their subscribers. Orders from
// before activity was recorded count from their last update.
func abandoned(cutoff time.Time) []predicate.Order {
	return []predicate.Order{
		order.StatusEQ(order.StatusOpen),
		order.AbandonedAtIsNil(),
		order.Or(order.LastActivityAtLTE(cutoff), order.And(order.LastActivityAtIsNil(), order.UpdatedAtLTE(cutoff))),
		order.HasLineItems(),
		order.HasShopWith(shop.AbandonedCartEmails(false)),
	}
}

// DispatchAbandonedOrders records order/abandoned for every order abandoned by now (an hour
// without activity), each in its own transaction with the order locked, and returns how many it
// recorded. It runs every AbandonedSweepInterval on one checkoutd process (the queue's leader).
func (s *Service) DispatchAbandonedOrders(ctx context.Context) (int, error) {
	cutoff := s.clock().Add(-AbandonedAfter)
	ids, err := s.db.Client.Order.Query().Where(abandoned(cutoff)...).Order(order.ByID()).IDs(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		recorded := false
		err := s.inTx(ctx, func(tx *ent.Tx) error {
			q := tx.Order.Query().Where(order.ID(id)).Where(abandoned(cutoff)...)
			if s.db.Dialect == dialect.Postgres {
				q = q.ForUpdate()
			}
			o, err := q.Only(ctx)
			if ent.IsNotFound(err) {
				return nil // the shopper came back, or the order moved on, since the query
			}
			if err != nil {
				return err
			}
			sh, err := tx.Shop.Get(ctx, o.ShopID)
			if err != nil {
				return err
			}
			if o, err = tx.Order.UpdateOne(o).SetAbandonedAt(s.clock()).Save(ctx); err != nil {
				return err
			}
			recorded = true
			return s.recordOrderEvent(ctx, tx, sh, o, TopicOrderAbandoned, nil)
		})
		if err != nil {
			return n, err
		}
		if recorded {
			n++
		}
	}
	return n, nil
}
