package checkout

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/orders"
)

// A payment only verified at process_order (the shop's verify_payments_only: step
// awaitingPreAuth) is charged by Capture Specific Payment: its capture is reserved with an
// authorization of the same amount under the same operation (reserveMove), the authorization is
// asked for with the token the gateway retained, then the capture is sent. All or nothing: an
// authorization refused fails the capture, and a capture refused voids the authorization; either
// way the payment is awaitingPreAuth again, to be charged by another call.

// chargeAuthorization is the authorization reserved with capture e, which charges a verified
// payment; nil for any other capture. It was opened just before e, under e's operation key
// (a re-authorization of the capture's is opened after it).
func (s *Service) chargeAuthorization(ctx context.Context, e *ent.PaymentTransaction) (*ent.PaymentTransaction, error) {
	auth, err := s.p.DB.Read.PaymentTransaction.Query().Where(paymenttransaction.PaymentID(e.PaymentID),
		paymenttransaction.OperationKey(e.OperationKey), paymenttransaction.KindEQ(paymenttransaction.KindAuthorize),
		paymenttransaction.IDLT(e.ID)).Order(ent.Desc(paymenttransaction.FieldID)).First(ctx)
	if ent.IsNotFound(err) || e.OperationKey == "" {
		return nil, nil
	}
	return auth, err
}

// authorizeCharge authorizes the charge of verified payment p that capture e makes, and answers
// the authorization's id. When the gateway refuses, the capture fails with its reason; when its
// answer is lost, the capture stays pending and is asked again, under the same keys, by whoever
// follows it up. It reports false when the capture is not to be sent now.
func (s *Service) authorizeCharge(ctx context.Context, sess *orders.OrderSession, p *ent.OrderPayment, e *ent.PaymentTransaction, g gateway.Gateway) (string, bool) {
	ctx = context.WithoutCancel(ctx)
	auth, err := s.chargeAuthorization(ctx, e)
	if err != nil || auth == nil {
		s.p.Log.ErrorContext(ctx, "charge: the authorization of a verified payment's capture is missing", "entry", e.PublicID, "error", err)
		s.settle(ctx, e, "", 0, &gateway.Error{Declined: true, Code: "not_authorized", Message: "the payment is only verified and has no authorization"}, paymenttransaction.StatusFailed)
		return "", false
	}
	switch auth.Status {
	case paymenttransaction.StatusSucceeded:
		return auth.GatewayTransactionID, true
	case paymenttransaction.StatusFailed:
		s.settle(ctx, e, "", 0, &gateway.Error{Declined: true, Code: auth.ErrorCode, Message: auth.ErrorMessage}, paymenttransaction.StatusFailed)
		return "", false
	}
	o, err := s.p.DB.Read.Order.Get(ctx, p.OrderID)
	if err != nil {
		return "", false
	}
	req := gateway.AuthRequest{Token: p.Token, Amount: auth.Amount, Currency: auth.Currency, OrderID: o.PublicOrderID,
		BillingAddress: o.BillingAddress, ShippingAddress: o.ShippingAddress}
	start := time.Now()
	var res gateway.AuthResponse
	err = askTwice(ctx, func(ctx context.Context) (err error) {
		res, err = s.gateways.Authorize(ctx, g, auth.PublicID, req)
		return err
	})
	if err == nil && (res.RequiresAction || res.AuthorizationID == "") {
		// The shopper is not there to act: the charge is refused as the gateway asked.
		err = &gateway.Error{Declined: true, Code: "requires_action", Message: "the gateway asks the shopper to act before it authorizes"}
	}
	if err != nil {
		status := ledgerStatus(err)
		s.settle(ctx, auth, "", time.Since(start), err, status)
		if status == paymenttransaction.StatusFailed {
			s.settle(ctx, e, "", 0, err, paymenttransaction.StatusFailed)
		}
		return "", false
	}
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		if err := s.ledger.Settle(ctx, tx, auth, res.AuthorizationID, time.Since(start), nil, paymenttransaction.StatusSucceeded); err != nil {
			return err
		}
		if err := s.ledger.SetReference(ctx, tx.Client(), e, res.AuthorizationID); err != nil {
			return err
		}
		return tx.OrderPayment.Update().Where(orderpayment.ID(p.ID), orderpayment.StatusEQ(orderpayment.StatusVerified)).
			SetStatus(orderpayment.StatusAuthorized).SetStep(StepPreAuthed).SetAuthorizationID(res.AuthorizationID).Exec(ctx)
	})
	if err != nil {
		// The gateway granted it: the next follow-up finds the entry pending and asks again.
		s.p.Log.ErrorContext(ctx, "charge: recording an authorization failed", "entry", auth.PublicID, "error", err)
		return "", false
	}
	return res.AuthorizationID, true
}

// undoCharge runs when capture e was refused: if it was the charge of a verified payment, the
// authorization granted for it is voided and the payment is awaitingPreAuth again.
func (s *Service) undoCharge(ctx context.Context, sess *orders.OrderSession, p *ent.OrderPayment, e *ent.PaymentTransaction, g gateway.Gateway) {
	ctx = context.WithoutCancel(ctx)
	auth, err := s.chargeAuthorization(ctx, e)
	if err != nil || auth == nil || auth.Status != paymenttransaction.StatusSucceeded {
		return
	}
	o, err := s.p.DB.Read.Order.Get(ctx, p.OrderID)
	if err != nil {
		s.p.Log.ErrorContext(ctx, "charge: reading the order to void its authorization", "error", err)
		return
	}
	if err := s.voidAuthorization(ctx, sess.Shop, o, p, auth, g, auth.GatewayTransactionID); err != nil {
		s.p.Log.ErrorContext(ctx, "charge: voiding the authorization of a refused capture failed; the recovery sweep retries it", "error", err)
	}
	err = s.p.DB.Client.OrderPayment.Update().Where(orderpayment.ID(p.ID), orderpayment.StatusEQ(orderpayment.StatusAuthorized)).
		SetStatus(orderpayment.StatusVerified).SetStep(StepAwaitingPreAuth).SetAuthorizationID("").Exec(ctx)
	if err != nil {
		s.p.Log.ErrorContext(ctx, "charge: returning a payment to awaitingPreAuth failed", "payment", p.PublicID, "error", err)
	}
}
