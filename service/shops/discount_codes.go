package shops

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
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
	StartsAt        input.Nullable[time.Time]
	EndsAt          input.Nullable[time.Time]
}

// normalizeDiscountCode is the stored form of a code: shoppers type codes in any case.
func NormalizeDiscountCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

func (in *DiscountCodeInput) validate() error {
	p := input.Problems{}
	in.Code = NormalizeDiscountCode(in.Code)
	if !DiscountCodeFormat.MatchString(in.Code) {
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

func DiscountCodeNotFound() *problem.Error {
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
			return DiscountCodeNotFound()
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
		input.SetOrClear(merged.StartsAt, u.SetStartsAt, u.ClearStartsAt)
		input.SetOrClear(merged.EndsAt, u.SetEndsAt, u.ClearEndsAt)
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
	n, err := s.p.DB.Client.DiscountCode.Delete().Where(discountcode.ShopID(sh.ID), discountcode.ID(id)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return DiscountCodeNotFound()
	}
	return nil
}

var DiscountCodeFormat = regexp.MustCompile(`^[A-Z0-9][A-Z0-9._-]{0,63}$`)
