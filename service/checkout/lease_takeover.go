package checkout

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/platform"
)

// TakeOverLapsedLeases settles what processes whose lease lapsed (PostgreSQL: they died) left in
// doubt, without waiting for the sweeps' age limits: their captures and refunds still pending or
// unanswered are asked again under the same keys, the orders they left processing are recovered,
// and their voids are sent again. Each step is the sweeps' own, safe to run twice.
func (s *Service) TakeOverLapsedLeases(ctx context.Context) error {
	lapsed, err := s.p.LapsedLeases(ctx)
	if err != nil || len(lapsed) == 0 {
		return err
	}
	// Their queue jobs (a connector call, a webhook delivery, a sync page) run again now.
	if n, err := s.p.Jobs.ReleaseRunning(ctx, lapsed); err != nil {
		return err
	} else if n > 0 {
		s.p.Log.InfoContext(ctx, "released the jobs of stopped processes", "jobs", n)
	}
	entries, err := s.p.DB.Read.PaymentTransaction.Query().Where(paymenttransaction.OwnerIn(lapsed...),
		paymenttransaction.StatusIn(paymenttransaction.StatusPending, paymenttransaction.StatusUnknown)).
		WithPayment().WithOrder(func(q *ent.OrderQuery) { q.WithShop() }).All(ctx)
	if err != nil {
		return err
	}
	recovered := map[int]bool{}
	for _, e := range entries {
		o := e.Edges.Order
		switch e.Kind {
		case paymenttransaction.KindCapture, paymenttransaction.KindRefund:
			s.followUp(ctx, e)
		case paymenttransaction.KindVoid:
			if err := s.retryVoid(ctx, e); err != nil {
				s.p.Log.ErrorContext(ctx, "retrying a void of a stopped process failed", "entry", e.PublicID, "error", err)
			}
		default:
			if o.Status != order.StatusProcessing || recovered[o.ID] {
				continue
			}
			recovered[o.ID] = true
			if err := s.abandonAuthorization(ctx, o.Edges.Shop, o.ID, 0, 0, "processing was interrupted"); err != nil {
				s.p.Log.ErrorContext(ctx, "recovering an order a stopped process left processing failed", "public_order_id", o.PublicOrderID, "error", err)
			}
		}
	}
	return nil
}

// leaseTakeoverArgs is the periodic job that runs TakeOverLapsedLeases (PostgreSQL only).
type leaseTakeoverArgs struct{}

func (leaseTakeoverArgs) Kind() string { return "lapsed_lease_takeover" }

// InsertOpts runs a failed takeover once: the next one, moments later, is its retry.
func (leaseTakeoverArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }

type leaseTakeoverWorker struct {
	river.WorkerDefaults[leaseTakeoverArgs]
	s *Service
}

func (*leaseTakeoverWorker) Timeout(*river.Job[leaseTakeoverArgs]) time.Duration {
	return SweepInterval
}

func (w *leaseTakeoverWorker) Work(ctx context.Context, _ *river.Job[leaseTakeoverArgs]) error {
	return w.s.TakeOverLapsedLeases(ctx)
}

// registerLeaseTakeover runs the takeover every LeaseRenewal on a database several processes
// share: what a dead process left is settled about LeaseLapse after its last renewal.
func (s *Service) registerLeaseTakeover() {
	platform.AddWorker(s.p.Jobs, &leaseTakeoverWorker{s: s})
	s.p.Jobs.AddPeriodic("lapsed_lease_takeover", platform.LeaseRenewal, func() river.JobArgs { return leaseTakeoverArgs{} })
}
