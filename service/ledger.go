package service

import (
	"context"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
)

// paymentMoney is one payment's money, derived from its ledger entries and never stored.
// Entries whose outcome is not known yet (pending, unknown) hold their amount: a capture that
// may have happened cannot be captured again, a refund that may have happened cannot be refunded
// again.
type paymentMoney struct {
	Authorized     int64
	Captured       int64
	CapturePending int64
	Refunded       int64
	RefundPending  int64
	// Closed: the authorization was voided, or fully used by a capture that did not hold it open.
	Closed bool
}

func (m paymentMoney) capturable() int64 {
	if m.Closed {
		return 0
	}
	return max(0, m.Authorized-m.Captured-m.CapturePending)
}

func (m paymentMoney) refundable() int64 { return max(0, m.Captured-m.Refunded-m.RefundPending) }

func moneyOf(entries []*ent.PaymentTransaction) paymentMoney {
	var m paymentMoney
	for _, e := range entries {
		settled := e.Status == paymenttransaction.StatusSucceeded
		open := e.Status == paymenttransaction.StatusPending || e.Status == paymenttransaction.StatusUnknown
		switch e.Kind {
		case paymenttransaction.KindAuthorize:
			if settled {
				m.Authorized += e.Amount
			}
		case paymenttransaction.KindCapture:
			switch {
			case settled:
				m.Captured += e.Amount
			case open:
				m.CapturePending += e.Amount
			}
		case paymenttransaction.KindRefund:
			switch {
			case settled:
				m.Refunded += e.Amount
			case open:
				m.RefundPending += e.Amount
			}
		case paymenttransaction.KindVoid:
			if settled || open {
				m.Closed = true
			}
		}
	}
	return m
}

// ledgerPayment is one authorized payment of a processed order with its ledger.
type ledgerPayment struct {
	payment *ent.OrderPayment
	entries []*ent.PaymentTransaction
	money   paymentMoney
}

// ledgerOf reads the payments that hold money on the order, with their ledgers, in tender
// order, through c (a transaction's client inside one).
func ledgerOf(ctx context.Context, c *ent.Client, orderID int) ([]ledgerPayment, error) {
	payments, err := c.OrderPayment.Query().Where(orderpayment.OrderID(orderID),
		orderpayment.StatusIn(orderpayment.StatusAuthorized, orderpayment.StatusVoided)).
		WithTransactions(func(q *ent.PaymentTransactionQuery) { q.Order(paymenttransaction.ByID()) }).
		Order(orderpayment.ByPosition(), orderpayment.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]ledgerPayment, 0, len(payments))
	for _, p := range payments {
		out = append(out, ledgerPayment{payment: p, entries: p.Edges.Transactions, money: moneyOf(p.Edges.Transactions)})
	}
	return out, nil
}

// OrderMoney is what has moved on an order, summed from its ledger.
type OrderMoney struct {
	Authorized, Captured, CapturePending, Refunded, RefundPending int64
}

func sumMoney(ledger []ledgerPayment) OrderMoney {
	var m OrderMoney
	for _, lp := range ledger {
		if lp.money.Closed {
			m.Authorized += lp.money.Captured + lp.money.CapturePending
		} else {
			m.Authorized += lp.money.Authorized
		}
		m.Captured += lp.money.Captured
		m.CapturePending += lp.money.CapturePending
		m.Refunded += lp.money.Refunded
		m.RefundPending += lp.money.RefundPending
	}
	return m
}

// operationEntries are the ledger entries one call (one idempotency key) wrote, oldest first.
func operationEntries(ledger []ledgerPayment, operationKey string, kinds ...paymenttransaction.Kind) []*ent.PaymentTransaction {
	var out []*ent.PaymentTransaction
	for _, lp := range ledger {
		for _, e := range lp.entries {
			if e.OperationKey == operationKey && slices.Contains(kinds, e.Kind) {
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b *ent.PaymentTransaction) int { return a.ID - b.ID })
	return out
}
