package orders

import (
	"context"
	"slices"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/service/problem"
)

// changeOrder applies one change to an open order in one transaction. The order row is locked
// (FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE already serializes writers), so concurrent
// calls on one order queue instead of losing each other's updates. The change sets the order's
// own fields on update, which is written once with the version bump.
func (s *Service) changeOrder(ctx context.Context, sess *OrderSession, change orderChange) (*OrderView, error) {
	return s.changeOrderIn(ctx, sess, []order.Status{order.StatusOpen}, change)
}

// orderChange changes the locked order o inside tx; fields of the order itself are set on update.
type orderChange func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error

// childrenChange is an orderChange that answers the order's line items and payments (in the
// view's order), as it leaves them, when it read them (nil otherwise); they are detached from
// the transaction. The answer's view is priced from them instead of reading them again.
type childrenChange func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) ([]*ent.LineItem, []*ent.OrderPayment, error)

// detach detaches entities read or written in a transaction from it, so that their edges can be
// queried after the commit (GraphQL resolves them).
func detach[E interface{ Unwrap() E }](entities []E) []E {
	for i, e := range entities {
		entities[i] = e.Unwrap()
	}
	return entities
}

// changeOrderIn is changeOrder for an order in one of the given states.
func (s *Service) changeOrderIn(ctx context.Context, sess *OrderSession, states []order.Status, change orderChange) (*OrderView, error) {
	return s.applyOrderChange(ctx, sess, states, false, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) ([]*ent.LineItem, []*ent.OrderPayment, error) {
		return nil, nil, change(tx, o, update)
	})
}

// fieldsChange changes only the order's own row, neither its line items nor its payments. It
// reads through read: the transaction's client when the order is locked, the read pool when the
// change is applied to a kept order (applyToKeptOrder). items are the order's line items, when
// the change asked for them.
type fieldsChange func(read *ent.Client, o *ent.Order, items []*ent.LineItem, update *ent.OrderUpdate) error

// changeOrderFields is changeOrder for a change that writes only the order's own row: applied
// to the order this process kept from its last change when that is still the row
// (applyToKeptOrder), else to the locked row, its answer using the children kept for the
// version it locked when there are (orderChildren).
func (s *Service) changeOrderFields(ctx context.Context, sess *OrderSession, change func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error) (*OrderView, error) {
	return s.applyFieldsChange(ctx, sess, false, func(read *ent.Client, o *ent.Order, _ []*ent.LineItem, update *ent.OrderUpdate) error {
		return change(read, o, update)
	})
}

// changeOrderFieldsReadingItems is changeOrderFields for a change that reads the line items.
func (s *Service) changeOrderFieldsReadingItems(ctx context.Context, sess *OrderSession, change fieldsChange) (*OrderView, error) {
	return s.applyFieldsChange(ctx, sess, true, change)
}

func (s *Service) applyFieldsChange(ctx context.Context, sess *OrderSession, readsItems bool, change fieldsChange) (*OrderView, error) {
	if view, done, err := s.applyToKeptOrder(ctx, sess, change); done {
		if err == nil {
			s.fieldChanges.WithLabelValues("kept").Inc()
		}
		return view, err
	}
	defer s.fieldChanges.WithLabelValues("locked").Inc()
	return s.applyOrderChange(ctx, sess, []order.Status{order.StatusOpen}, true, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) ([]*ent.LineItem, []*ent.OrderPayment, error) {
		var items []*ent.LineItem
		if readsItems {
			var err error
			if items, err = orderLineItems(ctx, tx.Client(), o.ID); err != nil {
				return nil, nil, err
			}
			items = detach(items)
		}
		return items, nil, change(tx.Client(), o, items, update)
	})
}

// changeOrderGivingChildren is changeOrder for a change that answers the children it leaves.
func (s *Service) changeOrderGivingChildren(ctx context.Context, sess *OrderSession, change childrenChange) (*OrderView, error) {
	return s.applyOrderChange(ctx, sess, []order.Status{order.StatusOpen}, false, change)
}

// applyOrderChange applies change to the session's order when it is in one of states; onlyFields
// says that it writes neither line items nor payments. The order's new row is worked out from
// the update rather than read back. The answer's children are, in this order of preference,
// those the change answered, those kept from the order's last change (onlyFields), and otherwise
// read: on PostgreSQL in the change's transaction, so they are exactly the state the change
// left; on SQLite after the commit through the read-only pool (every statement in a write
// transaction holds the database's one writer, and readers run beside it), used only if no
// other change to the order committed meanwhile. The children of the new version are kept.
func (s *Service) applyOrderChange(ctx context.Context, sess *OrderSession, states []order.Status, onlyFields bool, change childrenChange) (*OrderView, error) {
	var (
		applied  *ent.Order
		items    []*ent.LineItem
		payments []*ent.OrderPayment
		// Children read here are detached from the transaction after the commit; the others already are.
		itemsInTx, paymentsInTx bool
	)
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.LockSessionOrder(ctx, tx, sess, states...)
		if err != nil {
			return err
		}
		update := tx.Order.Update().Where(order.ID(o.ID))
		if items, payments, err = change(tx, o, update); err != nil {
			return err
		}
		update.AddVersion(1)
		recordActivity(update.Mutation(), o, s.p.Clock())
		if applied, err = s.UpdateLockedOrder(ctx, tx, o, update); err != nil {
			return err
		}
		if onlyFields {
			if keptItems, keptPayments, ok := s.children.at(o.ID, o.Version); ok {
				if verifyKeptChildren {
					if err := checkKeptChildren(ctx, tx.Client(), o.ID, o.Version, keptItems, keptPayments); err != nil {
						return err
					}
				}
				if items == nil {
					items = keptItems
				}
				if payments == nil {
					payments = keptPayments
				}
			}
		}
		if s.p.DB.Dialect != dialect.Postgres {
			return nil
		}
		if items == nil {
			if items, err = orderLineItems(ctx, tx.Client(), o.ID); err != nil {
				return err
			}
			itemsInTx = true
		}
		if payments == nil {
			if payments, err = OrderPayments(ctx, tx.Client(), o.ID); err != nil {
				return err
			}
			paymentsInTx = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	applied = applied.Unwrap()
	if itemsInTx {
		items = detach(items)
	}
	if paymentsInTx {
		payments = detach(payments)
	}
	var view *OrderView
	if payments != nil {
		view, err = s.ViewWith(ctx, s.p.DB.Read, sess.Shop, applied, items, payments)
	} else {
		view, err = s.viewAfterCommit(ctx, sess.Shop, applied, items)
	}
	if err != nil {
		return nil, err
	}
	if view.Order == applied {
		s.children.keep(applied, view.LineItems, view.Payments)
	}
	return view, nil
}

// viewAfterCommit is the view of an order just committed as o (with items, when the change read
// them), read through the read-only pool; should another change have committed since, the
// order is read anew.
func (s *Service) viewAfterCommit(ctx context.Context, sh *ent.Shop, o *ent.Order, items []*ent.LineItem) (*OrderView, error) {
	v, err := s.ViewOf(ctx, s.p.DB.Read, sh, o, items)
	if err != nil {
		return nil, err
	}
	version, err := s.p.DB.Read.Order.Query().Where(order.ID(o.ID)).Select(order.FieldVersion).Int(ctx)
	if err != nil {
		return nil, err
	}
	if version != o.Version {
		return s.LoadOrder(ctx, sh, o.PublicOrderID)
	}
	return v, nil // v.Order is o
}

// Detached detaches a view read inside a transaction from it, so that its entities can still be
// queried from after the commit (GraphQL resolves their edges).
func (v *OrderView) Detached() *OrderView {
	v.Order = v.Order.Unwrap()
	v.LineItems, v.Payments = detach(v.LineItems), detach(v.Payments)
	return v
}

// LockOrder reads the order for a change inside tx, locking its row (FOR UPDATE on PostgreSQL;
// SQLite's BEGIN IMMEDIATE already serializes writers), and checks that it is in one of states.
func (s *Service) LockOrder(ctx context.Context, tx *ent.Tx, id int, states ...order.Status) (*ent.Order, error) {
	return s.lockOrderWhere(ctx, tx, order.ID(id), states)
}

// LockSessionOrder is LockOrder for the session's order, which a storefront session has not read.
func (s *Service) LockSessionOrder(ctx context.Context, tx *ent.Tx, sess *OrderSession, states ...order.Status) (*ent.Order, error) {
	if o := sess.knownOrder(); o != nil {
		return s.LockOrder(ctx, tx, o.ID, states...)
	}
	o, err := s.lockOrderWhere(ctx, tx, order.And(order.ShopID(sess.Shop.ID), order.PublicOrderID(sess.publicOrderID)), states)
	if ent.IsNotFound(err) {
		return nil, problem.ErrUnauthorized
	}
	return o, err
}

func (s *Service) lockOrderWhere(ctx context.Context, tx *ent.Tx, where predicate.Order, states []order.Status) (*ent.Order, error) {
	q := tx.Order.Query().Where(where)
	if s.p.DB.Dialect == dialect.Postgres {
		q = q.ForUpdate()
	}
	o, err := q.Only(ctx)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(states, o.Status) {
		return nil, OrderNotInState(o)
	}
	return o, nil
}

// OrderNotInState refuses a change to an order in another state. A processed order names the
// field is_processed: storefronts built on the frontend library read it to show the thank-you
// page instead of an error.
func OrderNotInState(o *ent.Order) *problem.Error {
	msg := "the order is " + o.Status.String() + " and can no longer change"
	if o.Status == order.StatusProcessing {
		msg = "the order is being processed; try again when processing has finished"
	}
	details := map[string]any{"status": o.Status.String()}
	if o.Status == order.StatusProcessed {
		details["field"] = "is_processed"
	}
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "order.not_open", Message: msg, Details: details}
}

// BackendOrderSession opens an order of the access token's shop for a backend call.
func (s *Service) BackendOrderSession(ctx context.Context, sh *ent.Shop, publicOrderID string) (*OrderSession, error) {
	o, err := s.p.DB.Read.Order.Query().Where(order.ShopID(sh.ID), order.PublicOrderID(publicOrderID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, problem.NotFoundError("order.not_found", "no order with public_order_id "+publicOrderID)
	}
	if err != nil {
		return nil, err
	}
	return &OrderSession{Shop: sh, Order: o}, nil
}
