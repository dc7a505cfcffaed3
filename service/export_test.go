package service

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/checkoutd/checkoutd/ent"
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

// RecordEventAndRollBack records an order event in a transaction that then fails, as a change
// that is refused after its event was written.
func (s *Service) RecordEventAndRollBack(ctx context.Context, sess *OrderSession) error {
	return s.inTx(ctx, func(tx *ent.Tx) error {
		if err := s.recordOrderEvent(ctx, tx, sess.Shop, sess.Order, TopicOrderFailed, nil); err != nil {
			return err
		}
		return errors.New("the change is refused")
	})
}

// RecordOrderEvent records an order event of topic in a transaction of its own.
func (s *Service) RecordOrderEvent(ctx context.Context, sess *OrderSession, topic string) error {
	return s.inTx(ctx, func(tx *ent.Tx) error {
		return s.recordOrderEvent(ctx, tx, sess.Shop, sess.Order, topic, nil)
	})
}

// IssueOrderJWT signs a storefront token for any public order id, existing or not.
func (s *Service) IssueOrderJWT(sh *ent.Shop, publicOrderID string) (string, error) {
	return s.issueOrderJWT(sh, publicOrderID)
}

// FieldChanges counts the changes of orders' own rows made on the path given: "kept" or "locked".
func (s *Service) FieldChanges(path string) int {
	return int(testutil.ToFloat64(s.metrics.fieldChanges.WithLabelValues(path)))
}
