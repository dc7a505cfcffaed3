package orders

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"slices"

	json "github.com/segmentio/encoding/json"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/pricing"
)

// StateAuthority is a shop's remote state authority (service/rsa; the wiring fills it): while a
// shop has one, it owns its orders' state during checkout. Each change below is sent to it as an
// event, and its answer replaces the order's copy; a shop without one keeps the built-in changes.
type StateAuthority interface {
	// Event sends one change of the session's order to the shop's RSA and applies its answer
	// (ApplyRemoteOrder). handled is false when the shop has no RSA: the built-in change applies.
	Event(ctx context.Context, sess *OrderSession, ev RemoteEvent) (view *OrderView, handled bool, err error)
	// CheckInventory asks the shop's RSA whether the order's lines can be had, at stage
	// (InventoryStageInitial or InventoryStageFinal); nil when the shop has no RSA. v is the
	// order's state as it stands, when the caller has it (nil: it is read).
	CheckInventory(ctx context.Context, sess *OrderSession, v *OrderView, stage string) error
}

// RemoteEvent is one change in the words of the RSA's process_order_events: Name is the event
// (set_shipping_address, ...), Data what the change carries.
type RemoteEvent struct {
	Name string
	Data any
}

// The events of the spec's Process Order Events, as they are named on the wire.
const (
	EventSetShippingAddress    = "set_shipping_address"
	EventRemoveShippingAddress = "remove_shipping_address"
	EventSetBillingAddress     = "set_billing_address"
	EventRemoveBillingAddress  = "remove_billing_address"
	EventSetCustomer           = "set_customer"
	EventRemoveCustomer        = "remove_customer"
	EventGetShippingLines      = "get_shipping_lines"
	EventSetShippingLine       = "set_shipping_line"
	EventApplyTaxes            = "apply_taxes"
	EventAddDiscountCode       = "add_discount_code"
	EventRemoveDiscountCode    = "remove_discount_code"
)

// UseStateAuthority makes the order changes go through a shop's remote state authority, when it
// has one.
func (s *Service) UseStateAuthority(a StateAuthority) { s.authority = a }

// remoteEvent hands a change to the shop's RSA; handled is false when there is none.
func (s *Service) remoteEvent(ctx context.Context, sess *OrderSession, name string, data any) (*OrderView, bool, error) {
	if s.authority == nil {
		return nil, false, nil
	}
	return s.authority.Event(ctx, sess, RemoteEvent{Name: name, Data: data})
}

// CheckRemoteInventory is validate_inventory of the shop's RSA at stage; nil without one. v is
// the order's state as it stands, when the caller has it (nil: it is read if needed).
func (s *Service) CheckRemoteInventory(ctx context.Context, sess *OrderSession, v *OrderView, stage string) error {
	if s.authority == nil {
		return nil
	}
	return s.authority.CheckInventory(ctx, sess, v, stage)
}

// ShippingLines is the order's state for Get Shipping Lines: under an RSA, the lines it offers
// now (get_shipping_lines); otherwise the state as it stands.
func (s *Service) ShippingLines(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	if v, ok, err := s.remoteEvent(ctx, sess, EventGetShippingLines, struct{}{}); ok {
		return v, err
	}
	return s.SessionState(ctx, sess)
}

// ForgetRemoteStateOfShop takes off the shop's open orders, in tx, what a remote state
// authority the shop no longer has left on them (its last answer and its outside pricing), so
// that the built-in rules price them again. The version moves, so no process keeps them as they were.
func (s *Service) ForgetRemoteStateOfShop(ctx context.Context, tx *ent.Tx, shopID int) error {
	return tx.Order.Update().Where(order.ShopID(shopID), order.StatusEQ(order.StatusOpen), order.RsaStateNotNil()).
		ClearRsaState().ClearOutsidePricing().AddVersion(1).Exec(ctx)
}

// RemoteLine is a line of the order as the RSA answered it, keyed by line_item_key.
type RemoteLine struct {
	LineItemKey      string
	Title            string
	SKU              string
	VariantID        string
	Price            int64
	Quantity         int
	RequiresShipping bool
	Taxable          bool
	Vendor           string
	Properties       map[string]string
}

// RemoteOrder is the order as the RSA answered it, in the order's own words. It replaces the
// order's lines, customer, addresses, shipping choice, discount codes and metadata; State is the
// answer as received, kept for the next event.
type RemoteOrder struct {
	Lines            []RemoteLine
	Customer         *schema.OrderCustomer
	ShippingAddress  *schema.OrderAddress
	BillingAddress   *schema.OrderAddress
	SelectedShipping *schema.ShippingLine
	DiscountCodes    []string
	Tags             []string
	Notes            string
	CartParameters   map[string]string
	// TaxesApplied: the event was apply_taxes, so the order's tax basis becomes its address as
	// it stands (as Generate Taxes sets it), which process_order checks.
	TaxesApplied bool
	// Outside is the RSA's shipping options, taxes, discount values and fees.
	Outside *schema.OutsidePricing
	State   []byte
}

// CheckRemoteLines bounds what the RSA answered like a cart: keys unique and given, quantities and
// prices within input's bounds, texts short.
func CheckRemoteLines(lines []RemoteLine) error {
	if len(lines) > MaxLineItems {
		return fmt.Errorf("more than %d line items", MaxLineItems)
	}
	keys := map[string]bool{}
	var sum input.CheckedSum
	for i, l := range lines {
		switch {
		case l.LineItemKey == "" || input.TooLong(l.LineItemKey, input.MaxShortText):
			return fmt.Errorf("line_items[%d].line_item_key is blank or too long", i)
		case keys[l.LineItemKey]:
			return fmt.Errorf("line_items[%d].line_item_key is used twice", i)
		case l.Quantity < 1 || l.Quantity > input.MaxQuantity:
			return fmt.Errorf("line_items[%d].quantity is out of bounds", i)
		case l.Price < 0 || l.Price > input.MaxAmount:
			return fmt.Errorf("line_items[%d].unit_price is out of bounds", i)
		case input.TooLong(l.Title, input.MaxShortText) || input.TooLong(l.SKU, input.MaxShortText) ||
			input.TooLong(l.VariantID, input.MaxShortText) || input.TooLong(l.Vendor, input.MaxShortText):
			return fmt.Errorf("line_items[%d] has a text over %d characters", i, input.MaxShortText)
		case len(l.Properties) > input.MaxMapEntries:
			return fmt.Errorf("line_items[%d].properties has over %d entries", i, input.MaxMapEntries)
		}
		keys[l.LineItemKey] = true
		t, ok := input.LineTotal(l.Price, l.Quantity)
		if !ok {
			return fmt.Errorf("line_items[%d] is too large", i)
		}
		sum.Add(t)
	}
	if sum.Overflow || sum.Value > input.MaxOrderSubtotal {
		return fmt.Errorf("the order is too large")
	}
	return nil
}

// ApplyRemoteOrder replaces the copy of what its RSA owns on the order h holds (h.View, as it
// stood when the RSA was asked) with r, and gives the hold back in the same statement. When the
// answer leaves the lines as they were, and no other change moved the order on since it was
// held, that is one statement on the held version (as a change of the kept order is);
// otherwise one transaction on the locked order: lines matched by line_item_key (new ones
// added, missing ones deleted, the others' price and quantity set), and the order's fields set.
// An order held as this process kept it whose row has moved on is left as it is
// (ErrHeldOrderMoved): the RSA was not asked about the row.
func (s *Service) ApplyRemoteOrder(ctx context.Context, sess *OrderSession, h *RemoteHold, r RemoteOrder) (*OrderView, error) {
	if err := CheckRemoteLines(r.Lines); err != nil {
		return nil, err
	}
	// The customer, addresses and shipping choice read back from their JSON columns as they are
	// (no field left out when empty); the outside pricing's empty lists are left out.
	r.Outside = asStored(r.Outside)
	held := h.View
	if sameRemoteLines(held.LineItems, r.Lines) {
		changes := remoteChanges(s.p.DB.Client, held, r)
		if len(changes.Fields()) == 0 && len(changes.ClearedFields()) == 0 && len(changes.AddedFields()) == 0 {
			// The order is as the answer has it: the hold is given back (a write of its own on
			// the row, none for a hold in memory alone) and the order stays at its version; an
			// order held as kept is the answer once the row is found at its version.
			if h.unread {
				current, err := s.rowStillAt(ctx, held.Order, order.StatusEQ(order.StatusOpen))
				if err != nil {
					return nil, err
				}
				if !current {
					return nil, ErrHeldOrderMoved
				}
			}
			h.Release(ctx)
			return held, nil
		}
		kept := orderChildren{version: held.Order.Version, order: held.Order, items: held.LineItems, payments: held.Payments}
		view, done, err := s.applyFieldsAt(ctx, sess, kept, func(_ *ent.Client, _ *ent.Order, _ []*ent.LineItem, update *ent.OrderUpdate) error {
			// The kept order is the held one: the fields worked out from it are the change.
			if err := replayOrderMutation(update.Mutation(), changes); err != nil {
				return err
			}
			h.givenBack(update.Mutation())
			return nil
		}, h.heldBy()...)
		if done {
			h.done = err == nil
			return view, err
		}
		if h.unread {
			return nil, ErrHeldOrderMoved
		}
	}
	view, err := s.changeOrderGivingChildren(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) ([]*ent.LineItem, []*ent.OrderPayment, error) {
		if h.unread && o.Version != held.Order.Version {
			return nil, nil, ErrHeldOrderMoved
		}
		if o.RsaLeaseHolder != nil && *o.RsaLeaseHolder == h.holder {
			h.givenBack(update.Mutation())
		}
		items, err := orderLineItems(ctx, tx.Client(), o.ID)
		if err != nil {
			return nil, nil, err
		}
		byKey := map[string]*ent.LineItem{}
		for _, li := range items {
			byKey[li.LineItemKey] = li
		}
		answered := map[string]bool{}
		changed := false
		for i, l := range r.Lines {
			answered[l.LineItemKey] = true
			li, ok := byKey[l.LineItemKey]
			if !ok {
				props := l.Properties
				if props == nil {
					props = map[string]string{}
				}
				changed = true
				err = tx.LineItem.Create().SetOrderID(o.ID).SetLineItemKey(l.LineItemKey).SetTitle(l.Title).SetSku(l.SKU).
					SetVariantID(l.VariantID).SetPrice(l.Price).SetQuantity(l.Quantity).SetRequiresShipping(l.RequiresShipping).
					SetTaxable(l.Taxable).SetVendor(l.Vendor).SetProperties(props).SetPosition(len(items) + i).Exec(ctx)
			} else if li.Price != l.Price || li.Quantity != l.Quantity {
				changed = true
				err = tx.LineItem.UpdateOneID(li.ID).SetPrice(l.Price).SetQuantity(l.Quantity).Exec(ctx)
			}
			if err != nil {
				return nil, nil, err
			}
		}
		for key, li := range byKey {
			if !answered[key] {
				changed = true
				if err := tx.LineItem.DeleteOneID(li.ID).Exec(ctx); err != nil {
					return nil, nil, err
				}
			}
		}
		if changed {
			if items, err = orderLineItems(ctx, tx.Client(), o.ID); err != nil {
				return nil, nil, err
			}
		}
		setRemoteFields(update, o, items, r)
		return detach(items), nil, nil
	})
	h.done = err == nil
	return view, err
}

// remoteChanges are the fields applying r, whose lines are the order's, changes on the held
// order.
func remoteChanges(c *ent.Client, held *OrderView, r RemoteOrder) *ent.OrderMutation {
	update := c.Order.Update()
	o := *held.Order
	setRemoteFields(update, &o, held.LineItems, r)
	return update.Mutation()
}

// sameRemoteLines says whether the RSA's lines are the order's, as to keys, prices and quantities.
func sameRemoteLines(items []*ent.LineItem, lines []RemoteLine) bool {
	if len(items) != len(lines) {
		return false
	}
	byKey := make(map[string]*ent.LineItem, len(items))
	for _, li := range items {
		byKey[li.LineItemKey] = li
	}
	for _, l := range lines {
		li, ok := byKey[l.LineItemKey]
		if !ok || li.Price != l.Price || li.Quantity != l.Quantity {
			return false
		}
	}
	return true
}

// setRemoteFields sets on update the order's fields r answers, o being the order it changes and
// items its lines as r leaves them.
func setRemoteFields(update *ent.OrderUpdate, o *ent.Order, items []*ent.LineItem, r RemoteOrder) {
	setOrClear(update, o, r)
	meta := o.MetaData
	meta.Tags, meta.Notes, meta.CartParameters = r.Tags, r.Notes, r.CartParameters
	if meta = asStored(meta); !reflect.DeepEqual(meta, o.MetaData) {
		update.SetMetaData(meta)
	}
	if !bytes.Equal(r.State, o.RsaState) {
		update.SetRsaState(r.State)
	}
	if r.Outside != nil && !reflect.DeepEqual(r.Outside, o.OutsidePricing) {
		update.SetOutsidePricing(r.Outside)
	}
	if r.TaxesApplied {
		at := *o
		at.ShippingAddress, at.BillingAddress = r.ShippingAddress, r.BillingAddress
		if addr, _ := taxAddress(&at, items); addr != nil {
			update.SetTaxBasis(pricing.BasisOf(addr))
		}
	}
}

// asStored is v as its JSON column reads back (empty lists and maps left out are nil), so that
// the order worked out from the update is the row stored.
func asStored[T any](v T) T {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out T
	if json.Unmarshal(b, &out) != nil {
		return v
	}
	return out
}

// setOrClear sets on update each of the order's fields r answers differently from o (both as
// stored): what the RSA left as it was is not written again.
func setOrClear(update *ent.OrderUpdate, o *ent.Order, r RemoteOrder) {
	switch {
	case r.Customer != nil && !reflect.DeepEqual(r.Customer, o.Customer):
		update.SetCustomer(r.Customer)
	case r.Customer == nil && (o.Customer != nil || o.InitCustomer != nil):
		update.ClearCustomer().ClearInitCustomer()
	}
	switch {
	case r.ShippingAddress != nil && !reflect.DeepEqual(r.ShippingAddress, o.ShippingAddress):
		update.SetShippingAddress(r.ShippingAddress)
	case r.ShippingAddress == nil && o.ShippingAddress != nil:
		update.ClearShippingAddress()
	}
	switch {
	case r.BillingAddress != nil && !reflect.DeepEqual(r.BillingAddress, o.BillingAddress):
		update.SetBillingAddress(r.BillingAddress)
	case r.BillingAddress == nil && o.BillingAddress != nil:
		update.ClearBillingAddress()
	}
	switch {
	case r.SelectedShipping != nil && !reflect.DeepEqual(r.SelectedShipping, o.SelectedShipping):
		update.SetSelectedShipping(r.SelectedShipping)
	case r.SelectedShipping == nil && o.SelectedShipping != nil:
		update.ClearSelectedShipping()
	}
	switch {
	case len(r.DiscountCodes) > 0 && !slices.Equal(r.DiscountCodes, o.DiscountCodes):
		update.SetDiscountCodes(r.DiscountCodes)
	case len(r.DiscountCodes) == 0 && len(o.DiscountCodes) > 0:
		update.ClearDiscountCodes()
	}
}
