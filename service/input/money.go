package input

import (
	"fmt"
	"math"
)

// Money and quantity bounds: every amount and quantity that enters has one, chosen so that no
// sum of valid inputs can leave an int64 (docs/api.md, "Bounds"). Totals are still added with
// overflow checks (CheckedSum), so a row written before these bounds cannot wrap a total either.
const (
	// MaxAmount bounds one amount in minor units: a price, a shipping rate, a discount, a gift
	// card, a payment, a capture or a refund (ten billion in a two-decimal currency).
	MaxAmount = 1_000_000_000_000
	// MaxQuantity bounds the units of one line.
	MaxQuantity = 100_000
	// MaxOrderSubtotal bounds the sum of an order's lines: an order's most lines of MaxQuantity
	// units at MaxAmount would pass it a thousand times over.
	MaxOrderSubtotal = 1_000_000_000_000_000
	// MaxWeight bounds one unit's weight, in its weight unit.
	MaxWeight = 1_000_000_000
	// MaxInventory bounds a variant's stock.
	MaxInventory = 1_000_000_000
	// MaxVariants bounds the variants of one product.
	MaxVariants = 1_000
	// MaxTaxZones bounds a shop's tax zones: each taxes at most the whole amount, so the taxes of
	// an order stay below MaxTaxZones times its subtotal and shipping.
	MaxTaxZones = 1_000
	// MaxMapEntries bounds the entries of a map of text a caller sends (line item properties,
	// cart parameters, note attributes) and MaxListEntries the items of a list of text (tags).
	MaxMapEntries  = 100
	MaxListEntries = 100
	// MaxObjectBytes bounds a free-form JSON object a caller sends (capture_data,
	// refund_meta_data, extra_payment_data), encoded.
	MaxObjectBytes = 16 << 10
)

// CheckedSum adds amounts, and remembers instead of wrapping when a sum would leave an int64.
type CheckedSum struct {
	Value    int64
	Overflow bool
}

// Add adds x.
func (c *CheckedSum) Add(x int64) {
	s := c.Value + x
	if (x > 0 && s < c.Value) || (x < 0 && s > c.Value) {
		c.Overflow = true
		return
	}
	c.Value = s
}

// LineTotal is price times quantity, and false when it would leave an int64.
func LineTotal(price int64, quantity int) (int64, bool) {
	q := int64(quantity)
	if price < 0 || q < 0 || (q != 0 && price > math.MaxInt64/q) {
		return 0, false
	}
	return price * q, true
}

// AmountOutOfBounds reports whether a amount is negative or above MaxAmount.
func AmountOutOfBounds(a int64) bool { return a < 0 || a > MaxAmount }

// AmountBoundText is the problem an out-of-bounds amount is reported with.
var AmountBoundText = fmt.Sprintf("must be between 0 and %d (minor units)", MaxAmount)
