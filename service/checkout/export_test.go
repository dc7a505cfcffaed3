package checkout

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/orders"
)

// CrashAfterGatewayGrant runs process_order up to the point where the gateway has granted the
// first tender's authorization, and stops before checkoutd records the answer: the state a
// crash at the worst moment leaves behind.
func (s *Service) CrashAfterGatewayGrant(ctx context.Context, sess *orders.OrderSession) error {
	r, err := s.reserveForProcessing(ctx, sess)
	if err != nil {
		return err
	}
	view, t := r.view, r.tenders[0]
	_, err = s.gateways.Authorize(ctx, t.gateway, t.entry.PublicID, gateway.AuthRequest{
		Token: t.payment.Token, Amount: t.payment.Amount, Currency: t.payment.Currency, OrderID: view.Order.PublicOrderID})
	return err
}

// ProcessCompletions counts process_order's last transactions made on the path given:
// "reserved" or "locked".
func (s *Service) ProcessCompletions(path string) int {
	return int(testutil.ToFloat64(s.processCompletions.WithLabelValues(path)))
}

// ProcessOrderWithTheVersionMovedOnBeforeCompletion is process_order with the order's version
// moved on (as a change in another process would) between authorizing its payments and its
// last transaction.
func (s *Service) ProcessOrderWithTheVersionMovedOnBeforeCompletion(ctx context.Context, sess *orders.OrderSession) (*orders.OrderView, error) {
	r, err := s.reserveForProcessing(ctx, sess)
	if err != nil {
		return nil, err
	}
	outcome := s.authorizeTendersSettlingLater(ctx, r.view, r.tenders)
	if outcome.failed != nil || outcome.requiresAction != nil {
		return nil, errors.New("a tender was not authorized")
	}
	if err := s.p.DB.Client.Order.UpdateOneID(r.order.ID).AddVersion(1).Exec(ctx); err != nil {
		return nil, err
	}
	return s.completeProcessing(ctx, sess.Shop, r, outcome)
}
