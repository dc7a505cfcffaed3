package checkout

import (
	"context"

	"github.com/checkoutd/checkoutd/ent/idempotencykey"
)

// SettleAfterRestart settles, at start-up, the money a dead process left in doubt. It is for a
// process that is its database's only one (SQLite): everything still pending or running then
// belongs to a process that is gone. Captures and refunds still pending or unanswered are asked
// again at their gateways under the same keys and settled; orders left processing are recovered
// (RecoverInterruptedAuthorizations); and the idempotency keys still running are released, so
// that a retry with the same key resumes its call at once (the call's ledger entries carry the
// key, so no money moves twice) instead of answering idempotency.in_progress; and the queue jobs
// it was running are made available again at once, instead of after the queue's rescue delay.
func (s *Service) SettleAfterRestart(ctx context.Context) error {
	if err := s.FollowUpPendingMoves(ctx, 0); err != nil {
		return err
	}
	if err := s.RecoverInterruptedAuthorizations(ctx, 0); err != nil {
		return err
	}
	n, err := s.p.DB.Client.IdempotencyKey.Delete().Where(idempotencykey.StatusEQ(idempotencykey.StatusRunning)).Exec(ctx)
	if n > 0 {
		s.p.Log.InfoContext(ctx, "released the idempotency keys a stopped process held", "keys", n)
	}
	if err != nil {
		return err
	}
	// The queue jobs it was running (a connector call, a webhook delivery) run again at once.
	jobs, err := s.p.Jobs.ReleaseRunning(ctx, nil)
	if jobs > 0 {
		s.p.Log.InfoContext(ctx, "released the jobs a stopped process was running", "jobs", jobs)
	}
	return err
}
