package orders

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/predicate"
)

// orderChildren are an order's line items and payments as they stand at one version of the
// order, with the order's row at that version when the change that kept them worked it out.
// Every transaction that writes an order's line items or payments bumps the order's version, so
// children kept for the version the order's row holds are the rows themselves: a change that
// leaves them as they are (a customer, an address, a shipping line, taxes), and a read of the
// order, answer without reading them. A version no longer current is never asked for again.
type orderChildren struct {
	version  int
	order    *ent.Order
	items    []*ent.LineItem
	payments []*ent.OrderPayment
}

// maxKeptOrders bounds the orders whose children are kept (a few MiB): past it, all are dropped
// and kept again as changes come.
const maxKeptOrders = 5000

// orderChildrenCache keeps, by order id, the children an order's last change in this process
// left, and the order's row. Kept entities are shared and detached from any transaction:
// nothing may change them.
type orderChildrenCache struct {
	mu       sync.Mutex
	byOrder  map[int]orderChildren
	byPublic map[publicOrderKey]int
}

// publicOrderKey names an order as a storefront session does: its shop and public id.
type publicOrderKey struct {
	shopID   int
	publicID string
}

// verifyKeptChildren makes every use of kept children be checked against the rows read in the
// change's transaction, in test binaries, so that each change the tests make proves the rule.
var verifyKeptChildren = testing.Testing()

// at returns copies of the children kept for the order at version.
func (c *orderChildrenCache) at(orderID, version int) (items []*ent.LineItem, payments []*ent.OrderPayment, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept, ok := c.byOrder[orderID]
	if !ok || kept.version != version {
		return nil, nil, false
	}
	return slices.Clone(kept.items), slices.Clone(kept.payments), true
}

// latest returns the order of the shop with the public id as this process last kept it, with
// copies of its children; whether that version is still the row's, only the database knows.
func (c *orderChildrenCache) latest(shopID int, publicID string) (kept orderChildren, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.byPublic[publicOrderKey{shopID, publicID}]
	if !ok {
		return orderChildren{}, false
	}
	kept = c.byOrder[id]
	if kept.order == nil {
		return orderChildren{}, false
	}
	kept.items, kept.payments = slices.Clone(kept.items), slices.Clone(kept.payments)
	return kept, true
}

// keep records the order o a committed change left, with its children; all must be detached.
func (c *orderChildrenCache) keep(o *ent.Order, items []*ent.LineItem, payments []*ent.OrderPayment) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byOrder == nil || len(c.byOrder) >= maxKeptOrders {
		c.byOrder, c.byPublic = map[int]orderChildren{}, map[publicOrderKey]int{}
	}
	c.byOrder[o.ID] = orderChildren{version: o.Version, order: o, items: slices.Clone(items), payments: slices.Clone(payments)}
	c.byPublic[publicOrderKey{o.ShopID, o.PublicOrderID}] = o.ID
}

// forget drops what is kept of the order: a change written without keeping its result (its
// status leaving open, a resume) makes the kept order no longer the row.
func (c *orderChildrenCache) forget(orderID int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.byOrder[orderID]; ok {
		delete(c.byOrder, orderID)
		if c.byPublic[publicOrderKey{kept.order.ShopID, kept.order.PublicOrderID}] == orderID {
			delete(c.byPublic, publicOrderKey{kept.order.ShopID, kept.order.PublicOrderID})
		}
	}
}

// ForgetKeptOrder is told by a change of an open order's row that does not keep its result
// (process order and cancel taking it out of open, a resume): this process reads the order
// again before it trusts a copy of it, which a hold for the remote state authority in memory
// alone takes without asking the database (HoldForRemote). Any change it is not told of is
// found by the conditional write that applies the RSA's answer, at the cost of asking the RSA
// again.
func (s *Service) ForgetKeptOrder(orderID int) { s.children.forget(orderID) }

// CurrentView is the session's order as it stands: as this process kept it when the row is
// still at the kept version (one read of the version instead of the row and its children),
// otherwise read.
func (s *Service) CurrentView(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	if kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID()); ok {
		current, err := s.rowStillAt(ctx, kept.order)
		if err != nil {
			return nil, err
		}
		if current {
			return s.ViewWith(ctx, s.p.DB.Read, sess.Shop, kept.order, kept.items, kept.payments)
		}
	}
	return s.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
}

// rowStillAt reports whether o's row is still at o's version (and matches where): one read of
// the version, for a copy of the order this process kept.
func (s *Service) rowStillAt(ctx context.Context, o *ent.Order, where ...predicate.Order) (bool, error) {
	return s.p.DB.Read.Order.Query().Where(order.ID(o.ID), order.Version(o.Version)).Where(where...).Exist(ctx)
}

// OrderPayments reads the order's payments in the order the view shows them.
func OrderPayments(ctx context.Context, c *ent.Client, orderID int) ([]*ent.OrderPayment, error) {
	return c.OrderPayment.Query().Where(orderpayment.OrderID(orderID)).Order(orderpayment.ByPosition(), orderpayment.ByID()).All(ctx)
}

// checkKeptChildren compares children kept for the order at version with the rows read through
// c. Should another change have committed meanwhile (a read outside a transaction), there is
// nothing to compare.
func checkKeptChildren(ctx context.Context, c *ent.Client, orderID, version int, items []*ent.LineItem, payments []*ent.OrderPayment) error {
	storedItems, err := orderLineItems(ctx, c, orderID)
	if err != nil {
		return err
	}
	storedPayments, err := OrderPayments(ctx, c, orderID)
	if err != nil {
		return err
	}
	now, err := c.Order.Query().Where(order.ID(orderID)).Select(order.FieldVersion).Int(ctx)
	if err != nil || now != version {
		return err
	}
	if !SameRows(items, storedItems) || !SameRows(payments, storedPayments) {
		return fmt.Errorf("order %d: kept children differ from its rows: items %v, rows %v; payments %v, rows %v",
			orderID, items, storedItems, payments, storedPayments)
	}
	return nil
}

// readView is the view of o read outside any transaction: priced from the children kept for its
// version when there are, else from the rows.
func (s *Service) readView(ctx context.Context, sh *ent.Shop, o *ent.Order) (*OrderView, error) {
	items, payments, ok := s.children.at(o.ID, o.Version)
	if !ok {
		return s.ViewOf(ctx, s.p.DB.Read, sh, o, nil)
	}
	if verifyKeptChildren {
		if err := checkKeptChildren(ctx, s.p.DB.Read, o.ID, o.Version, items, payments); err != nil {
			return nil, err
		}
	}
	return s.ViewWith(ctx, s.p.DB.Read, sh, o, items, payments)
}

// lockedView is the view of the order o, locked in tx: priced from the children kept for its
// version when there are (the order being locked, they are its rows), else from the rows, read in
// tx and detached from it.
func (s *Service) lockedView(ctx context.Context, tx *ent.Tx, sh *ent.Shop, o *ent.Order) (*OrderView, error) {
	items, payments, ok := s.children.at(o.ID, o.Version)
	if !ok {
		v, err := s.ViewOf(ctx, tx.Client(), sh, o, nil)
		if err != nil {
			return nil, err
		}
		v.LineItems, v.Payments = detach(v.LineItems), detach(v.Payments)
		return v, nil
	}
	if verifyKeptChildren {
		if err := checkKeptChildren(ctx, tx.Client(), o.ID, o.Version, items, payments); err != nil {
			return nil, err
		}
	}
	return s.ViewWith(ctx, tx.Client(), sh, o, items, payments)
}

// SameRows compares entities by their exported fields (columns; not edges or the client).
func SameRows[T any](kept, stored []*T) bool {
	if len(kept) != len(stored) {
		return false
	}
	for i := range kept {
		a, b := reflect.ValueOf(kept[i]).Elem(), reflect.ValueOf(stored[i]).Elem()
		for f := range a.NumField() {
			if a.Type().Field(f).IsExported() && a.Type().Field(f).Name != "Edges" && !reflect.DeepEqual(a.Field(f).Interface(), b.Field(f).Interface()) {
				return false
			}
		}
	}
	return true
}
