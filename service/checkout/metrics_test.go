package checkout_test

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// metricValue is the value of the series of family name whose labels include labels (0 when
// there is none).
func metricValue(t *testing.T, g prometheus.Gatherer, name string, labels map[string]string) float64 {
	t.Helper()
	families, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
	series:
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if v, ok := labels[l.GetName()]; ok && v != l.GetValue() {
					continue series
				}
			}
			if c := m.GetCounter(); c != nil {
				return c.GetValue()
			}
			return m.GetGauge().GetValue()
		}
	}
	return 0
}

// Money is counted once, when its ledger entry succeeds and that is committed: process_order's
// last transaction settles the authorizations with the order, and when it is rolled back (the
// order moved on) they are settled again on their own, counted then and only then. A capture
// replayed under its key moves nothing again; a refund counts what it returned.
func TestMoneyAndProcessedOrdersAreCountedOnceAtTheCommitThatRecordsThem(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		s := service.New(db, service.WithOutboundAllowPrivate(true)) // the test gateway listens on loopback
		usd := map[string]string{"currency": "USD"}
		money := func(kind string) float64 {
			return metricValue(t, s.Metrics(), "checkoutd_money_"+kind+"_minor_units_total", usd)
		}
		var total float64
		for _, path := range []string{"reserved", "locked"} {
			o := newOrderToProcess(t, s, "count-"+path)
			var err error
			if path == "reserved" {
				_, err = s.Checkout.ProcessOrder(ctx, o.session)
			} else {
				_, err = s.Checkout.ProcessOrderWithTheVersionMovedOnBeforeCompletion(ctx, o.session)
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			total += float64(o.gateway.Auths()[0].Amount + 1000) // the card's and the gift card's
			if got := money("authorized"); got != total {
				t.Fatalf("%s: %v authorized, want %v", path, got, total)
			}
		}
		if got := metricValue(t, s.Metrics(), "checkoutd_orders_processed_total", nil); got != 2 {
			t.Fatalf("%v orders processed, want 2", got)
		}
		if got := metricValue(t, s.Metrics(), "checkoutd_orders_initialized_total", nil); got != 2 {
			t.Fatalf("%v orders initialized, want 2", got)
		}

		o := newOrderToProcess(t, s, "count-moves")
		if _, err := s.Checkout.ProcessOrder(ctx, o.session); err != nil {
			t.Fatal(err)
		}
		captured, refunded := money("captured"), money("refunded")
		for range 2 {
			if _, err := s.Checkout.Capture(ctx, o.session, checkout.CaptureScope{Full: true}, checkout.CaptureInput{}, "cap-1"); err != nil {
				t.Fatal(err)
			}
		}
		orderTotal := float64(o.gateway.Auths()[0].Amount + 1000)
		if got := money("captured") - captured; got != orderTotal {
			t.Fatalf("a capture and its replay counted %v captured, want %v once", got, orderTotal)
		}
		amount := int64(300)
		if _, err := s.Checkout.Refund(ctx, o.session, checkout.CaptureScope{}, checkout.RefundInput{Reason: "test", Amount: &amount}, "ref-1"); err != nil {
			t.Fatal(err)
		}
		if got := money("refunded") - refunded; got != 300 {
			t.Fatalf("%v refunded, want 300", got)
		}
	})
}
