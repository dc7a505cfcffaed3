package subscription

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/subscription"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/pricing"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

// codeRejected is the 400 of the discount operations: the code cannot be the subscription's.
func codeRejected(code, reason string) *problem.Error {
	return &problem.Error{Kind: problem.Rejected, Code: problem.CodeBadRequest, Type: "subscription.discount_code_rejected",
		Message: reason, Details: map[string]any{"field": "discount_code", "code": code}}
}

// checkDiscountCode applies checkout's rules of a code to a subscription's lines: the shop has
// it, its dates and minimum subtotal hold, and it is not used up.
// It answers the code's percent_discount: its whole percent for a percentage code, else 0.
func (s *Service) checkDiscountCode(ctx context.Context, sh *ent.Shop, code string, subtotal int64) (int, error) {
	dc, err := s.p.DB.Read.DiscountCode.Query().Where(discountcode.ShopID(sh.ID), discountcode.Code(code)).Only(ctx)
	if ent.IsNotFound(err) {
		return 0, codeRejected(code, "discount code "+code+" does not exist")
	}
	if err != nil {
		return 0, err
	}
	if p := pricing.DiscountCodeProblem(dc, subtotal, s.p.Clock()); p != nil {
		return 0, codeRejected(code, p.Message)
	}
	if dc.Kind == discountcode.KindPercentage {
		return int(dc.Value / 100), nil
	}
	return 0, nil
}

// UpdateDiscountCode sets the code the subscription's next orders apply, once checkout's rules
// accept it for the subscription's lines.
func (s *Service) UpdateDiscountCode(ctx context.Context, sh *ent.Shop, id int, code string) (*View, error) {
	code = shops.NormalizeDiscountCode(code)
	if code == "" {
		return nil, codeRejected(code, "discount_code is required")
	}
	if input.TooLong(code, 64) {
		return nil, codeRejected(clipText(code, 64), "discount_code is longer than 64 characters")
	}
	v, err := s.Subscription(ctx, sh, id, false)
	if err != nil {
		return nil, err
	}
	var subtotal int64
	for _, li := range v.LineItems {
		subtotal += li.Price * int64(li.Quantity)
	}
	percent, err := s.checkDiscountCode(ctx, sh, code, subtotal)
	if err != nil {
		return nil, err
	}
	return s.setDiscountCode(ctx, sh, id, code, percent)
}

// RemoveDiscountCode takes the code off the subscription; its next orders apply none.
func (s *Service) RemoveDiscountCode(ctx context.Context, sh *ent.Shop, id int) (*View, error) {
	v, err := s.Subscription(ctx, sh, id, false)
	if err != nil {
		return nil, err
	}
	if v.DiscountCode == "" {
		return nil, codeRejected("", "the subscription has no discount code")
	}
	return s.setDiscountCode(ctx, sh, id, "", 0)
}

func (s *Service) setDiscountCode(ctx context.Context, sh *ent.Shop, id int, code string, percent int) (*View, error) {
	n, err := s.p.DB.Client.Subscription.Update().Where(subscription.ShopID(sh.ID), subscription.ID(id)).SetDiscountCode(code).
		SetPercentDiscount(percent).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, notFound()
	}
	return s.Subscription(ctx, sh, id, false)
}
