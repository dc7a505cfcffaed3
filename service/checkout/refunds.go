package checkout

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
)

// RefundInput is the spec's refund request, plus the lines being returned.
type RefundInput struct {
	Reason            string         `json:"reason"`
	EmailNotification bool           `json:"email_notification"`
	RefundMetaData    map[string]any `json:"refund_meta_data"`
	// Amount is required for arbitrary-amount and specific-payment refunds.
	Amount *int64 `json:"amount"`
	// LineItems are returned to stock (the spec's restock of returned items).
	LineItems []RestockLine `json:"line_items"`
}

// check bounds the refund's texts and its restock lines: each line at most once.
func (in RefundInput) check() error {
	p := input.Problems{}
	p.Text("reason", in.Reason, input.MaxLongText)
	p.Object("refund_meta_data", in.RefundMetaData)
	if len(in.LineItems) > orders.MaxLineItems {
		p.Add("line_items", fmt.Sprintf("has more than %d lines", orders.MaxLineItems))
	}
	seen := make(map[string]bool, len(in.LineItems))
	for _, l := range in.LineItems {
		if seen[l.LineItemKey] {
			p.Add("line_items", "names line "+l.LineItemKey+" more than once")
		}
		seen[l.LineItemKey] = true
	}
	if len(p) > 0 {
		d := p.Details()
		for k := range p {
			d["field"] = k
		}
		return captureError("refund.invalid_refund", "invalid refund: "+p.Message(), d)
	}
	return nil
}

// RestockLine is a quantity of one line returned to stock.
type RestockLine struct {
	LineItemKey string `json:"line_item_key"`
	Quantity    int    `json:"quantity"`
}

// RefundResult is the spec's refund result. Partial: some refunds succeeded and others did not
// (207); Pending: a gateway's answer is not known yet (202). Its JSON is all of it, as an
// idempotent call keeps it; REST answers the spec's three fields.
type RefundResult struct {
	AmountRefunded     int64               `json:"amount_refunded"`
	TransactionDetails []RefundTransaction `json:"transaction_details"`
	EmailSent          bool                `json:"email_sent"`
	Partial            bool                `json:"partial"`
	Pending            bool                `json:"pending"`
}

// Final is false while a refund is pending: an idempotent repeat then resumes it.
func (r *RefundResult) Final() bool { return !r.Pending }

// RefundTransaction is one refund of a refund result.
type RefundTransaction struct {
	Success           bool   `json:"success"`
	Amount            int64  `json:"amount"`
	TransactionNumber string `json:"transaction_number"`
	CreatedAt         string `json:"created_at"`
	PaymentID         string `json:"payment_id"`
	Status            string `json:"status"`
}

// refundableCapture is one settled capture and what of it can still be refunded.
type refundableCapture struct {
	lp         payment.Payment
	capture    *ent.PaymentTransaction
	refundable int64
}

// refundOrder is the order a refund is spread in, documented in docs/payments.md: card
// captures before gift cards (money goes back where it is hardest to spend again), and within
// each the newest capture first.
func refundOrder(ledger []payment.Payment) []refundableCapture {
	var out []refundableCapture
	for _, lp := range ledger {
		for _, c := range lp.Entries {
			if c.Kind != paymenttransaction.KindCapture || c.Status != paymenttransaction.StatusSucceeded {
				continue
			}
			left := c.Amount
			for _, r := range lp.Entries {
				if r.Kind == paymenttransaction.KindRefund && r.ReferenceTransactionID == c.GatewayTransactionID && r.Status != paymenttransaction.StatusFailed {
					left -= r.Amount
				}
			}
			if left > 0 {
				out = append(out, refundableCapture{lp: lp, capture: c, refundable: left})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b refundableCapture) int {
		ga, gb := a.lp.Payment.GiftCardID != nil, b.lp.Payment.GiftCardID != nil
		if ga != gb {
			if ga {
				return 1
			}
			return -1
		}
		return b.capture.ID - a.capture.ID
	})
	return out
}

// Refund returns captured money of a processed (or cancelled) order: all of it including
// shipping and taxes (scope.Full), an amount spread over the captures, or an amount of one
// payment; never more than was captured and not yet refunded.
func (s *Service) Refund(ctx context.Context, sess *orders.OrderSession, scope CaptureScope, in RefundInput, operationKey string) (*RefundResult, error) {
	if !scope.Full && (in.Amount == nil || *in.Amount <= 0 || *in.Amount > input.MaxAmount) {
		return nil, captureError("refund.invalid_amount", amountRequired, map[string]any{"field": "amount"})
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	var entries []*ent.PaymentTransaction
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.orders.LockSessionOrder(ctx, tx, sess, order.StatusProcessed, order.StatusCancelled)
		if err != nil {
			return err
		}
		ledger, err := payment.LedgerOf(ctx, tx.Client(), o.ID)
		if err != nil {
			return err
		}
		if entries = payment.OperationEntries(ledger, operationKey, paymenttransaction.KindRefund); len(entries) > 0 {
			return nil
		}
		if scope.PaymentID != "" && !slices.ContainsFunc(ledger, func(lp payment.Payment) bool { return lp.Payment.PublicID == scope.PaymentID }) {
			return captureError("refund.payment_not_found", "the order has no payment "+scope.PaymentID, map[string]any{"field": "payment_id"})
		}
		captures := refundOrder(ledger)
		if scope.PaymentID != "" {
			captures = slices.DeleteFunc(captures, func(c refundableCapture) bool { return c.lp.Payment.PublicID != scope.PaymentID })
		}
		var refundable int64
		for _, c := range captures {
			refundable += c.refundable
		}
		amount := refundable
		if !scope.Full {
			amount = *in.Amount
		}
		if refundable == 0 {
			return captureError("refund.nothing_to_refund", "nothing captured is left to refund", map[string]any{"refundable": 0})
		}
		if amount > refundable {
			return captureError("refund.exceeds_captured", fmt.Sprintf("%d is more than the %d captured and not yet refunded", amount, refundable),
				map[string]any{"field": "amount", "refundable": refundable})
		}
		if err := s.restock(ctx, tx, sess.Shop, o, in.LineItems); err != nil {
			return err
		}
		data := map[string]any{"reason": in.Reason, "refund_meta_data": in.RefundMetaData}
		for _, c := range captures {
			take := min(amount, c.refundable)
			if take == 0 {
				break
			}
			amount -= take
			e, err := s.reserveMove(ctx, tx, sess.Shop, o, plannedMove{lp: c.lp, amount: take}, paymenttransaction.KindRefund, operationKey, data)
			if err != nil {
				return err
			}
			if err := s.ledger.SetReference(ctx, tx.Client(), e, c.capture.GatewayTransactionID); err != nil {
				return err
			}
			entries = append(entries, e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Status == paymenttransaction.StatusPending || e.Status == paymenttransaction.StatusUnknown {
			s.sendRefund(ctx, sess, e, in.Reason)
		}
	}
	res, err := s.refundResult(ctx, sess, operationKey)
	if err != nil {
		return nil, err
	}
	if in.EmailNotification && res.AmountRefunded > 0 {
		res.EmailSent = s.orders.EmailRefund(ctx, sess, res.AmountRefunded)
	}
	return res, nil
}

func (s *Service) sendRefund(ctx context.Context, sess *orders.OrderSession, e *ent.PaymentTransaction, reason string) {
	p, err := s.p.DB.Read.OrderPayment.Get(ctx, e.PaymentID)
	if err != nil {
		s.p.Log.ErrorContext(ctx, "refund: reading the payment", "error", err)
		return
	}
	g, _, err := s.gatewayOfPayment(ctx, sess.Shop, p)
	if err != nil {
		s.settle(ctx, e, "", 0, &gateway.Error{Declined: true, Code: "gateway_not_configured", Message: err.Error()}, paymenttransaction.StatusFailed)
		return
	}
	req := gateway.RefundRequest{TransactionID: e.ReferenceTransactionID, Amount: e.Amount, Reason: reason}
	start := time.Now()
	var res gateway.TransactionResponse
	var accepted bool
	err = askTwice(ctx, func(ctx context.Context) (err error) {
		res, accepted, err = s.gateways.Refund(ctx, g, e.PublicID, req)
		return err
	})
	if accepted {
		s.markAccepted(ctx, e, res.TransactionID, e.ReferenceTransactionID, time.Since(start))
		return
	}
	s.settle(ctx, e, res.TransactionID, time.Since(start), err, ledgerStatus(err))
}

func (s *Service) refundResult(ctx context.Context, sess *orders.OrderSession, operationKey string) (*RefundResult, error) {
	o, err := s.orders.SessionOrder(ctx, sess)
	if err != nil {
		return nil, err
	}
	ledger, err := payment.LedgerOf(ctx, s.p.DB.Read, o.ID)
	if err != nil {
		return nil, err
	}
	out := &RefundResult{TransactionDetails: []RefundTransaction{}}
	byID := map[int]*ent.OrderPayment{}
	for _, lp := range ledger {
		byID[lp.Payment.ID] = lp.Payment
	}
	failed := 0
	for _, e := range payment.OperationEntries(ledger, operationKey, paymenttransaction.KindRefund) {
		mt := moneyTransaction(byID[e.PaymentID], e)
		out.TransactionDetails = append(out.TransactionDetails, RefundTransaction{Success: e.Status == paymenttransaction.StatusSucceeded,
			Amount: e.Amount, TransactionNumber: e.GatewayTransactionID, CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339),
			PaymentID: mt.PaymentID, Status: mt.Status})
		switch e.Status {
		case paymenttransaction.StatusSucceeded:
			out.AmountRefunded += e.Amount
		case paymenttransaction.StatusFailed:
			failed++
		default:
			out.Pending = true
		}
	}
	if failed > 0 && out.AmountRefunded == 0 && !out.Pending {
		return nil, captureError("refund.failed", "the payment gateway refused the refund", map[string]any{"transaction_details": out.TransactionDetails})
	}
	out.Partial = failed > 0
	return out, nil
}

// restock puts returned quantities back into the catalog and records, for the platform
// connector, what came back. A line returns at most the units sold on it, over all refunds:
// each line counts what it has returned.
func (s *Service) restock(ctx context.Context, tx *ent.Tx, sh *ent.Shop, o *ent.Order, lines []RestockLine) error {
	if len(lines) == 0 {
		return nil
	}
	returned := []map[string]any{}
	for _, l := range lines {
		li, err := tx.LineItem.Query().Where(lineitem.OrderID(o.ID), lineitem.LineItemKey(l.LineItemKey)).Only(ctx)
		if ent.IsNotFound(err) {
			return orders.LineNotFound(l.LineItemKey)
		}
		if err != nil {
			return err
		}
		if left := li.Quantity - li.RestockedQuantity; l.Quantity < 1 || l.Quantity > left {
			return captureError("refund.invalid_restock",
				fmt.Sprintf("restock quantity of %s must be between 1 and %d: %d of its %d units were returned already", l.LineItemKey, left, li.RestockedQuantity, li.Quantity),
				map[string]any{"field": "line_items", "line_item_key": l.LineItemKey, "returnable": left})
		}
		if err := tx.LineItem.Update().Where(lineitem.ID(li.ID)).AddRestockedQuantity(l.Quantity).Exec(ctx); err != nil {
			return err
		}
		if li.VariantID != "" {
			if err := s.catalog.Release(ctx, tx, sh.ID, li.VariantID, l.Quantity); err != nil {
				return err
			}
		}
		returned = append(returned, map[string]any{"line_item_key": li.LineItemKey, "variant_id": li.VariantID, "sku": li.Sku, "quantity": l.Quantity})
	}
	// The lines changed: the version moves, so that no process answers with lines kept from before.
	if err := tx.Order.Update().Where(order.ID(o.ID)).AddVersion(1).Exec(ctx); err != nil {
		return err
	}
	return tx.Event.Create().SetShopID(sh.ID).SetOrderID(o.ID).SetEventID(platform.NewPublicID()).SetTopic(platform.TopicConnectorRestock).
		SetPayload(map[string]any{"public_order_id": o.PublicOrderID, "line_items": returned}).SetCreatedAt(s.p.Clock()).Exec(ctx)
}
