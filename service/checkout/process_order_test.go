package checkout_test

import (
	"context"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// process_order's last transaction settles the ledger entries of the authorizations granted and
// writes the order and its payments as its reservation left them; when the order moved on in
// between, the entries are settled on their own and the rest is written on the rows locked and
// read again. Either way the ledger holds what the gateway granted, the order is processed,
// every payment authorized with the id its gateway gave, and its events recorded.
func TestProcessOrderCompletesFromItsReservationOrFromTheRowsWhenTheOrderMovedOn(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		s := service.New(db, service.WithOutboundAllowPrivate(true)) // the test gateway listens on loopback
		for _, path := range []string{"reserved", "locked"} {
			o := newOrderToProcess(t, s, "process-"+path)
			var err error
			if path == "reserved" {
				_, err = s.Checkout.ProcessOrder(ctx, o.session)
			} else {
				_, err = s.Checkout.ProcessOrderWithTheVersionMovedOnBeforeCompletion(ctx, o.session)
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if n := s.Checkout.ProcessCompletions(path); n != 1 {
				t.Fatalf("%d completions on the %s path, want 1", n, path)
			}
			stored, err := db.Client.Order.Query().Where(order.ID(o.view.Order.ID)).WithPayments().WithEvents().WithTransactions().Only(ctx)
			if err != nil || stored.Status != order.StatusProcessed || stored.PlatformOrderID == "" || stored.ProcessedAt == nil {
				t.Fatalf("%s: order %+v (%v), want processed", path, stored, err)
			}
			auths := o.gateway.Auths()
			if len(auths) != 1 {
				t.Fatalf("%s: %d authorizations at the gateway, want 1", path, len(auths))
			}
			for _, p := range stored.Edges.Payments {
				want := auths[0].ID
				if p.GiftCardID != nil {
					want = ""
				}
				if p.Status != orderpayment.StatusAuthorized || p.Step != "preAuthed" || p.AuthorizationID != want {
					t.Fatalf("%s: payment %s %s %q, want authorized preAuthed %q", path, p.Status, p.Step, p.AuthorizationID, want)
				}
			}
			for _, e := range stored.Edges.Transactions {
				want := auths[0].ID
				if e.Amount != auths[0].Amount {
					want = "" // the gift card's
				}
				if e.Kind != paymenttransaction.KindAuthorize || e.Status != paymenttransaction.StatusSucceeded || e.SettledAt == nil || e.GatewayTransactionID != want {
					t.Fatalf("%s: ledger entry %s %s %q settled %v, want a succeeded authorization %q", path, e.Kind, e.Status, e.GatewayTransactionID, e.SettledAt, want)
				}
			}
			if len(stored.Edges.Transactions) != 2 {
				t.Fatalf("%s: %d ledger entries, want 2", path, len(stored.Edges.Transactions))
			}
			if topics := eventTopics(stored.Edges.Events); topics != "order/processed,order/created" {
				t.Fatalf("%s: events %s", path, topics)
			}
		}
	})
}

func eventTopics(events []*ent.Event) string {
	topics := make([]string, len(events))
	for i, e := range events {
		topics[i] = e.Topic
	}
	return strings.Join(topics, ",")
}
