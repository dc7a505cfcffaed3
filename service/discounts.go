package service

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// DiscountCodeInput is a new discount code.
type DiscountCodeInput struct {
	Code string            `json:"code"`
	Text string            `json:"text"`
	Kind discountcode.Kind `json:"kind"`
	// Value is basis points for percentage (1000 is 10%), minor units for fixed_amount, and
	// unused for free_shipping.
	Value           int64      `json:"value"`
	MinimumSubtotal int64      `json:"minimum_subtotal"`
	UsageLimit      int        `json:"usage_limit"`
	StartsAt        *time.Time `json:"starts_at"`
	EndsAt          *time.Time `json:"ends_at"`
}

// DiscountCodePatch changes the fields it carries. The code itself is fixed: open orders hold it
// by name.
type DiscountCodePatch struct {
	Text            *string
	Kind            *discountcode.Kind
	Value           *int64
	MinimumSubtotal *int64
	UsageLimit      *int
	StartsAt        Nullable[time.Time]
	EndsAt          Nullable[time.Time]
}

// MaxDiscountCodesPerOrder: one code that takes money off the items plus one free-shipping code.
const MaxDiscountCodesPerOrder = 2

var discountCodeFormat = regexp.MustCompile(`^[A-Z0-9][A-Z0-9._-]{0,63}$`)

// normalizeDiscountCode is the stored form of a code: shoppers type codes in any case.
func normalizeDiscountCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

func (in *DiscountCodeInput) validate() error {
	p := input.Problems{}
	in.Code = normalizeDiscountCode(in.Code)
	if !discountCodeFormat.MatchString(in.Code) {
		p.Add("code", "must be 1 to 64 letters, digits, '.', '_' or '-'")
	}
	switch in.Kind {
	case discountcode.KindPercentage:
		if in.Value < 1 || in.Value > 10_000 {
			p.Add("value", "is in basis points for a percentage code: 1 to 10000")
		}
	case discountcode.KindFixedAmount:
		if in.Value < 1 || in.Value > input.MaxAmount {
			p.Add("value", "must be between 1 and "+strconv.Itoa(input.MaxAmount)+" (minor units) for a fixed_amount code")
		}
	case discountcode.KindFreeShipping:
		in.Value = 0
	default:
		p.Add("kind", "must be percentage, fixed_amount or free_shipping")
	}
	if in.MinimumSubtotal < 0 || in.MinimumSubtotal > input.MaxOrderSubtotal {
		p.Add("minimum_subtotal", "must be between 0 and "+strconv.Itoa(input.MaxOrderSubtotal)+" (minor units)")
	}
	p.Text("text", in.Text, input.MaxShortText)
	if in.UsageLimit < 0 {
		p.Add("usage_limit", "cannot be negative (0 is unlimited)")
	}
	if in.StartsAt != nil && in.EndsAt != nil && !in.EndsAt.After(*in.StartsAt) {
		p.Add("ends_at", "must be after starts_at")
	}
	if len(p) > 0 {
		return problem.Validation("discount.invalid_discount_code_data", "invalid discount code: "+p.Message(), p.Details())
	}
	return nil
}

// checkCodeSent refuses a blank code, and one longer than any code can be (discountCodeFormat).
func checkCodeSent(code string) error {
	if code == "" {
		return discountCodeRequired()
	}
	if len(code) > 64 {
		return input.TextTooLong("code", 64)
	}
	return nil
}

func discountCodeNotFound() *problem.Error {
	return problem.NotFoundError("discount.code_not_found", "no discount code with that id")
}

func discountCodeTaken(code string) *problem.Error {
	return problem.Validation("discount.code_taken", "the shop already has a discount code "+code, map[string]any{"field": "code", "code": code})
}

// CreateDiscountCode adds a code to the shop.
func (s *Service) CreateDiscountCode(ctx context.Context, sh *ent.Shop, in DiscountCodeInput) (*ent.DiscountCode, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	var out *ent.DiscountCode
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		taken, err := tx.DiscountCode.Query().Where(discountcode.ShopID(sh.ID), discountcode.Code(in.Code)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken {
			return discountCodeTaken(in.Code)
		}
		out, err = tx.DiscountCode.Create().SetShopID(sh.ID).SetCode(in.Code).SetText(in.Text).SetKind(in.Kind).
			SetValue(in.Value).SetMinimumSubtotal(in.MinimumSubtotal).SetUsageLimit(in.UsageLimit).
			SetNillableStartsAt(in.StartsAt).SetNillableEndsAt(in.EndsAt).Save(ctx)
		if ent.IsConstraintError(err) {
			return discountCodeTaken(in.Code)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out.Unwrap(), nil
}

// UpdateDiscountCode changes a code of the shop; the result must still be a valid code.
func (s *Service) UpdateDiscountCode(ctx context.Context, sh *ent.Shop, id int, in DiscountCodePatch) (*ent.DiscountCode, error) {
	var out *ent.DiscountCode
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		dc, err := tx.DiscountCode.Query().Where(discountcode.ShopID(sh.ID), discountcode.ID(id)).Only(ctx)
		if ent.IsNotFound(err) {
			return discountCodeNotFound()
		}
		if err != nil {
			return err
		}
		merged := DiscountCodeInput{Code: dc.Code, Text: dc.Text, Kind: dc.Kind, Value: dc.Value, MinimumSubtotal: dc.MinimumSubtotal,
			UsageLimit: dc.UsageLimit, StartsAt: dc.StartsAt, EndsAt: dc.EndsAt}
		if in.Text != nil {
			merged.Text = *in.Text
		}
		if in.Kind != nil {
			merged.Kind = *in.Kind
		}
		if in.Value != nil {
			merged.Value = *in.Value
		}
		if in.MinimumSubtotal != nil {
			merged.MinimumSubtotal = *in.MinimumSubtotal
		}
		if in.UsageLimit != nil {
			merged.UsageLimit = *in.UsageLimit
		}
		if in.StartsAt.Set {
			merged.StartsAt = in.StartsAt.Value
		}
		if in.EndsAt.Set {
			merged.EndsAt = in.EndsAt.Value
		}
		if err := merged.validate(); err != nil {
			return err
		}
		u := dc.Update().SetText(merged.Text).SetKind(merged.Kind).SetValue(merged.Value).SetMinimumSubtotal(merged.MinimumSubtotal).
			SetUsageLimit(merged.UsageLimit)
		setOrClear(merged.StartsAt, u.SetStartsAt, u.ClearStartsAt)
		setOrClear(merged.EndsAt, u.SetEndsAt, u.ClearEndsAt)
		out, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out.Unwrap(), nil
}

// DeleteDiscountCode removes a code of the shop. Open orders holding it keep its name, priced at
// nothing, until the shopper removes it.
func (s *Service) DeleteDiscountCode(ctx context.Context, sh *ent.Shop, id int) error {
	n, err := s.db.Client.DiscountCode.Delete().Where(discountcode.ShopID(sh.ID), discountcode.ID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return discountCodeNotFound()
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
	if problem := discountCodeProblem(dc, subtotal, now); problem != nil {
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
	code = normalizeDiscountCode(code)
	if err := checkCodeSent(code); err != nil {
		return nil, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if _, err := checkDiscountCode(ctx, read, sess.Shop, o, code, s.clock()); err != nil {
			return err
		}
		if slices.Contains(o.DiscountCodes, code) {
			return nil
		}
		update.SetDiscountCodes(append(slices.Clone(o.DiscountCodes), code))
		return nil
	})
}

// RemoveDiscountCode takes a code off the order.
func (s *Service) RemoveDiscountCode(ctx context.Context, sess *OrderSession, code string) (*OrderView, error) {
	code = normalizeDiscountCode(code)
	if err := checkCodeSent(code); err != nil {
		return nil, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if !slices.Contains(o.DiscountCodes, code) {
			return problem.Validation("discount.not_applied", "discount code "+code+" is not applied to the order", map[string]any{"field": "code", "code": code})
		}
		rest := slices.DeleteFunc(slices.Clone(o.DiscountCodes), func(held string) bool { return held == code })
		update.SetDiscountCodes(rest)
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
	code = normalizeDiscountCode(code)
	if err := checkCodeSent(code); err != nil {
		return nil, err
	}
	v, err := s.loadOrder(ctx, sess.Shop, sess.PublicOrderID())
	if err != nil {
		return nil, err
	}
	dc, err := checkDiscountCode(ctx, s.db.Read, sess.Shop, v.Order, code, s.clock())
	if err != nil {
		return nil, err
	}
	return &DiscountCodeCheck{Code: dc, View: v}, nil
}
