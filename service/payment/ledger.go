// Package payment is the payment domain's ledger: every movement of money an order's payments
// go through (authorize, capture, refund, void), as entries written before the gateway is called
// and settled with its answer. It is the only writer of payment_transactions.
package payment

import (
	"context"
	"slices"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
)

// Money is one payment's money, derived from its ledger entries and never stored.
// Entries whose outcome is not known yet (pending, unknown) hold their amount: a capture that
// may have happened cannot be captured again, a refund that may have happened cannot be refunded
// again.
type Money struct {
	Authorized     int64
	Captured       int64
	CapturePending int64
	Refunded       int64
	RefundPending  int64
	// Closed: the authorization was voided, or fully used by a capture that did not hold it open.
	Closed bool
}

func (m Money) Capturable() int64 {
	if m.Closed {
		return 0
	}
	return max(0, m.Authorized-m.Captured-m.CapturePending)
}

func (m Money) Refundable() int64 { return max(0, m.Captured-m.Refunded-m.RefundPending) }

func MoneyOf(entries []*ent.PaymentTransaction) Money {
	var m Money
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

// Payment is one payment of a processed order that holds or may hold money (authorized,
// verified or voided), with its ledger.
type Payment struct {
	Payment *ent.OrderPayment
	Entries []*ent.PaymentTransaction
	Money   Money
}

// LedgerOf reads the payments that hold money on the order, with their ledgers, in tender
// order, through c (a transaction's client inside one).
func LedgerOf(ctx context.Context, c *ent.Client, orderID int) ([]Payment, error) {
	payments, err := c.OrderPayment.Query().Where(orderpayment.OrderID(orderID),
		orderpayment.StatusIn(orderpayment.StatusAuthorized, orderpayment.StatusVerified, orderpayment.StatusVoided)).
		WithTransactions(func(q *ent.PaymentTransactionQuery) { q.Order(paymenttransaction.ByID()) }).
		Order(orderpayment.ByPosition(), orderpayment.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Payment, 0, len(payments))
	for _, p := range payments {
		out = append(out, Payment{Payment: p, Entries: p.Edges.Transactions, Money: MoneyOf(p.Edges.Transactions)})
	}
	return out, nil
}

// OrderMoney is what has moved on an order, summed from its ledger.
type OrderMoney struct {
	Authorized, Captured, CapturePending, Refunded, RefundPending int64
}

func SumMoney(ledger []Payment) OrderMoney {
	var m OrderMoney
	for _, lp := range ledger {
		if lp.Money.Closed {
			m.Authorized += lp.Money.Captured + lp.Money.CapturePending
		} else {
			m.Authorized += lp.Money.Authorized
		}
		m.Captured += lp.Money.Captured
		m.CapturePending += lp.Money.CapturePending
		m.Refunded += lp.Money.Refunded
		m.RefundPending += lp.Money.RefundPending
	}
	return m
}

// OperationEntries are the ledger entries one call (one idempotency key) wrote, oldest first.
func OperationEntries(ledger []Payment, operationKey string, kinds ...paymenttransaction.Kind) []*ent.PaymentTransaction {
	var out []*ent.PaymentTransaction
	for _, lp := range ledger {
		for _, e := range lp.Entries {
			if e.OperationKey == operationKey && slices.Contains(kinds, e.Kind) {
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b *ent.PaymentTransaction) int { return a.ID - b.ID })
	return out
}
