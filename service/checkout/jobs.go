package checkout

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// InterruptedAfter is how long an order may sit in processing before the recovery sweep takes it
// for interrupted: well above the longest process_order (every tender's call and its one replay
// at the gateway timeout).
const InterruptedAfter = 5 * time.Minute

// PendingMoveFollowUpAfter is how long a capture or refund a gateway accepted without settling
// waits before the follow-up sweep asks the gateway again.
const PendingMoveFollowUpAfter = 30 * time.Second

// SweepInterval is how often the recovery and follow-up sweeps run.
const SweepInterval = time.Minute

// recoverySweepArgs is the periodic job that finishes what a crash or a lost gateway answer left
// half done (RecoverInterruptedAuthorizations).
type recoverySweepArgs struct{}

func (recoverySweepArgs) Kind() string { return "interrupted_authorization_sweep" }

// InsertOpts runs a failed sweep once: the next one, a minute later, is its retry.
func (recoverySweepArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }

type recoverySweepWorker struct {
	river.WorkerDefaults[recoverySweepArgs]
	s *Service
}

// Timeout lets a sweep run up to its interval: each order it takes is safe to leave half done
// (the next sweep finishes it), as is a sweep run twice at once.
func (*recoverySweepWorker) Timeout(*river.Job[recoverySweepArgs]) time.Duration {
	return SweepInterval
}

func (w *recoverySweepWorker) Work(ctx context.Context, _ *river.Job[recoverySweepArgs]) error {
	return w.s.RecoverInterruptedAuthorizations(ctx, InterruptedAfter)
}

// followUpSweepArgs is the periodic job that asks the gateways again about captures and refunds
// they accepted without settling (FollowUpPendingMoves).
type followUpSweepArgs struct{}

func (followUpSweepArgs) Kind() string { return "pending_move_follow_up" }

// InsertOpts runs a failed sweep once: the next one, a minute later, is its retry.
func (followUpSweepArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }

type followUpSweepWorker struct {
	river.WorkerDefaults[followUpSweepArgs]
	s *Service
}

func (*followUpSweepWorker) Timeout(*river.Job[followUpSweepArgs]) time.Duration {
	return SweepInterval
}

func (w *followUpSweepWorker) Work(ctx context.Context, _ *river.Job[followUpSweepArgs]) error {
	return w.s.FollowUpPendingMoves(ctx, PendingMoveFollowUpAfter)
}
