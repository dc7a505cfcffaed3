package graph

import (
	"context"

	"github.com/checkoutd/checkoutd/graph/model"
	"github.com/checkoutd/checkoutd/service/shops"
)

// discountCodePatch tells an absent startsAt/endsAt (unchanged) from one given as null (cleared).
func discountCodePatch(ctx context.Context, in model.DiscountCodePatch) shops.DiscountCodePatch {
	p := inputFields(ctx)
	return shops.DiscountCodePatch{
		Text: in.Text, Kind: in.Kind, Value: in.Value, MinimumSubtotal: in.MinimumSubtotal, UsageLimit: in.UsageLimit,
		StartsAt: nullable(p, "startsAt", in.StartsAt), EndsAt: nullable(p, "endsAt", in.EndsAt),
	}
}
