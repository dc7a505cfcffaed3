package checkout

import (
	"context"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// CancelInput is a cancellation: its reason, and whether captured money goes back too.
type CancelInput struct {
	Reason string `json:"reason"`
	Refund bool   `json:"refund"`
}

// CancelResult is the cancelled order with the voids and refunds the cancellation made.
type CancelResult struct {
	View   *orders.OrderView
	Voids  []MoneyTransaction
	Refund *RefundResult
}

// CancelOrder cancels an open or processed order: open authorizations are voided, captures are
// refunded when asked, stock and discount uses are given back, and order/failed is recorded
// with the reason (a cancelled order is an unsuccessful one for subscribers).
func (s *Service) CancelOrder(ctx context.Context, sess *orders.OrderSession, in CancelInput, operationKey string) (*CancelResult, error) {
	if strings.TrimSpace(in.Reason) == "" {
		return nil, captureError("order.cancel_reason_required", "reason is required", map[string]any{"field": "reason"})
	}
	if input.TooLong(in.Reason, input.MaxLongText) {
		return nil, input.TextTooLong("reason", input.MaxLongText)
	}
	var (
		voids     []*ent.PaymentTransaction
		cancelled int
	)
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.orders.LockSessionOrder(ctx, tx, sess, order.StatusOpen, order.StatusProcessed, order.StatusCancelled)
		if err != nil {
			return err
		}
		cancelled = o.ID
		ledger, err := payment.LedgerOf(ctx, tx.Client(), o.ID)
		if err != nil {
			return err
		}
		if o.Status == order.StatusCancelled {
			if voids = payment.OperationEntries(ledger, operationKey, paymenttransaction.KindVoid); len(voids) > 0 {
				return nil // a repeat of this call: resume its voids
			}
			return orders.OrderNotInState(o)
		}
		for _, lp := range ledger {
			if left := lp.Money.Capturable(); left > 0 {
				e, err := s.reserveMove(ctx, tx, sess.Shop, o, plannedMove{lp: lp, amount: left}, paymenttransaction.KindVoid, operationKey, map[string]any{"reason": in.Reason})
				if err != nil {
					return err
				}
				if lp.Payment.GiftCardID != nil {
					// The uncaptured part of a gift card's debit goes back to the card.
					if err := tx.GiftCard.UpdateOneID(*lp.Payment.GiftCardID).AddBalance(left).Exec(ctx); err != nil {
						return err
					}
				}
				if err := s.ledger.SetReference(ctx, tx.Client(), e, lp.Payment.AuthorizationID); err != nil {
					return err
				}
				voids = append(voids, e)
			}
		}
		if o.Reserved {
			v, err := s.orders.ViewOf(ctx, tx.Client(), sess.Shop, o, nil)
			if err != nil {
				return err
			}
			if err := s.releaseReservation(ctx, tx, v); err != nil {
				return err
			}
		}
		o, err = tx.Order.UpdateOne(o).SetStatus(order.StatusCancelled).SetReserved(false).AddVersion(1).Save(ctx)
		if err != nil {
			return err
		}
		return s.orders.RecordOrderEvent(ctx, tx, sess.Shop, o, platform.TopicOrderFailed, map[string]any{"reason": "cancelled", "cancel_reason": in.Reason})
	})
	if err != nil {
		return nil, err
	}
	s.orders.ForgetKeptOrder(cancelled)
	for _, e := range voids {
		if e.Status == paymenttransaction.StatusPending || e.Status == paymenttransaction.StatusUnknown {
			s.sendReservedVoid(ctx, sess, e)
		}
	}
	out := &CancelResult{Voids: []MoneyTransaction{}}
	if in.Refund {
		res, err := s.Refund(ctx, sess, CaptureScope{Full: true}, RefundInput{Reason: in.Reason}, operationKey)
		if err != nil {
			if e, ok := problem.As(err); !ok || e.Type != "refund.nothing_to_refund" {
				return nil, err
			}
		}
		out.Refund = res
	}
	o, err := s.orders.SessionOrder(ctx, sess)
	if err != nil {
		return nil, err
	}
	ledger, err := payment.LedgerOf(ctx, s.p.DB.Read, o.ID)
	if err != nil {
		return nil, err
	}
	for _, lp := range ledger {
		for _, e := range lp.Entries {
			if e.Kind == paymenttransaction.KindVoid && e.OperationKey == operationKey {
				out.Voids = append(out.Voids, moneyTransaction(lp.Payment, e))
			}
		}
	}
	if out.View, err = s.orders.LoadOrder(ctx, sess.Shop, sess.PublicOrderID()); err != nil {
		return nil, err
	}
	return out, nil
}

// sendReservedVoid sends a void the cancellation reserved, through its payment's gateway.
func (s *Service) sendReservedVoid(ctx context.Context, sess *orders.OrderSession, e *ent.PaymentTransaction) {
	p, err := s.p.DB.Read.OrderPayment.Get(ctx, e.PaymentID)
	if err != nil {
		s.p.Log.ErrorContext(ctx, "void: reading the payment", "error", err)
		return
	}
	g, _, err := s.gatewayOfPayment(ctx, sess.Shop, p)
	if err != nil {
		s.settle(ctx, e, "", 0, &gateway.Error{Declined: true, Code: "gateway_not_configured", Message: err.Error()}, paymenttransaction.StatusFailed)
		return
	}
	if err := s.sendVoid(ctx, g, e); err != nil {
		s.p.Log.WarnContext(ctx, "a void's answer was lost; the sweep sends it again", "entry", e.PublicID, "error", err)
	}
}
