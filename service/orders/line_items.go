package orders

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

func LineNotFound(key string) *problem.Error {
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "line_item.not_found",
		Message: "the order has no line with line_item_key " + key, Details: map[string]any{"field": "line_item_key", "line_item_key": key}}
}

func findLine(ctx context.Context, tx *ent.Tx, o *ent.Order, key string) (*ent.LineItem, error) {
	li, err := tx.LineItem.Query().Where(lineitem.OrderID(o.ID), lineitem.LineItemKey(key)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, LineNotFound(key)
	}
	return li, err
}

// AddLineItem adds a cart item to the order; an item whose line_item_key is already on the
// order adds to that line's quantity. A storefront names a catalog variant: the line's price and
// title are the catalog's.
func (s *Service) AddLineItem(ctx context.Context, sess *OrderSession, it CartItem) (*OrderView, error) {
	p := input.Problems{}
	if strings.TrimSpace(it.LineItemKey) == "" {
		p.Add("line_item_key", "is required")
	}
	checkCartItem(p, "", it, sess.Storefront())
	if len(p) > 0 {
		return nil, problem.Validation("line_item.invalid_line_item", "invalid line item: "+p.Message(), p.Details())
	}
	return s.changeOrder(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error {
		lines, err := lineAmounts(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		for _, l := range lines {
			if l.LineItemKey != it.LineItemKey {
				continue
			}
			quantity := l.Quantity + it.Quantity
			if quantity > input.MaxQuantity {
				return invalidQuantity(1)
			}
			if subtotal, ok := subtotalWith(lines, l.LineItemKey, l.Price, quantity); !ok {
				return OrderTooLarge(subtotal)
			}
			return tx.LineItem.Update().Where(lineitem.OrderID(o.ID), lineitem.LineItemKey(l.LineItemKey)).AddQuantity(it.Quantity).Exec(ctx)
		}
		if len(lines) >= MaxLineItems {
			return problem.Validation("line_item.too_many", fmt.Sprintf("an order holds at most %d lines", MaxLineItems), nil)
		}
		resolved, err := s.resolveCart(ctx, tx.Client(), sess.Shop.ID, []CartItem{it})
		if err != nil {
			return err
		}
		it = resolved[0]
		if subtotal, ok := subtotalWith(lines, it.LineItemKey, *it.Price, it.Quantity); !ok {
			return OrderTooLarge(subtotal)
		}
		return newLineItem(tx, o.ID, it, len(lines)).Exec(ctx)
	})
}

// lineAmounts reads what the order's subtotal is made of, in the change's transaction.
func lineAmounts(ctx context.Context, tx *ent.Tx, orderID int) ([]lineAmount, error) {
	var lines []lineAmount
	err := tx.LineItem.Query().Where(lineitem.OrderID(orderID)).
		Select(lineitem.FieldLineItemKey, lineitem.FieldPrice, lineitem.FieldQuantity).Scan(ctx, &lines)
	return lines, err
}

func invalidQuantity(least int) *problem.Error {
	return problem.Validation("line_item.invalid_quantity", fmt.Sprintf("quantity must be between %d and %d", least, input.MaxQuantity), map[string]any{"field": "quantity"})
}

// newLineItem builds a line from a self-describing cart item.
func newLineItem(tx *ent.Tx, orderID int, it CartItem, position int) *ent.LineItemCreate {
	unit := it.WeightUnit
	if unit == "" {
		unit = "g"
	}
	productID := it.productPlatformID
	if productID == "" {
		productID = it.PlatformID
	}
	return tx.LineItem.Create().SetOrderID(orderID).SetLineItemKey(it.LineItemKey).SetProductID(productID).SetVariantID(it.PlatformID).
		SetSku(it.SKU).SetTitle(*it.Title).SetProductTitle(*it.Title).SetPrice(*it.Price).
		SetCompareAtPrice(it.CompareAtPrice).SetQuantity(it.Quantity).SetWeight(it.Weight).SetWeightUnit(unit).
		SetNillableRequiresShipping(it.RequiresShipping).SetNillableTaxable(it.Taxable).SetVendor(it.Vendor).
		SetImageURL(it.ImageURL).SetProperties(it.Properties).SetPosition(position)
}

// UpdateLineItemQuantity sets a line's quantity, which is required; zero removes the line.
func (s *Service) UpdateLineItemQuantity(ctx context.Context, sess *OrderSession, key string, q *int) (*OrderView, error) {
	if q == nil {
		return nil, problem.Validation("line_item.invalid_quantity", "quantity is required", map[string]any{"field": "quantity"})
	}
	quantity := *q
	if quantity < 0 || quantity > input.MaxQuantity {
		return nil, invalidQuantity(0)
	}
	return s.changeOrder(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error {
		lines, err := lineAmounts(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(lines, func(l lineAmount) bool { return l.LineItemKey == key })
		if i < 0 {
			return LineNotFound(key)
		}
		where := tx.LineItem.Update().Where(lineitem.OrderID(o.ID), lineitem.LineItemKey(key))
		if quantity == 0 {
			_, err := tx.LineItem.Delete().Where(lineitem.OrderID(o.ID), lineitem.LineItemKey(key)).Exec(ctx)
			return err
		}
		if subtotal, ok := subtotalWith(lines, key, lines[i].Price, quantity); !ok {
			return OrderTooLarge(subtotal)
		}
		return where.SetQuantity(quantity).Exec(ctx)
	})
}

// DeleteLineItem removes a line.
func (s *Service) DeleteLineItem(ctx context.Context, sess *OrderSession, key string) (*OrderView, error) {
	return s.changeOrder(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error {
		li, err := findLine(ctx, tx, o, key)
		if err != nil {
			return err
		}
		return tx.LineItem.DeleteOne(li).Exec(ctx)
	})
}

// FulfilledQuantity is how many units of one line have been fulfilled.
type FulfilledQuantity struct {
	LineItemKey       string `json:"line_item_key"`
	FulfilledQuantity int    `json:"fulfilled_quantity"`
}

// SetFulfilledQuantities records fulfilment of processed lines; never more than was ordered.
func (s *Service) SetFulfilledQuantities(ctx context.Context, sess *OrderSession, lines []FulfilledQuantity) (*OrderView, error) {
	if len(lines) == 0 {
		return nil, problem.Validation("line_item.invalid_fulfillment", "line_items is required", map[string]any{"field": "line_items"})
	}
	return s.changeOrderIn(ctx, sess, []order.Status{order.StatusOpen, order.StatusProcessed}, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error {
		wasFulfilled, err := allFulfilled(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		for _, l := range lines {
			li, err := findLine(ctx, tx, o, l.LineItemKey)
			if err != nil {
				return err
			}
			if l.FulfilledQuantity < 0 || l.FulfilledQuantity > li.Quantity {
				return problem.Validation("line_item.invalid_fulfillment",
					fmt.Sprintf("fulfilled_quantity of %s must be between 0 and its quantity %d", l.LineItemKey, li.Quantity),
					map[string]any{"field": "fulfilled_quantity", "line_item_key": l.LineItemKey})
			}
			if err := tx.LineItem.UpdateOne(li).SetFulfilledQuantity(l.FulfilledQuantity).Exec(ctx); err != nil {
				return err
			}
		}
		// order/fulfilled fires when the fulfilled quantities come to equal the ordered ones,
		// not again on every later call that leaves them so.
		if fulfilled, err := allFulfilled(ctx, tx, o.ID); err != nil || wasFulfilled || !fulfilled {
			return err
		}
		return s.RecordOrderEvent(ctx, tx, sess.Shop, o, platform.TopicOrderFulfilled, nil)
	})
}

// MetaDataPatch replaces the parts of order_meta_data it carries.
type MetaDataPatch struct {
	CartParameters *map[string]string `json:"cart_parameters"`
	NoteAttributes *map[string]string `json:"note_attributes"`
	Notes          *string            `json:"notes"`
	Tags           *[]string          `json:"tags"`
}

// PatchOrderMetaData changes the order's metadata.
func (s *Service) PatchOrderMetaData(ctx context.Context, sess *OrderSession, p MetaDataPatch) (*OrderView, error) {
	problems := input.Problems{}
	checkMetaData(problems, "", p.CartParameters, p.NoteAttributes, p.Notes, p.Tags)
	if len(problems) > 0 {
		return nil, problem.Validation("order.invalid_meta_data", "invalid order_meta_data: "+problems.Message(), problems.Details())
	}
	return s.changeOrder(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error {
		m := o.MetaData
		if p.CartParameters != nil {
			m.CartParameters = *p.CartParameters
		}
		if p.NoteAttributes != nil {
			m.NoteAttributes = *p.NoteAttributes
		}
		if p.Notes != nil {
			m.Notes = *p.Notes
		}
		if p.Tags != nil {
			m.Tags = *p.Tags
		}
		update.SetMetaData(schema.OrderMetaData(m))
		return nil
	})
}
