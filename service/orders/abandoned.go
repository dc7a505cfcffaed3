package orders

import (
	"context"
	"fmt"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/service/platform"
)

// AbandonedAfter is the spec's abandoned-order threshold: an open order with items that the
// shopper has not changed for an hour (IdleSince).
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

// activityResolution is how finely an order's last activity is recorded. A change within a minute
// of the recorded activity leaves it as it is, so that the changes of a shopper going through the
// checkout write the order's row alone: last_activity_at is indexed for the sweep, and moving it
// would write an index entry too (and, on PostgreSQL, make the update one that is not heap-only).
const activityResolution = time.Minute

// recordActivity marks a change of o, as it is stored, as the shopper's activity: the
// abandoned-order hour starts again (at most activityResolution earlier than the change).
func recordActivity(m *ent.OrderMutation, o *ent.Order, now time.Time) {
	if o.LastActivityAt == nil || !now.Before(o.LastActivityAt.Add(activityResolution)) {
		m.SetLastActivityAt(now)
	}
	m.ClearAbandonedAt()
}

// AbandonedCutoff is the latest recorded activity of an order abandoned at now. Activity being
// recorded to the minute, an order counts as abandoned between AbandonedAfter and AbandonedAfter
// plus activityResolution after the shopper's last change, never before.
func AbandonedCutoff(now time.Time) time.Time {
	return now.Add(-AbandonedAfter - activityResolution)
}

// IdleSince selects the open orders with items that the shopper last changed before cutoff
// (AbandonedCutoff: the abandoned ones). Orders from before activity was recorded count from
// their last update.
func IdleSince(cutoff time.Time) []predicate.Order {
	return []predicate.Order{
		order.StatusEQ(order.StatusOpen),
		order.Or(order.LastActivityAtLTE(cutoff), order.And(order.LastActivityAtIsNil(), order.UpdatedAtLTE(cutoff))),
		order.HasLineItems(),
	}
}

// abandoned selects the abandoned orders not dispatched yet.
func abandoned(cutoff time.Time) []predicate.Order {
	return append(IdleSince(cutoff), order.AbandonedAtIsNil())
}

// DispatchAbandonedOrders abandons every order left for an hour without activity, each in its
// own transaction with the order locked: order/abandoned is recorded for the shop's
// subscribers, or, in a shop that sends its own abandoned-cart emails, the email is queued
// instead (the spec's rule: the webhook needs those emails off). It returns how many orders it
// abandoned. It runs every AbandonedSweepInterval on one checkoutd process (the queue's leader).
func (s *Service) DispatchAbandonedOrders(ctx context.Context) (int, error) {
	cutoff := AbandonedCutoff(s.p.Clock())
	ids, err := s.p.DB.Read.Order.Query().Where(abandoned(cutoff)...).Order(order.ByID()).IDs(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		recorded := false
		err := s.p.InTx(ctx, func(tx *ent.Tx) error {
			q := tx.Order.Query().Where(order.ID(id)).Where(abandoned(cutoff)...)
			if s.p.DB.Dialect == dialect.Postgres {
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
			if o, err = tx.Order.UpdateOne(o).SetAbandonedAt(s.p.Clock()).Save(ctx); err != nil {
				return err
			}
			recorded = true
			if sh.AbandonedCartEmails {
				return s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{{Args: abandonedCartEmailArgs{OrderID: o.ID}}})
			}
			return s.RecordOrderEvent(ctx, tx, sh, o, platform.TopicOrderAbandoned, nil)
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

// abandonedCartEmailArgs is the job that emails a shopper about the cart they left.
type abandonedCartEmailArgs struct {
	OrderID int `json:"order_id"`
}

func (abandonedCartEmailArgs) Kind() string { return "abandoned_cart_email" }

type abandonedCartEmailWorker struct {
	river.WorkerDefaults[abandonedCartEmailArgs]
	s *Service
}

func (w *abandonedCartEmailWorker) Work(ctx context.Context, job *river.Job[abandonedCartEmailArgs]) error {
	return w.s.emailAbandonedCart(ctx, job.Args.OrderID)
}

// emailAbandonedCart sends the shop's abandoned-cart email to the order's customer, with what
// the cart holds and the link back to it. An order without a customer email, or a service
// without SMTP, has nothing to send; an SMTP failure is retried by the queue.
func (s *Service) emailAbandonedCart(ctx context.Context, orderID int) error {
	o, err := s.p.DB.Read.Order.Query().Where(order.ID(orderID)).WithShop().WithLineItems(func(q *ent.LineItemQuery) {
		q.Order(lineitem.ByPosition(), lineitem.ByID())
	}).Only(ctx)
	if err != nil {
		return err
	}
	if o.Status != order.StatusOpen || o.Customer == nil || o.Customer.EmailAddress == "" {
		return nil
	}
	if s.smtpURL == "" {
		s.p.Log.WarnContext(ctx, "abandoned-cart email not sent: no SMTP server configured", "public_order_id", o.PublicOrderID)
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\nYou left these in your cart at %s:\n\n", o.Customer.FirstName, o.Edges.Shop.Name)
	for _, li := range o.Edges.LineItems {
		fmt.Fprintf(&b, "  %d x %s\n", li.Quantity, li.Title)
	}
	if o.ResumableLink != "" {
		fmt.Fprintf(&b, "\nFinish your order here: %s\n", o.ResumableLink)
	}
	fmt.Fprintf(&b, "\n%s\n", o.Edges.Shop.Name)
	return s.sendEmail(ctx, o.Customer.EmailAddress, "You left something in your cart", b.String())
}
