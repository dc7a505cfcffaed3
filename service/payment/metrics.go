package payment

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
)

// moneyMetrics count the money the ledger's entries moved, in the currency's minor units (the
// ledger's own integers: a float64 counter holds them exactly up to 2^53), by currency. Every
// tender counts, gift cards included; an entry counts when it succeeds, once.
type moneyMetrics struct {
	byKind map[paymenttransaction.Kind]*prometheus.CounterVec
}

func newMoneyMetrics(reg prometheus.Registerer) *moneyMetrics {
	counter := func(name, help string) *prometheus.CounterVec {
		c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, []string{"currency"})
		reg.MustRegister(c)
		return c
	}
	return &moneyMetrics{byKind: map[paymenttransaction.Kind]*prometheus.CounterVec{
		paymenttransaction.KindAuthorize: counter("checkoutd_money_authorized_minor_units_total",
			"Money authorized (authorizations granted, gift card debits included), in the currency's minor units, by currency."),
		paymenttransaction.KindCapture: counter("checkoutd_money_captured_minor_units_total",
			"Money captured (captures settled as succeeded), in the currency's minor units, by currency."),
		paymenttransaction.KindRefund: counter("checkoutd_money_refunded_minor_units_total",
			"Money refunded (refunds settled as succeeded), in the currency's minor units, by currency."),
	}}
}

// count adds the money of entry, just succeeded in tx (nil: written already), once tx commits:
// a transaction rolled back moved nothing.
func (l *Ledger) count(tx *ent.Tx, entry *ent.PaymentTransaction) {
	c, ok := l.moved.byKind[entry.Kind]
	if !ok || entry.Amount == 0 {
		return
	}
	add := func() { c.WithLabelValues(entry.Currency).Add(float64(entry.Amount)) }
	if tx == nil {
		add()
		return
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			if err == nil {
				add()
			}
			return err
		})
	})
}
