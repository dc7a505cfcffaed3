package payment

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Ledger writes the ledger's entries: opened before a gateway is called, settled with its
// answer. Open and Settle write in the transaction they are given, or through the service's
// client when it is nil: the money an entry moves is counted once that write is committed. The
// other methods write through the client they are given (a transaction's inside one).
type Ledger struct {
	// client writes outside a transaction.
	client *ent.Client
	clock  func() time.Time
	// owner is this process's lease, which each entry opened carries ("" without one).
	owner func() string
	moved *moneyMetrics
}

// NewLedger returns the ledger of p: settled_at is read from its clock, each entry opened
// carries its process lease, and the money moved is counted in its registry.
func NewLedger(p *platform.Platform) *Ledger {
	return &Ledger{client: p.DB.Client, clock: p.Clock, owner: p.LeaseID, moved: newMoneyMetrics(p.Metrics)}
}

// writer is the client that writes in tx, or outside a transaction when tx is nil.
func (l *Ledger) writer(tx *ent.Tx) *ent.Client {
	if tx == nil {
		return l.client
	}
	return tx.Client()
}

// Entry is a ledger entry to open.
type Entry struct {
	ShopID, OrderID, PaymentID int
	Kind                       paymenttransaction.Kind
	Amount                     int64
	Currency                   string
	// OperationKey is the money call the entry belongs to: a repeat of the call resumes it.
	OperationKey string
	// Reference is the gateway transaction the entry acts on (the authorization a capture
	// takes, the capture a refund returns).
	Reference string
	// Data is the caller's free-form data sent with a capture or refund (written, null when
	// none, on those two kinds only).
	Data map[string]any
	// PublicID is the entry's id, the gateway's idempotency key (a new one when empty).
	PublicID string
	// GatewayTransactionID is set when checkoutd is the gateway (gift cards).
	GatewayTransactionID string
	// Settled writes the entry succeeded at once: a move checkoutd makes itself (gift cards).
	Settled bool
}

// Open writes a new entry in tx (nil: none).
func (l *Ledger) Open(ctx context.Context, tx *ent.Tx, e Entry) (*ent.PaymentTransaction, error) {
	if e.PublicID == "" {
		e.PublicID = platform.NewPublicID()
	}
	create := l.writer(tx).PaymentTransaction.Create().SetShopID(e.ShopID).SetOrderID(e.OrderID).SetPaymentID(e.PaymentID).
		SetPublicID(e.PublicID).SetKind(e.Kind).SetAmount(e.Amount).SetCurrency(e.Currency)
	if owner := l.owner(); owner != "" {
		create.SetOwner(owner)
	}
	if e.OperationKey != "" {
		create.SetOperationKey(e.OperationKey)
	}
	if e.Kind == paymenttransaction.KindCapture || e.Kind == paymenttransaction.KindRefund {
		create.SetData(e.Data)
	}
	if e.GatewayTransactionID != "" {
		create.SetGatewayTransactionID(e.GatewayTransactionID)
	}
	if e.Settled {
		create.SetStatus(paymenttransaction.StatusSucceeded).SetSettledAt(l.clock())
	}
	if e.Reference != "" {
		create.SetReferenceTransactionID(e.Reference)
	}
	entry, err := create.Save(ctx)
	if err == nil && e.Settled {
		l.count(tx, entry)
	}
	return entry, err
}

// Settle records a gateway's answer on its entry, in tx (nil: none). An entry already
// succeeded stays as it is: its money moved once, whoever settles it again (a follow-up in
// another process) with the same answer.
func (l *Ledger) Settle(ctx context.Context, tx *ent.Tx, entry *ent.PaymentTransaction, gatewayID string, latency time.Duration, callErr error, status paymenttransaction.Status) error {
	u := l.writer(tx).PaymentTransaction.Update().Where(paymenttransaction.ID(entry.ID)).SetStatus(status).SetGatewayTransactionID(gatewayID).
		SetLatencyMs(int(latency.Milliseconds())).SetSettledAt(l.clock())
	if e, ok := callErr.(*gateway.Error); ok {
		u.SetErrorCode(e.Code).SetErrorMessage(truncate(e.Error(), 500))
	}
	if status != paymenttransaction.StatusSucceeded {
		return u.Exec(ctx)
	}
	n, err := u.Where(paymenttransaction.StatusNEQ(paymenttransaction.StatusSucceeded)).Save(ctx)
	if err == nil && n == 1 {
		l.count(tx, entry)
	}
	return err
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// SetReference records the gateway transaction an entry acts on, through c.
func (l *Ledger) SetReference(ctx context.Context, c *ent.Client, entry *ent.PaymentTransaction, reference string) error {
	if err := c.PaymentTransaction.UpdateOneID(entry.ID).SetReferenceTransactionID(reference).Exec(ctx); err != nil {
		return err
	}
	entry.ReferenceTransactionID = reference
	return nil
}

// MarkAccepted records a gateway's acceptance of a move it has not settled yet: the entry stays
// pending, with what the gateway said.
func (l *Ledger) MarkAccepted(ctx context.Context, c *ent.Client, entry *ent.PaymentTransaction, txID, reference string, latency time.Duration) error {
	return c.PaymentTransaction.UpdateOneID(entry.ID).SetStatus(paymenttransaction.StatusPending).SetGatewayTransactionID(txID).
		SetReferenceTransactionID(reference).SetLatencyMs(int(latency.Milliseconds())).Exec(ctx)
}
