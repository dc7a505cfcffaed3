package orders

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderapioverride"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
)

// MaxLineItems bounds one order, so that one cart cannot make every state read expensive.
const MaxLineItems = 250

// CartItem is one line of the cart an order starts from. A platform that keeps its own catalog
// sends title and price inline.
type CartItem struct {
	PlatformID       string            `json:"platform_id"`
	SKU              string            `json:"sku"`
	Quantity         int               `json:"quantity"`
	LineItemKey      string            `json:"line_item_key"`
	Title            *string           `json:"title"`
	Price            *int64            `json:"price"`
	CompareAtPrice   int64             `json:"compare_at_price"`
	Weight           int               `json:"weight"`
	WeightUnit       string            `json:"weight_unit"`
	RequiresShipping *bool             `json:"requires_shipping"`
	Taxable          *bool             `json:"taxable"`
	Vendor           string            `json:"vendor"`
	ImageURL         string            `json:"image_url"`
	Properties       map[string]string `json:"line_item_properties"`

	productPlatformID string
}

// InitOrderInput starts an order.
type InitOrderInput struct {
	CartItems     []CartItem            `json:"cart_items"`
	FlowID        string                `json:"flow_id"`
	OrderMetaData *schema.OrderMetaData `json:"order_meta_data"`
	ResumableLink string                `json:"resumable_link"`
	// Customer, when given, is the order's customer from the start; the deprecated Update Guest
	// Customer cannot change what it supplies.
	Customer *CustomerInput `json:"customer"`
	// CustomerJWT (ours) is the token of an authenticated customer (one with a platform_id): with
	// a customers destination, the platform's validate customer token must call it active.
	CustomerJWT string `json:"customer_jwt"`
	// APIOverrides (ours) are overrides for this order only: each takes the place of the shop's
	// override of its type (docs/overrides.md).
	APIOverrides []override.OrderInput `json:"api_overrides"`
	// Recorded, when set, runs in the transaction that creates the order, with the order and its
	// lines written: a caller records what the order is for (a subscription's due date) in the
	// same commit, or an error from it creates neither.
	Recorded func(ctx context.Context, tx *ent.Tx, o *ent.Order) error `json:"-"`
}

// MaxCustomerJWT bounds an authenticated customer's token at init.
const MaxCustomerJWT = 8192

// OrderView is an order with everything its state is derived from, and a storefront token for it.
type OrderView struct {
	Shop          *ent.Shop
	Order         *ent.Order
	LineItems     []*ent.LineItem
	ShippingLines []schema.ShippingLine
	// SelectedShipping is the chosen line while it is still offered, at today's price.
	SelectedShipping *schema.ShippingLine
	Payments         []*ent.OrderPayment
	Pricing          pricing.Pricing
	JWT              string
	// OverrideFallbacks are the override types whose last call fell back on the built-in
	// function (schema.OutsidePricing.Fallbacks, of overrides still in effect).
	OverrideFallbacks []string
}

// State is the order's application state.
func (v *OrderView) State() ApplicationState { return orderState(v) }

func (in InitOrderInput) validate(policy outbound.Policy) error {
	p := input.Problems{}
	if len(in.CustomerJWT) > MaxCustomerJWT {
		p.Add("customer_jwt", fmt.Sprintf("is longer than %d characters", MaxCustomerJWT))
	}
	if len(in.CartItems) > MaxLineItems {
		p.Add("cart_items", fmt.Sprintf("has more than %d lines", MaxLineItems))
	}
	keys := map[string]bool{}
	for i, it := range in.CartItems {
		f := fmt.Sprintf("cart_items[%d].", i)
		checkCartItem(p, f, it, false)
		key := it.LineItemKey
		if key == "" {
			key = fmt.Sprintf("line-%d", i+1)
		}
		if keys[key] {
			p.Add(f+"line_item_key", "is used by another line")
		}
		keys[key] = true
	}
	p.Text("flow_id", in.FlowID, input.MaxShortText)
	p.Text("resumable_link", in.ResumableLink, input.MaxURLText)
	checkOrderMetaData(p, "order_meta_data.", in.OrderMetaData)
	if len(p) > 0 {
		return problem.Validation("order.invalid_cart_items", "invalid cart: "+p.Message(), p.Details())
	}
	override.CheckOrderInputs(p, in.APIOverrides, policy)
	if len(p) > 0 {
		return problem.Validation("api_override.invalid_api_override_data", "invalid API override: "+p.Message(), p.Details())
	}
	if in.Customer != nil {
		return in.Customer.validate(false)
	}
	return nil
}

// cartSubtotal is the sum of a resolved cart's lines, refused past input.MaxOrderSubtotal.
func cartSubtotal(items []CartItem) error {
	var sum input.CheckedSum
	for _, it := range items {
		t, ok := input.LineTotal(*it.Price, it.Quantity)
		if !ok {
			return OrderTooLarge(0)
		}
		sum.Add(t)
	}
	if sum.Overflow {
		return OrderTooLarge(0)
	}
	if sum.Value > input.MaxOrderSubtotal {
		return OrderTooLarge(sum.Value)
	}
	return nil
}

// InitOrder creates an open order from a cart and a token that opens it.
func (s *Service) InitOrder(ctx context.Context, sh *ent.Shop, in InitOrderInput) (*OrderView, error) {
	if err := in.validate(s.outboundPolicy()); err != nil {
		return nil, err
	}
	if c := in.Customer; c != nil && c.PlatformID != nil && *c.PlatformID != "" && s.customerTokens != nil {
		if err := s.customerTokens.ValidateCustomerToken(ctx, sh, *c.PlatformID, in.CustomerJWT); err != nil {
			return nil, err
		}
	}
	meta := schema.OrderMetaData{}
	if in.OrderMetaData != nil {
		meta = *in.OrderMetaData
	}
	// The cart is completed from the catalog before the transaction, through the read pool: the
	// order copies what it finds, and SQLite's one writer is held only for the inserts.
	resolved, err := s.resolveCart(ctx, s.p.DB.Read, sh.ID, in.CartItems)
	if err != nil {
		return nil, err
	}
	if err := cartSubtotal(resolved); err != nil {
		return nil, err
	}
	var (
		o     *ent.Order
		items []*ent.LineItem
		own   []*ent.OrderAPIOverride
	)
	// The new rows' times are given as both databases keep them (UTC, whole microseconds), so that
	// the order and lines created are the rows stored, and are kept for the order's first change.
	// Row times are the wall clock's, as ent's defaults; the shopper's activity is the service's.
	now, activity := StoredNow(), s.p.Clock().UTC().Truncate(time.Microsecond)
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		create := tx.Order.Create().SetShopID(sh.ID).SetPublicOrderID(platform.NewPublicID()).SetCurrency(sh.Currency).
			SetFlowID(in.FlowID).SetResumableLink(in.ResumableLink).SetMetaData(meta).
			SetCreatedAt(now).SetUpdatedAt(now).SetLastActivityAt(activity)
		if in.Customer != nil {
			c := in.Customer.orderCustomer()
			create.SetCustomer(c).SetInitCustomer(c)
		}
		o, err = create.Save(ctx)
		if err != nil {
			return err
		}
		builders := make([]*ent.LineItemCreate, len(resolved))
		for i, it := range resolved {
			key := it.LineItemKey
			if key == "" {
				key = fmt.Sprintf("line-%d", i+1)
			}
			it.LineItemKey = key
			builders[i] = newLineItem(tx, o.ID, it, i).SetCreatedAt(now).SetUpdatedAt(now)
		}
		if items, err = tx.LineItem.CreateBulk(builders...).Save(ctx); err != nil {
			return err
		}
		if own, err = createOrderOverrides(ctx, tx, o.ID, in.APIOverrides); err != nil || in.Recorded == nil {
			return err
		}
		return in.Recorded(ctx, tx, o)
	})
	if err != nil {
		return nil, err
	}
	s.initialized.Inc()
	s.ownOverrides.Add(o.ID, detach(own))
	// A new order has no payments yet.
	view, err := s.ViewWith(ctx, s.p.DB.Read, sh, o, items, []*ent.OrderPayment{})
	if err != nil {
		return nil, err
	}
	view = view.Detached()
	s.children.keep(view.Order, view.LineItems, view.Payments)
	// The shop's remote state authority, if any, takes a first look at the cart's inventory; a
	// refusal is the shopper's answer, and the order it refused is left to be abandoned.
	if err := s.CheckRemoteInventory(ctx, &OrderSession{Shop: sh, Order: view.Order}, view, InventoryStageInitial); err != nil {
		return nil, err
	}
	if view.JWT, err = s.issueOrderJWT(sh, view.Order.PublicOrderID, len(in.APIOverrides) > 0); err != nil {
		return nil, err
	}
	return view, nil
}

// ResumeOrder gives a new token for an open order; processed and cancelled orders stay closed.
func (s *Service) ResumeOrder(ctx context.Context, sh *ent.Shop, publicOrderID string) (*OrderView, error) {
	if publicOrderID == "" || input.TooLong(publicOrderID, input.MaxShortText) {
		return nil, problem.Validation("order.invalid_resume", "public_order_id is required, at most "+strconv.Itoa(input.MaxShortText)+" characters", map[string]any{"field": "public_order_id"})
	}
	view, err := s.LoadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return nil, err
	}
	if view.Order.Status != order.StatusOpen {
		return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "order.not_resumable",
			Message: "the order is " + view.Order.Status.String() + " and cannot be resumed", Details: map[string]any{"public_order_id": publicOrderID}}
	}
	// The shopper is back: the abandoned-order hour starts again. The version moves, as with every
	// change of what the order's row says, so that a process keeping the order does not hold its
	// old activity (recordActivity reads it).
	if err := s.p.DB.Client.Order.UpdateOneID(view.Order.ID).SetLastActivityAt(s.p.Clock()).ClearAbandonedAt().AddVersion(1).Exec(ctx); err != nil {
		return nil, err
	}
	s.children.forget(view.Order.ID)
	own, err := s.p.DB.Read.OrderAPIOverride.Query().Where(orderapioverride.OrderID(view.Order.ID)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if view.JWT, err = s.issueOrderJWT(sh, publicOrderID, own); err != nil {
		return nil, err
	}
	return view, nil
}

// OrderState reads the order a session opened as it stands now: for an answer after the
// session has changed it.
func (s *Service) OrderState(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	return s.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
}

// SessionState is the order's state from the row the session was opened with: for a call that
// only reads, it saves reading the order a second time.
func (s *Service) SessionState(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	o, err := s.SessionOrder(ctx, sess)
	if err != nil {
		return nil, err
	}
	return s.readView(ctx, sess.Shop, o)
}

func (s *Service) LoadOrder(ctx context.Context, sh *ent.Shop, publicOrderID string) (*OrderView, error) {
	o, err := s.p.DB.Read.Order.Query().Where(order.ShopID(sh.ID), order.PublicOrderID(publicOrderID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, problem.NotFoundError("order.not_found", "no order with public_order_id "+publicOrderID)
	}
	if err != nil {
		return nil, err
	}
	return s.readView(ctx, sh, o)
}

// ViewOf reads what the order's state is derived from, through c (a transaction's client inside
// one), and prices it. items may be given when the caller has just read them.
func (s *Service) ViewOf(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order, items []*ent.LineItem) (*OrderView, error) {
	var err error
	if items == nil {
		if items, err = orderLineItems(ctx, c, o.ID); err != nil {
			return nil, err
		}
	}
	payments, err := c.OrderPayment.Query().Where(orderpayment.OrderID(o.ID)).Order(orderpayment.ByPosition(), orderpayment.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	return s.ViewWith(ctx, c, sh, o, items, payments)
}

// orderLineItems reads the order's line items in the order the view shows them.
func orderLineItems(ctx context.Context, c *ent.Client, orderID int) ([]*ent.LineItem, error) {
	return c.LineItem.Query().Where(lineitem.OrderID(orderID)).Order(lineitem.ByPosition(), lineitem.ByID()).All(ctx)
}

// ViewWith prices the order from its line items and payments, as read by the caller.
func (s *Service) ViewWith(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order, items []*ent.LineItem, payments []*ent.OrderPayment) (*OrderView, error) {
	if len(o.SettledPricing) > 0 {
		var settled settledPricing
		if err := json.Unmarshal(o.SettledPricing, &settled); err != nil {
			return nil, fmt.Errorf("order %s: settled pricing: %w", o.PublicOrderID, err)
		}
		return &OrderView{Shop: sh, Order: o, LineItems: items, ShippingLines: settled.ShippingLines, Payments: payments,
			SelectedShipping: settled.SelectedShipping, Pricing: settled.Pricing}, nil
	}
	// priced is o with the outside pricing still in effect.
	priced, err := s.outsideInEffect(ctx, c, sh, o)
	if err != nil {
		return nil, err
	}
	lines, err := s.availableShippingLines(ctx, c, sh.ID, priced, items)
	if err != nil {
		return nil, err
	}
	rules, err := s.loadPricingRules(ctx, c, sh, o)
	if err != nil {
		return nil, err
	}
	v := &OrderView{Shop: sh, Order: o, LineItems: items, ShippingLines: lines, Payments: payments}
	if priced.OutsidePricing != nil {
		v.OverrideFallbacks = priced.OutsidePricing.Fallbacks
	}
	for i := range lines {
		if o.SelectedShipping != nil && o.SelectedShipping.ID == lines[i].ID {
			v.SelectedShipping = &lines[i]
		}
	}
	v.Pricing = pricing.Price(sh, priced, items, v.SelectedShipping, rules, s.p.Clock())
	return v, nil
}

// settledPricing is what process_order froze of an order's view (Order.settled_pricing).
type settledPricing struct {
	ShippingLines    []schema.ShippingLine `json:"shipping_lines"`
	SelectedShipping *schema.ShippingLine  `json:"selected_shipping"`
	Pricing          pricing.Pricing       `json:"pricing"`
}

func FrozenPricing(v *OrderView) ([]byte, error) {
	return json.Marshal(settledPricing{ShippingLines: v.ShippingLines, SelectedShipping: v.SelectedShipping, Pricing: v.Pricing})
}

// resolveCart completes every cart item from the catalog; lines naming no known product are a
// 422 that names them.
func (s *Service) resolveCart(ctx context.Context, c *ent.Client, shopID int, items []CartItem) ([]CartItem, error) {
	out := make([]CartItem, len(items))
	p := input.Problems{}
	for i, it := range items {
		r, ok, err := s.resolveCartItem(ctx, c, shopID, it)
		if err != nil {
			return nil, err
		}
		if !ok {
			p.Add(fmt.Sprintf("cart_items[%d]", i), "names no product of the catalog (platform_id or sku), and has no inline title and price")
		}
		out[i] = r
	}
	if len(p) > 0 {
		return nil, problem.Validation("order.unknown_product", "unknown product: "+p.Message(), p.Details())
	}
	return out, nil
}
