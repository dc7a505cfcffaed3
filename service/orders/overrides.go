package orders

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/orderapioverride"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/problem"
)

// UseOverrides makes the order domain call the shops' API overrides through ov (without it,
// the built-in functions always answer).
func (s *Service) UseOverrides(ov *override.Service) { s.overrides = ov }

// overridesOf is the overrides in effect for order o of shop sh: none without an override
// caller or under the shop's remote state authority (override.Resolve), else the shop's
// (cached) with the order's own over them. c reads the order's own when they are not kept yet.
func (s *Service) overridesOf(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order) (*override.Set, error) {
	return s.overridesWith(ctx, c, sh, o, false)
}

// overridesWith is overridesOf; noOwn says the order is known to have no overrides of its own.
func (s *Service) overridesWith(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order, noOwn bool) (*override.Set, error) {
	if s.overrides == nil {
		return &override.Set{}, nil
	}
	if rsa, err := s.shops.RSAConfig(ctx, sh); err != nil || rsa != nil {
		return &override.Set{}, err
	}
	shop, err := s.shops.ShopOverrides(ctx, sh)
	if err != nil {
		return nil, err
	}
	var own []*ent.OrderAPIOverride
	if !noOwn {
		if own, err = s.ownOverridesOf(ctx, c, o.ID); err != nil {
			return nil, err
		}
	}
	return override.Resolve(sh.ID, o.PublicOrderID, shop, own), nil
}

// ownOverridesOf is the overrides the order was given at init, kept by order once read: they
// never change after init.
func (s *Service) ownOverridesOf(ctx context.Context, c *ent.Client, orderID int) ([]*ent.OrderAPIOverride, error) {
	if own, ok := s.ownOverrides.Get(orderID); ok {
		return own, nil
	}
	own, err := c.OrderAPIOverride.Query().Where(orderapioverride.OrderID(orderID)).Order(orderapioverride.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	s.ownOverrides.Add(orderID, own)
	return own, nil
}

// mayHaveOverrides says whether the session's order can have an API override in effect, from
// what costs no statement: not without an override caller, not under the shop's remote state
// authority, and not when neither the shop (cached) nor the order (its JWT says) has one. A
// backend session, without a JWT, may.
func (s *Service) mayHaveOverrides(ctx context.Context, sess *OrderSession) (bool, error) {
	if s.overrides == nil {
		return false, nil
	}
	if rsa, err := s.shops.RSAConfig(ctx, sess.Shop); err != nil || rsa != nil {
		return false, err
	}
	shop, err := s.shops.HasAPIOverrides(ctx, sess.Shop)
	return shop || !sess.noOwnOverrides, err
}

// sessionOverrides is the overrides in effect for the session's order, with the order's state
// as it stands, when one of types is among them; nil and nothing read otherwise. What the shop
// has is cached and the JWT says whether the order has overrides of its own, so a change no
// override of types concerns reads nothing more than it would without overrides.
//
// The state is the order as this process kept it after its last change, when it did and fresh
// is false (nothing is read): an answer about it applies only while the order is still at that
// version (outsideEdit.apply).
func (s *Service) sessionOverrides(ctx context.Context, sess *OrderSession, fresh bool, types ...string) (*override.Set, *OrderView, error) {
	if may, err := s.mayHaveOverrides(ctx, sess); !may || err != nil {
		return nil, nil, err
	}
	if sess.noOwnOverrides {
		shop, err := s.shops.ShopOverrides(ctx, sess.Shop)
		if err != nil || !slices.ContainsFunc(shop, func(a *ent.APIOverride) bool { return slices.Contains(types, a.OverrideType) }) {
			return nil, nil, err
		}
	}
	v, err := s.stateToAsk(ctx, sess, fresh)
	if err != nil {
		return nil, nil, err
	}
	set, err := s.overridesWith(ctx, s.p.DB.Read, sess.Shop, v.Order, sess.noOwnOverrides)
	if err != nil || !slices.ContainsFunc(types, set.Has) {
		return nil, nil, err
	}
	return set, v, nil
}

// overrideMemo is ctx with the memo of override answers the request's calls share; asking again
// about the order read anew (fresh), one of its own.
func overrideMemo(ctx context.Context, fresh bool) context.Context {
	if fresh {
		return override.WithNewMemo(ctx)
	}
	return override.WithMemo(ctx)
}

// stateToAsk is the order's state to ask its overrides about: as this process kept it after its
// last change, unless fresh or it kept none, when it is read.
func (s *Service) stateToAsk(ctx context.Context, sess *OrderSession, fresh bool) (*OrderView, error) {
	if !fresh {
		if kept, ok := s.children.latest(sess.Shop.ID, sess.PublicOrderID()); ok {
			return s.ViewWith(ctx, s.p.DB.Read, sess.Shop, kept.order, kept.items, kept.payments)
		}
	}
	return s.OrderState(ctx, sess)
}

// outsideEdit is what the override calls of one shopper change leave on the order's outside
// pricing. The calls are made before the change is written; the edit is applied to the order
// the change writes, which must be the version of the order the overrides were asked about.
type outsideEdit struct {
	// version is the order's version the overrides were asked about.
	version int
	edits   []func(op *schema.OutsidePricing)
}

// errStaleOverrideAnswer: the order moved on between the override calls and the change's write;
// the change asks again about the order as it now stands (changeWithOverrides).
var errStaleOverrideAnswer = errors.New("the order changed since its overrides were asked")

// changeWithOverrides runs a change whose override calls (ask) were made about the order as this
// process kept it (sessionOverrides), and, should the order have moved on meanwhile (another
// process changed it), asks again about the order read anew and runs the change once more.
func changeWithOverrides[T any](ask func(fresh bool) (outsideEdit, error), change func(edit outsideEdit) (T, error)) (T, error) {
	edit, err := ask(false)
	if err != nil {
		var zero T
		return zero, err
	}
	out, err := change(edit)
	if !errors.Is(err, errStaleOverrideAnswer) {
		return out, err
	}
	if edit, err = ask(true); err != nil {
		var zero T
		return zero, err
	}
	return change(edit)
}

// answered records that the override of typ answered, and what its answer sets.
func (e *outsideEdit) answered(typ string, set func(op *schema.OutsidePricing)) {
	e.edits = append(e.edits, func(op *schema.OutsidePricing) {
		op.Fallbacks = slices.DeleteFunc(op.Fallbacks, func(t string) bool { return t == typ })
		if set != nil {
			set(op)
		}
	})
}

// fellBack records that the override of typ failed under the fallback policy: the built-in
// function answers (clear takes the override's part away), and the order's state says so.
func (e *outsideEdit) fellBack(typ string, clear func(op *schema.OutsidePricing)) {
	e.edits = append(e.edits, func(op *schema.OutsidePricing) {
		if !slices.Contains(op.Fallbacks, typ) {
			op.Fallbacks = append(op.Fallbacks, typ)
		}
		if clear != nil {
			clear(op)
		}
	})
}

// record is answered or fellBack, by the call's outcome; a built-in answer records nothing.
func (e *outsideEdit) record(typ string, out override.Outcome, set, clear func(op *schema.OutsidePricing)) {
	switch out {
	case override.Answered:
		e.answered(typ, set)
	case override.FellBack:
		e.fellBack(typ, clear)
	}
}

// apply sets the edited outside pricing on update, o being the order the change writes.
func (e outsideEdit) apply(o *ent.Order, update *ent.OrderUpdate) error {
	if len(e.edits) == 0 {
		return nil
	}
	if o.Version != e.version {
		return errStaleOverrideAnswer
	}
	op := &schema.OutsidePricing{}
	if o.OutsidePricing != nil {
		op = cloneOutside(o.OutsidePricing)
	}
	for _, f := range e.edits {
		f(op)
	}
	op.From = schema.OutsideFromOverride
	// Stored as it reads back (an empty list is no list), so the order applied is the row.
	op = cloneOutside(op)
	if op.Shipping == nil && op.Taxes == nil && op.Discounts == nil && len(op.Fees) == 0 && len(op.Fallbacks) == 0 {
		update.ClearOutsidePricing()
		return nil
	}
	update.SetOutsidePricing(op)
	return nil
}

// cloneOutside is a deep copy of op, as the database gives it back.
func cloneOutside(op *schema.OutsidePricing) *schema.OutsidePricing {
	raw, _ := json.Marshal(op)
	out := &schema.OutsidePricing{}
	_ = json.Unmarshal(raw, out)
	return out
}

// outsideInEffect is o with only those parts of its override-given pricing whose override is
// still in effect (a deleted override's answer no longer prices the order); o itself when
// nothing is dropped. A remote state authority's pricing is its own to change.
func (s *Service) outsideInEffect(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order) (*ent.Order, error) {
	op := o.OutsidePricing
	if op == nil || op.From == schema.OutsideFromRSA {
		return o, nil
	}
	set, err := s.overridesOf(ctx, c, sh, o)
	if err != nil {
		return nil, err
	}
	kept := *op
	if !set.Has(override.Shipping) {
		kept.Shipping = nil
	}
	if !set.Has(override.Tax) {
		kept.Taxes = nil
	}
	if !set.Has(override.Discount) {
		kept.Discounts = nil
	}
	kept.Fallbacks = slices.DeleteFunc(slices.Clone(op.Fallbacks), func(t string) bool { return !set.Has(t) })
	if kept.Shipping == op.Shipping && kept.Taxes == op.Taxes && kept.Discounts == op.Discounts && len(kept.Fallbacks) == len(op.Fallbacks) {
		return o, nil
	}
	at := *o
	at.OutsidePricing = &kept
	return &at, nil
}

// overrideState is the order's state for an override call.
func overrideState(v *OrderView) override.OrderState {
	return override.StateOf(v.Order, v.LineItems, &v.Pricing)
}

// addressOverrides asks the order's address_validate override about an address about to be
// set (after checkoutd's own checks of its fields), and, for the shipping address, its shipping
// override for the lines the order is offered there. A valid answer's corrected address
// replaces in; an invalid one refuses the change with the override's message.
func (s *Service) addressOverrides(ctx context.Context, sess *OrderSession, kind AddressKind, in *AddressInput, strict, fresh bool) (outsideEdit, error) {
	types := []string{override.AddressValidate}
	if kind == ShippingAddress {
		types = append(types, override.Shipping)
	}
	set, v, err := s.sessionOverrides(ctx, sess, fresh, types...)
	if set == nil || err != nil {
		return outsideEdit{}, err
	}
	ctx = overrideMemo(ctx, fresh)
	o := v.Order
	edit := outsideEdit{version: o.Version}
	var a override.AddressAnswer
	out, err := s.overrides.Call(ctx, set, override.AddressValidate, override.Request{PublicOrderID: o.PublicOrderID,
		Order: overrideState(v), AddressType: string(kind), Address: in}, &a)
	if err != nil {
		return outsideEdit{}, err
	}
	edit.record(override.AddressValidate, out, nil, nil)
	if out == override.Answered {
		if !*a.Valid {
			msg := a.Message
			if msg == "" {
				msg = "the shop's address validation refused it"
			}
			return outsideEdit{}, addressRefused(kind, msg)
		}
		if a.Address != nil {
			corrected := *a.Address
			if err := validateAddress(kind, &corrected, orderAddressRules(sess.Shop, strict)); err != nil {
				return outsideEdit{}, err
			}
			*in = corrected
		}
	}
	if kind == ShippingAddress && set.Has(override.Shipping) {
		at := *v.Order
		at.ShippingAddress = in
		var sa override.ShippingAnswer
		out, err := s.overrides.Call(ctx, set, override.Shipping, override.Request{PublicOrderID: o.PublicOrderID,
			Order: override.StateOf(&at, v.LineItems, &v.Pricing)}, &sa)
		if err != nil {
			return outsideEdit{}, err
		}
		edit.record(override.Shipping, out, func(op *schema.OutsidePricing) {
			op.Shipping = &schema.OutsideShipping{Lines: sa.ShippingLines}
		}, func(op *schema.OutsidePricing) { op.Shipping = nil })
	}
	return edit, nil
}

func addressRefused(kind AddressKind, msg string) *problem.Error {
	return problem.Validation("address.invalid_address", "invalid "+string(kind)+" address: "+msg,
		map[string]any{"field": "address", "address_type": string(kind), "override_type": override.AddressValidate})
}

func discountRefused(code, msg string) *problem.Error {
	if msg == "" {
		msg = "discount code " + code + " does not apply to this order"
	}
	return problem.Validation("discount.invalid_code", msg, map[string]any{"field": "code", "code": code, "override_type": override.Discount})
}

// discountOverride asks the order's discount override whether code applies to the order and
// what it takes off. BuiltIn and FellBack answers leave the code to the shop's rules.
func (s *Service) discountOverride(ctx context.Context, sess *OrderSession, code string, fresh bool) (override.Outcome, *override.DiscountAnswer, int, error) {
	set, v, err := s.sessionOverrides(ctx, sess, fresh, override.Discount)
	if set == nil || err != nil {
		return override.BuiltIn, nil, 0, err
	}
	ctx = overrideMemo(ctx, fresh)
	o := v.Order
	var a override.DiscountAnswer
	out, err := s.overrides.Call(ctx, set, override.Discount, override.Request{PublicOrderID: o.PublicOrderID,
		Order: overrideState(v), Code: code}, &a)
	if err != nil {
		return out, nil, 0, err
	}
	if out == override.Answered && !*a.Valid {
		return out, nil, 0, discountRefused(code, a.Message)
	}
	return out, &a, v.Order.Version, nil
}

// withOutsideDiscount is op's discounts with code valued as d (in place of an earlier value).
func withOutsideDiscount(op *schema.OutsidePricing, d schema.OutsideDiscount) {
	if op.Discounts == nil {
		op.Discounts = &schema.OutsideDiscounts{}
	}
	codes := slices.DeleteFunc(op.Discounts.Codes, func(c schema.OutsideDiscount) bool { return c.Code == d.Code })
	op.Discounts.Codes = append(codes, d)
}

// withoutOutsideDiscount takes code's value off op's discounts.
func withoutOutsideDiscount(op *schema.OutsidePricing, code string) {
	if op.Discounts != nil {
		op.Discounts.Codes = slices.DeleteFunc(op.Discounts.Codes, func(c schema.OutsideDiscount) bool { return c.Code == code })
	}
}

// outboundPolicy is the policy override URLs given at init must pass: with no override caller,
// the strictest.
func (s *Service) outboundPolicy() outbound.Policy {
	if s.overrides == nil {
		return outbound.Policy{}
	}
	return s.overrides.Policy()
}

// createOrderOverrides stores the overrides an order is given at init, their secrets sealed,
// and answers them.
func createOrderOverrides(ctx context.Context, tx *ent.Tx, orderID int, ins []override.OrderInput) ([]*ent.OrderAPIOverride, error) {
	if len(ins) == 0 {
		return nil, nil
	}
	builders := make([]*ent.OrderAPIOverrideCreate, len(ins))
	for i, in := range ins {
		b := tx.OrderAPIOverride.Create().SetOrderID(orderID).SetOverrideType(in.OverrideType).SetURL(in.URL).SetSharedSecret(in.SharedSecret)
		if in.FailurePolicy != nil {
			b.SetFailurePolicy(*in.FailurePolicy)
		}
		if in.TimeoutMS != nil {
			b.SetTimeoutMs(*in.TimeoutMS)
		}
		builders[i] = b
	}
	return tx.OrderAPIOverride.CreateBulk(builders...).Save(ctx)
}

// estimateOverride is the outside pricing of the order v if it were at (another address),
// asking at's override of typ (shipping or tax) for its part, for an estimate: nothing is
// stored. The part is the built-in one's (nil) when the override fell back.
func (s *Service) estimateOverride(ctx context.Context, sess *OrderSession, v *OrderView, at *ent.Order, typ string) (*schema.OutsidePricing, error) {
	if op := v.Order.OutsidePricing; op == nil || op.From == schema.OutsideFromRSA {
		if may, err := s.mayHaveOverrides(ctx, sess); !may || err != nil {
			return op, err
		}
	}
	priced, err := s.outsideInEffect(ctx, s.p.DB.Read, sess.Shop, v.Order)
	if err != nil {
		return nil, err
	}
	op := priced.OutsidePricing
	set, err := s.overridesOf(ctx, s.p.DB.Read, sess.Shop, v.Order)
	if err != nil || !set.Has(typ) {
		return op, err
	}
	if op == nil {
		op = &schema.OutsidePricing{}
	}
	op = cloneOutside(op)
	req := override.Request{PublicOrderID: v.Order.PublicOrderID, Order: override.StateOf(at, v.LineItems, &v.Pricing)}
	switch typ {
	case override.Shipping:
		var a override.ShippingAnswer
		out, err := s.overrides.Call(override.WithMemo(ctx), set, typ, req, &a)
		if err != nil {
			return nil, err
		}
		op.Shipping = nil
		if out == override.Answered {
			op.Shipping = &schema.OutsideShipping{Lines: a.ShippingLines}
		}
	case override.Tax:
		var a override.TaxAnswer
		out, err := s.overrides.Call(override.WithMemo(ctx), set, typ, req, &a)
		if err != nil {
			return nil, err
		}
		op.Taxes = nil
		if out == override.Answered {
			op.Taxes = a.Taxes()
		}
	}
	return op, nil
}
