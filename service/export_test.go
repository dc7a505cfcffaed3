package service

import (
	"context"

	"github.com/checkoutd/checkoutd/service/gateway"
)

// CrashAfterGatewayGrant runs process_order up to the point where the gateway has granted the
// first tender's authorization, and stops before checkoutd records the answer: the state a
// crash at the worst moment leaves behind.
func (s *Service) CrashAfterGatewayGrant(ctx context.Context, sess *OrderSession) error {
	view, tenders, err := s.reserveForProcessing(ctx, sess)
	if err != nil {
		return err
	}
	t := tenders[0]
	_, err = s.gateways.Authorize(ctx, t.gateway, t.entry.PublicID, gateway.AuthRequest{
		Token: t.payment.Token, Amount: t.payment.Amount, Currency: t.payment.Currency, OrderID: view.Order.PublicOrderID})
	return err
}
