package model

import (
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/orders"
)

// The answers of the checks and estimates that leave the order unchanged: what was found, and
// the order as it stands (REST answers it as application_state beside them).

// DiscountCodeCheck is a code that would apply to the order: what REST answers of it.
type DiscountCodeCheck struct {
	Code string
	Text string
	Kind discountcode.Kind
	View *orders.OrderView
}

// InventoryCheck is an inventory check's finding.
type InventoryCheck struct {
	orders.InventoryCheck
	View *orders.OrderView
}

// ShippingLinesEstimate is the shipping lines an address would get.
type ShippingLinesEstimate struct {
	ShippingLines []schema.ShippingLine
	View          *orders.OrderView
}

// WalletPayResult is a wallet pay step's payment data.
type WalletPayResult struct {
	PaymentData map[string]any
	View        *orders.OrderView
}
