package orders

import (
	"context"
	"slices"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

// MaxDiscountCodesPerOrder: one code that takes money off the items plus one free-shipping code.
const MaxDiscountCodesPerOrder = 2

// checkCodeSent refuses a blank code, and one longer than any code can be (shops.DiscountCodeFormat).
func checkCodeSent(code string) error {
	if code == "" {
		return discountCodeRequired()
	}
	if len(code) > 64 {
		return input.TextTooLong("code", 64)
	}
	return nil
}

func unknownDiscountCode(code string) *problem.Error {
	return problem.Validation("discount.invalid_code", "no discount code "+code, map[string]any{"field": "code", "code": code})
}

func discountCodeRequired() *problem.Error {
	return problem.Validation("discount.code_required", "code is required", map[string]any{"field": "code"})
}

// checkDiscountCode is every rule a code must pass to be applied to the order: it exists, its
// dates, minimum subtotal and usage limit hold, and it does not stack with a code of the same
// sort already on the order. c is a transaction's client inside one.
func checkDiscountCode(ctx context.Context, c *ent.Client, sh *ent.Shop, o *ent.Order, code string, now time.Time) (*ent.DiscountCode, error) {
	dc, err := c.DiscountCode.Query().Where(discountcode.ShopID(sh.ID), discountcode.Code(code)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, unknownDiscountCode(code)
	}
	if err != nil {
		return nil, err
	}
	items, err := c.LineItem.Query().Where(lineitem.OrderID(o.ID)).All(ctx)
	if err != nil {
		return nil, err
	}
	var subtotal int64
	for _, li := range items {
		subtotal += li.Price * int64(li.Quantity)
	}
	if problem := pricing.DiscountCodeProblem(dc, subtotal, now); problem != nil {
		return nil, problem
	}
	others := slices.DeleteFunc(slices.Clone(o.DiscountCodes), func(held string) bool { return held == code })
	if len(others) == 0 {
		return dc, nil
	}
	held, err := c.DiscountCode.Query().Where(discountcode.ShopID(sh.ID), discountcode.CodeIn(others...)).All(ctx)
	if err != nil {
		return nil, err
	}
	shipping := dc.Kind == discountcode.KindFreeShipping
	for _, h := range held {
		if (h.Kind == discountcode.KindFreeShipping) == shipping {
			return nil, problem.Validation("discount.cannot_combine",
				"discount code "+code+" cannot be combined with "+h.Code+", already on the order: remove it first",
				map[string]any{"field": "code", "code": code, "applied_code": h.Code})
		}
	}
	if len(others) >= MaxDiscountCodesPerOrder {
		return nil, problem.Validation("discount.cannot_combine", "the order already holds the most discount codes it can: remove one first",
			map[string]any{"field": "code", "code": code})
	}
	return dc, nil
}

// ApplyDiscountCode adds a code to the order. Applying a code the order already holds checks it
// again and changes nothing.
func (s *Service) ApplyDiscountCode(ctx context.Context, sess *OrderSession, code string) (*OrderView, error) {
	code = shops.NormalizeDiscountCode(code)
	if err := checkCodeSent(code); err != nil {
		return nil, err
	}
	if v, ok, err := s.remoteEvent(ctx, sess, EventAddDiscountCode, map[string]string{"code": code}); ok {
		return v, err
	}
	var out override.Outcome
	return changeWithOverrides(func(fresh bool) (outsideEdit, error) {
		o, answer, version, err := s.discountOverride(ctx, sess, code, fresh)
		if err != nil {
			return outsideEdit{}, err
		}
		out = o
		// A code the override values is its own: the shop's rules for codes do not apply to it,
		// but the order holds no more codes than it can. When the override fell back, every code
		// is the shop's again.
		edit := outsideEdit{version: version}
		edit.record(override.Discount, out, func(op *schema.OutsidePricing) { withOutsideDiscount(op, answer.Discount(code)) },
			func(op *schema.OutsidePricing) { op.Discounts = nil })
		return edit, nil
	}, func(edit outsideEdit) (*OrderView, error) {
		return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
			if out == override.Answered {
				if !slices.Contains(o.DiscountCodes, code) && len(o.DiscountCodes) >= MaxDiscountCodesPerOrder {
					return problem.Validation("discount.cannot_combine", "the order already holds the most discount codes it can: remove one first",
						map[string]any{"field": "code", "code": code})
				}
			} else if _, err := checkDiscountCode(ctx, read, sess.Shop, o, code, s.p.Clock()); err != nil {
				return err
			}
			if !slices.Contains(o.DiscountCodes, code) {
				update.SetDiscountCodes(append(slices.Clone(o.DiscountCodes), code))
			}
			return edit.apply(o, update)
		})
	})
}

// RemoveDiscountCode takes a code off the order.
func (s *Service) RemoveDiscountCode(ctx context.Context, sess *OrderSession, code string) (*OrderView, error) {
	code = shops.NormalizeDiscountCode(code)
	if err := checkCodeSent(code); err != nil {
		return nil, err
	}
	if v, ok, err := s.remoteEvent(ctx, sess, EventRemoveDiscountCode, map[string]string{"code": code}); ok {
		return v, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if !slices.Contains(o.DiscountCodes, code) {
			return problem.Validation("discount.not_applied", "discount code "+code+" is not applied to the order", map[string]any{"field": "code", "code": code})
		}
		rest := slices.DeleteFunc(slices.Clone(o.DiscountCodes), func(held string) bool { return held == code })
		update.SetDiscountCodes(rest)
		if o.OutsidePricing != nil && o.OutsidePricing.Discounts != nil && o.OutsidePricing.From != schema.OutsideFromRSA {
			edit := outsideEdit{version: o.Version, edits: []func(op *schema.OutsidePricing){func(op *schema.OutsidePricing) { withoutOutsideDiscount(op, code) }}}
			return edit.apply(o, update)
		}
		return nil
	})
}

// DiscountCodeCheck is a code that would apply to the order, and the order as it stands.
type DiscountCodeCheck struct {
	Code *ent.DiscountCode
	View *OrderView
}

// ValidateDiscountCode answers whether the code would apply to the order now, by the same rules
// as applying it, without changing the order.
func (s *Service) ValidateDiscountCode(ctx context.Context, sess *OrderSession, code string) (*DiscountCodeCheck, error) {
	code = shops.NormalizeDiscountCode(code)
	if err := checkCodeSent(code); err != nil {
		return nil, err
	}
	out, answer, _, err := s.discountOverride(ctx, sess, code, true)
	if err != nil {
		return nil, err
	}
	v, err := s.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
	if err != nil {
		return nil, err
	}
	if out == override.Answered {
		// The override's code is not one of the shop's: it is described by what it takes off.
		kind := discountcode.KindFixedAmount
		if answer.Value == 0 && len(answer.Lines) == 0 && answer.ShippingValue > 0 {
			kind = discountcode.KindFreeShipping
		}
		text := answer.Text
		if text == "" {
			text = code
		}
		return &DiscountCodeCheck{Code: &ent.DiscountCode{Code: code, Text: text, Kind: kind, Value: answer.Value}, View: v}, nil
	}
	dc, err := checkDiscountCode(ctx, s.p.DB.Read, sess.Shop, v.Order, code, s.p.Clock())
	if err != nil {
		return nil, err
	}
	return &DiscountCodeCheck{Code: dc, View: v}, nil
}
