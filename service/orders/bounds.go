package orders

import (
	"fmt"

	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// OrderTooLarge is the 422 for a change that would take an order's lines past input.MaxOrderSubtotal.
func OrderTooLarge(subtotal int64) *problem.Error {
	details := map[string]any{"field": "line_items", "max_subtotal": int64(input.MaxOrderSubtotal)}
	if subtotal > 0 {
		details["subtotal"] = subtotal
	}
	return problem.Validation("order.total_too_large", fmt.Sprintf("the order's lines would add up to more than %d", input.MaxOrderSubtotal), details)
}
