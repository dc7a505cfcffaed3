package orders

import (
	"context"

	"github.com/checkoutd/checkoutd/service/problem"
)

// Wallet pay steps the frontend library calls: create the wallet's order, answer its shipping
// changes, and take its approval.
const (
	WalletPayCreateOrder = "create_order"
	WalletPayOnShipping  = "on_shipping"
	WalletPayOnApprove   = "on_approve"
)

// WalletPayInput is a wallet pay call as the frontend library sends it.
type WalletPayInput struct {
	GatewayType string         `json:"gateway_type"`
	GatewayID   *int           `json:"gateway_id"`
	PaymentData map[string]any `json:"payment_data"`
}

// WalletPay runs one wallet pay step and answers the wallet's payment_data with the order.
// Wallets (PayPal, Apple Pay, Google Pay) need a gateway that speaks their protocol, and
// checkoutd's gateways are external payment gateways only, so no shop has a wallet gateway: every
// step is refused with a type a storefront can recognize and fall back from.
func (s *Service) WalletPay(ctx context.Context, sess *OrderSession, step string, in WalletPayInput) (map[string]any, *OrderView, error) {
	return nil, nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "wallet_pay.not_configured",
		Message: "no wallet pay gateway is configured for this shop; pay with an external payment gateway",
		Details: map[string]any{"field": "gateway_type", "gateway_type": in.GatewayType, "step": step}}
}

// DeleteSavedPaymentMethod forgets a saved payment method of the order's customer. checkoutd
// does not vault payment methods (init answers vaulting_enabled false), so there is never one to
// forget.
func (s *Service) DeleteSavedPaymentMethod(ctx context.Context, sess *OrderSession, id string) (*OrderView, error) {
	return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "saved_payment_method.not_found",
		Message: "no saved payment method " + id + ": payment methods are not vaulted",
		Details: map[string]any{"field": "id", "id": id}}
}
