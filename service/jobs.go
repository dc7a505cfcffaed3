package service

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/service/platform"
)

// Queue names.
const queueWebhooks = "webhooks"

// AbandonedSweepInterval is how often the order/abandoned queue is dispatched (the spec's five
// minutes).
const AbandonedSweepInterval = 5 * time.Minute

// registerJobs gives the job queue the service's workers, queues and periodic jobs.
func (s *Service) registerJobs() {
	q := s.p.Jobs
	platform.AddWorker(q, &deliveryWorker{s: s})
	platform.AddWorker(q, &abandonedSweepWorker{s: s})
	platform.AddWorker(q, &abandonedCartEmailWorker{s: s})
	// Webhook callbacks mostly wait on the network, so many run at once. The queue also hands
	// out jobs a batch at a time, at most one batch per fetch (every 20 ms while there is work),
	// and a batch only fills free workers: delivery can go no faster than workers / 20 ms.
	// Measured under the benchmark's checkouts (6 deliveries each): on SQLite 32 workers fell
	// behind at about 940 deliveries/s, the delay growing to seconds, where 64 kept up at 1,230/s
	// with p99 under 0.4 s and drained a backlog at about 1,800/s (32: 1,070/s); 128 did no
	// better. The workers mostly wait: on SQLite their writes queue for the one writer anyway.
	const webhookWorkers = 64
	q.AddQueue(queueWebhooks, webhookWorkers)
	q.AddPeriodic("abandoned_order_sweep", AbandonedSweepInterval, func() river.JobArgs { return abandonedSweepArgs{} })
	platform.AddWorker(q, &recoverySweepWorker{s: s})
	platform.AddWorker(q, &followUpSweepWorker{s: s})
	q.AddPeriodic("interrupted_authorization_sweep", SweepInterval, func() river.JobArgs { return recoverySweepArgs{} })
	q.AddPeriodic("pending_move_follow_up", SweepInterval, func() river.JobArgs { return followUpSweepArgs{} })
}

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
