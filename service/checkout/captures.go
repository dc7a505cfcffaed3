package checkout

import (
	"context"
	"fmt"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Moving money after processing (captures, refunds, voids at cancel) follows the pattern of
// authorization (authorization.go): one transaction reserves the amounts as pending ledger
// entries under the call's operation key, the gateways are called with no transaction open, and
// each answer is settled at once. A pending or unknown entry holds its amount, so concurrent
// calls can never together capture more than was authorized or refund more than was captured.
// A repeat under the same idempotency key finds its entries by operation key and resumes them.

// CaptureInput is the spec's capture request.
type CaptureInput struct {
	// Reauth (default true) re-authorizes when the authorization was used or has expired.
	Reauth      *bool          `json:"reauth"`
	CaptureData map[string]any `json:"capture_data"`
	// Amount is required for arbitrary-amount and specific-payment captures.
	Amount *int64 `json:"amount"`
}

// CaptureScope says what a capture covers.
type CaptureScope struct {
	Full      bool
	PaymentID string
}

// MoneyTransaction is one ledger entry as capture and refund results show it.
type MoneyTransaction struct {
	Gateway                string  `json:"gateway"`
	GatewayID              string  `json:"gateway_id"`
	PaymentID              string  `json:"payment_id"`
	Amount                 int64   `json:"amount"`
	TransactionID          string  `json:"transaction_id"`
	ReferenceTransactionID *string `json:"reference_transaction_id"`
	ResponseCode           string  `json:"response_code"`
	Status                 string  `json:"status"`
}

// CaptureResult is the spec's capture result; Pending is true while a gateway has accepted a
// capture without settling it (the 202 answer).
type CaptureResult struct {
	OrderTotal        int64              `json:"order_total"`
	AmountRemaining   int64              `json:"amount_remaining"`
	PaidTotal         int64              `json:"paid_total"`
	CapturedHeldTotal int64              `json:"captured_held_total"`
	Transactions      []MoneyTransaction `json:"transactions"`
	Pending           bool               `json:"-"`
}

// Final is false while the capture is pending: an idempotent repeat then resumes it.
func (r *CaptureResult) Final() bool { return !r.Pending }

// Partial reports that some of the call's captures were refused while others went through (a
// call whose captures were all refused is an error, not a result): the transactions say which.
// It is worked out from the transactions, so a replayed result tells it as the first did.
func (r *CaptureResult) Partial() bool {
	for _, t := range r.Transactions {
		if t.Status == "failure" {
			return true
		}
	}
	return false
}

// amountRequired is the problem of a missing or out-of-bounds amount of a capture or refund.
var amountRequired = fmt.Sprintf("amount is required and must be positive, in minor units, at most %d", input.MaxAmount)

func captureError(typ, message string, details map[string]any) *problem.Error {
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: typ, Message: message, Details: details}
}

// plannedMove is one amount to move on one payment.
type plannedMove struct {
	lp     payment.Payment
	amount int64
	// charge: the payment is only verified, and is authorized for the amount before the capture.
	charge bool
}

// Capture captures authorized money of a processed order: all that is left (scope.Full), an
// amount spread over the payments in tender order, or an amount of one payment. A payment only
// verified (awaitingPreAuth) is charged by a capture of that payment: it is authorized for the
// amount, then captured (chargeVerified).
func (s *Service) Capture(ctx context.Context, sess *orders.OrderSession, scope CaptureScope, in CaptureInput, operationKey string) (*CaptureResult, error) {
	if !scope.Full && (in.Amount == nil || *in.Amount <= 0 || *in.Amount > input.MaxAmount) {
		return nil, captureError("capture.invalid_amount", amountRequired, map[string]any{"field": "amount"})
	}
	p := input.Problems{}
	p.Object("capture_data", in.CaptureData)
	if len(p) > 0 {
		return nil, captureError("capture.invalid_capture_data", "invalid capture: "+p.Message(), map[string]any{"field": "capture_data"})
	}
	var entries []*ent.PaymentTransaction
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.orders.LockSessionOrder(ctx, tx, sess, order.StatusProcessed)
		if err != nil {
			return err
		}
		ledger, err := payment.LedgerOf(ctx, tx.Client(), o.ID)
		if err != nil {
			return err
		}
		if entries = payment.OperationEntries(ledger, operationKey, paymenttransaction.KindCapture); len(entries) > 0 {
			return nil // a repeat of this call: resume its entries
		}
		plan, err := planCapture(ledger, scope, in)
		if err != nil {
			return err
		}
		for _, m := range plan {
			e, err := s.reserveMove(ctx, tx, sess.Shop, o, m, paymenttransaction.KindCapture, operationKey, in.CaptureData)
			if err != nil {
				return err
			}
			entries = append(entries, e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	reauth := in.Reauth == nil || *in.Reauth
	for _, e := range entries {
		if e.Status == paymenttransaction.StatusPending || e.Status == paymenttransaction.StatusUnknown {
			s.sendCapture(ctx, sess, e, reauth)
		}
	}
	return s.captureResult(ctx, sess, operationKey)
}

func planCapture(ledger []payment.Payment, scope CaptureScope, in CaptureInput) ([]plannedMove, error) {
	var capturable int64
	candidates := ledger
	if scope.PaymentID != "" {
		candidates = nil
		for _, lp := range ledger {
			if lp.Payment.PublicID == scope.PaymentID {
				candidates = append(candidates, lp)
			}
		}
		if len(candidates) == 0 {
			return nil, captureError("capture.payment_not_found", "the order has no authorized or verified payment "+scope.PaymentID, map[string]any{"field": "payment_id"})
		}
		if lp := candidates[0]; lp.Payment.Status == orderpayment.StatusVerified {
			return planCharge(lp, *in.Amount)
		}
		if lp := candidates[0]; lp.Payment.Status == orderpayment.StatusVoided {
			return nil, captureError("capture.payment_voided", "the payment "+scope.PaymentID+" was voided: nothing of it can be captured",
				map[string]any{"field": "payment_id", "payment_id": scope.PaymentID, "capturable": 0})
		}
	}
	for _, lp := range candidates {
		capturable += lp.Money.Capturable()
	}
	amount := capturable
	if !scope.Full {
		amount = *in.Amount
	}
	if capturable == 0 {
		msg := "nothing authorized is left to capture"
		for _, lp := range candidates {
			if lp.Payment.Status == orderpayment.StatusVerified {
				msg += "; the payments only verified (awaitingPreAuth) are charged one at a time, by a capture of that payment"
				break
			}
		}
		return nil, captureError("capture.nothing_to_capture", msg, map[string]any{"capturable": 0})
	}
	if amount > capturable {
		return nil, captureError("capture.exceeds_authorized", fmt.Sprintf("%d is more than the %d authorized and not yet captured", amount, capturable),
			map[string]any{"field": "amount", "capturable": capturable})
	}
	var plan []plannedMove
	for _, lp := range candidates {
		take := min(amount, lp.Money.Capturable())
		if take == 0 {
			continue
		}
		plan = append(plan, plannedMove{lp: lp, amount: take})
		amount -= take
	}
	return plan, nil
}

// planCharge plans the charge of a payment only verified: amount, at most the payment's own
// (its share of the order total), unless a charge of it is under way or done.
func planCharge(lp payment.Payment, amount int64) ([]plannedMove, error) {
	id := lp.Payment.PublicID
	for _, e := range lp.Entries {
		if e.Kind == paymenttransaction.KindCapture && e.Status != paymenttransaction.StatusFailed {
			return nil, captureError("capture.payment_being_charged", "the payment "+id+" is being charged by another capture",
				map[string]any{"field": "payment_id", "payment_id": id})
		}
	}
	if amount > lp.Payment.Amount {
		return nil, captureError("capture.exceeds_verified", fmt.Sprintf("%d is more than the %d the payment %s was verified for", amount, lp.Payment.Amount, id),
			map[string]any{"field": "amount", "payment_id": id, "capturable": lp.Payment.Amount})
	}
	return []plannedMove{{lp: lp, amount: amount, charge: true}}, nil
}

// reserveMove writes one pending ledger entry; a gift card's capture settles at once (its
// balance moved at authorization), and a gift card's refund credits the card in the same
// transaction.
func (s *Service) reserveMove(ctx context.Context, tx *ent.Tx, sh *ent.Shop, o *ent.Order, m plannedMove, kind paymenttransaction.Kind, operationKey string, data map[string]any) (*ent.PaymentTransaction, error) {
	e := payment.Entry{ShopID: sh.ID, OrderID: o.ID, PaymentID: m.lp.Payment.ID, Kind: kind, Amount: m.amount,
		Currency: m.lp.Payment.Currency, OperationKey: operationKey, Data: data, PublicID: platform.NewPublicID()}
	if m.lp.Payment.GiftCardID != nil {
		// Gift card moves are checkoutd's own: the entry's id is the transaction id.
		e.GatewayTransactionID, e.Settled = e.PublicID, true
		if kind == paymenttransaction.KindRefund {
			if err := tx.GiftCard.UpdateOneID(*m.lp.Payment.GiftCardID).AddBalance(m.amount).Exec(ctx); err != nil {
				return nil, err
			}
		}
	}
	if m.charge {
		// The authorization the charge needs is reserved with the capture, under the same operation:
		// whoever resumes the capture finds it and asks its gateway again under its key.
		if _, err := s.ledger.Open(ctx, tx, payment.Entry{ShopID: sh.ID, OrderID: o.ID, PaymentID: m.lp.Payment.ID,
			Kind: paymenttransaction.KindAuthorize, Amount: m.amount, Currency: m.lp.Payment.Currency, OperationKey: operationKey}); err != nil {
			return nil, err
		}
	}
	if kind == paymenttransaction.KindCapture {
		e.Reference = m.lp.Payment.AuthorizationID
	} else {
		e.Reference = lastCaptureID(m.lp.Entries)
	}
	return s.ledger.Open(ctx, tx, e)
}

func lastCaptureID(entries []*ent.PaymentTransaction) string {
	id := ""
	for _, e := range entries {
		if e.Kind == paymenttransaction.KindCapture && e.Status == paymenttransaction.StatusSucceeded {
			id = e.GatewayTransactionID
		}
	}
	return id
}

func (s *Service) gatewayOfPayment(ctx context.Context, sh *ent.Shop, p *ent.OrderPayment) (gateway.Gateway, *ent.ExternalPaymentGateway, error) {
	g, err := s.p.DB.Read.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(sh.ID), externalpaymentgateway.PublicID(p.GatewayPublicID)).Only(ctx)
	if err != nil {
		return gateway.Gateway{}, nil, err
	}
	return payment.GatewayOf(g), g, nil
}

// authorizationExpired are the gateway codes that say an authorization can no longer be captured.
var authorizationExpired = map[string]bool{"authorization_expired": true, "authorization_used": true, "invalid_authorization": true}

// sendCapture sends one reserved capture and settles it. A 202 leaves it pending: the gateway
// accepted and will settle; the sweep asks again under the same key until it has.
func (s *Service) sendCapture(ctx context.Context, sess *orders.OrderSession, e *ent.PaymentTransaction, reauth bool) {
	p, err := s.p.DB.Read.OrderPayment.Get(ctx, e.PaymentID)
	if err != nil {
		s.p.Log.ErrorContext(ctx, "capture: reading the payment", "error", err)
		return
	}
	g, cfg, err := s.gatewayOfPayment(ctx, sess.Shop, p)
	if err != nil {
		s.settle(ctx, e, "", 0, &gateway.Error{Declined: true, Code: "gateway_not_configured", Message: err.Error()}, paymenttransaction.StatusFailed)
		return
	}
	authID := p.AuthorizationID
	if e.ReferenceTransactionID != "" {
		authID = e.ReferenceTransactionID
	}
	if p.Status == orderpayment.StatusVerified {
		var ok bool
		if authID, ok = s.authorizeCharge(ctx, sess, p, e, g); !ok {
			return
		}
	}
	req := gateway.CaptureRequest{AuthID: authID, Amount: e.Amount, HoldOpen: cfg.PartialCapture}
	start := time.Now()
	var res gateway.TransactionResponse
	var accepted bool
	err = askTwice(ctx, func(ctx context.Context) (err error) {
		res, accepted, err = s.gateways.Capture(ctx, g, e.PublicID, req)
		return err
	})
	var gerr *gateway.Error
	if ge, ok := err.(*gateway.Error); ok {
		gerr = ge
	}
	if gerr != nil && gerr.Declined && reauth && authorizationExpired[gerr.Code] {
		if newAuth, ok := s.reauthorize(ctx, sess, p, e, g); ok {
			req.AuthID = newAuth
			res, accepted, err = s.gateways.Capture(context.WithoutCancel(ctx), g, e.PublicID+"-reauth", req)
		}
	}
	if accepted {
		s.markAccepted(ctx, e, res.TransactionID, req.AuthID, time.Since(start))
		return
	}
	status := ledgerStatus(err)
	s.settleMove(ctx, e, res.TransactionID, req.AuthID, time.Since(start), err, status)
	if status == paymenttransaction.StatusFailed {
		s.undoCharge(ctx, sess, p, e, g)
	}
}

// reauthorize authorizes the capture's amount anew when the old authorization was used or has
// expired (the capture request's reauth), recorded as an authorize entry of its own.
func (s *Service) reauthorize(ctx context.Context, sess *orders.OrderSession, p *ent.OrderPayment, capture *ent.PaymentTransaction, g gateway.Gateway) (string, bool) {
	ctx = context.WithoutCancel(ctx)
	o, err := s.p.DB.Read.Order.Get(ctx, p.OrderID)
	if err != nil {
		return "", false
	}
	entry, err := s.ledger.Open(ctx, nil, payment.Entry{ShopID: sess.Shop.ID, OrderID: p.OrderID, PaymentID: p.ID,
		Kind: paymenttransaction.KindAuthorize, Amount: capture.Amount, Currency: capture.Currency, OperationKey: capture.OperationKey})
	if err != nil {
		return "", false
	}
	start := time.Now()
	res, err := s.gateways.Authorize(ctx, g, entry.PublicID, gateway.AuthRequest{Token: p.Token, Amount: capture.Amount, Currency: capture.Currency,
		OrderID: o.PublicOrderID, BillingAddress: o.BillingAddress, ShippingAddress: o.ShippingAddress})
	if err != nil || res.AuthorizationID == "" {
		s.settle(ctx, entry, "", time.Since(start), err, paymenttransaction.StatusFailed)
		return "", false
	}
	s.settle(ctx, entry, res.AuthorizationID, time.Since(start), nil, paymenttransaction.StatusSucceeded)
	return res.AuthorizationID, true
}

// settleMove settles a capture or refund entry, keeping the reference it was sent with.
func (s *Service) settleMove(ctx context.Context, e *ent.PaymentTransaction, txID, reference string, latency time.Duration, callErr error, status paymenttransaction.Status) {
	s.settle(ctx, e, txID, latency, callErr, status)
	if reference != e.ReferenceTransactionID {
		if err := s.ledger.SetReference(context.WithoutCancel(ctx), s.p.DB.Client, e, reference); err != nil {
			s.p.Log.ErrorContext(ctx, "recording a ledger reference failed", "entry", e.PublicID, "error", err)
		}
	}
}

// markAccepted records a gateway's 202: the entry stays pending, with what the gateway said.
func (s *Service) markAccepted(ctx context.Context, e *ent.PaymentTransaction, txID, reference string, latency time.Duration) {
	err := s.ledger.MarkAccepted(context.WithoutCancel(ctx), s.p.DB.Client, e, txID, reference, latency)
	if err != nil {
		s.p.Log.ErrorContext(ctx, "recording an accepted capture failed", "entry", e.PublicID, "error", err)
	}
}

func moneyTransaction(p *ent.OrderPayment, e *ent.PaymentTransaction) MoneyTransaction {
	gw := p.GatewayPublicID
	if p.GiftCardID != nil {
		gw = orders.TenderGiftCard
	}
	status := map[paymenttransaction.Status]string{paymenttransaction.StatusSucceeded: "success", paymenttransaction.StatusFailed: "failure",
		paymenttransaction.StatusPending: "pending", paymenttransaction.StatusUnknown: "pending"}[e.Status]
	var ref *string
	if e.ReferenceTransactionID != "" {
		r := e.ReferenceTransactionID
		ref = &r
	}
	code := e.ErrorCode
	if code == "" && e.Status == paymenttransaction.StatusSucceeded {
		code = "approved"
	}
	return MoneyTransaction{Gateway: gw, GatewayID: p.GatewayPublicID, PaymentID: p.PublicID, Amount: e.Amount,
		TransactionID: e.GatewayTransactionID, ReferenceTransactionID: ref, ResponseCode: code, Status: status}
}

// captureResult answers a capture call from the ledger: the order's figures and the call's entries.
func (s *Service) captureResult(ctx context.Context, sess *orders.OrderSession, operationKey string) (*CaptureResult, error) {
	v, err := s.orders.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
	if err != nil {
		return nil, err
	}
	ledger, err := payment.LedgerOf(ctx, s.p.DB.Read, v.Order.ID)
	if err != nil {
		return nil, err
	}
	m := payment.SumMoney(ledger)
	out := &CaptureResult{OrderTotal: v.Pricing.Total, PaidTotal: m.Captured - m.Refunded, CapturedHeldTotal: m.CapturePending,
		AmountRemaining: v.Pricing.Total - m.Captured - m.CapturePending, Transactions: []MoneyTransaction{}}
	byID := map[int]*ent.OrderPayment{}
	for _, lp := range ledger {
		byID[lp.Payment.ID] = lp.Payment
	}
	failed := 0
	for _, e := range payment.OperationEntries(ledger, operationKey, paymenttransaction.KindCapture) {
		out.Transactions = append(out.Transactions, moneyTransaction(byID[e.PaymentID], e))
		switch e.Status {
		case paymenttransaction.StatusPending, paymenttransaction.StatusUnknown:
			out.Pending = true
		case paymenttransaction.StatusFailed:
			failed++
		}
	}
	if failed > 0 && failed == len(out.Transactions) {
		if err := s.recordCaptureFailed(ctx, sess, v.Order); err != nil {
			return nil, err
		}
		return nil, captureError("capture.failed", "the payment gateway refused the capture",
			map[string]any{"transactions": out.Transactions, "amount_remaining": out.AmountRemaining})
	}
	return out, nil
}

func (s *Service) recordCaptureFailed(ctx context.Context, sess *orders.OrderSession, o *ent.Order) error {
	return s.p.InTx(context.WithoutCancel(ctx), func(tx *ent.Tx) error {
		return s.orders.RecordOrderEvent(ctx, tx, sess.Shop, o, platform.TopicOrderFailed, map[string]any{"reason": "payment capture failed"})
	})
}
