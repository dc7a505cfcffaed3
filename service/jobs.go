package service

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"github.com/checkoutd/checkoutd/ent"
)

// The job queue is River, in the service's own database: a job is a row written in the
// transaction of the change that causes it, worked by whichever checkoutd process locks it
// first, and kept until it is done, across crashes and restarts.

// Queue names.
const queueWebhooks = "webhooks"

// AbandonedSweepInterval is how often the order/abandoned queue is dispatched (the spec's five
// minutes).
const AbandonedSweepInterval = 5 * time.Minute

// DefaultJobPollInterval is how often an idle worker looks for new jobs. The database/sql and
// SQLite drivers have no LISTEN, so new jobs are found by polling: how soon a webhook goes out
// after its event commits is this interval at worst. One indexed query per queue per poll.
const DefaultJobPollInterval = 100 * time.Millisecond

// WithJobPollInterval sets how often idle workers look for jobs (tests shorten it).
func WithJobPollInterval(d time.Duration) Option { return func(s *Service) { s.jobPollInterval = d } }

func newJobClient(s *Service) (*river.Client[*sql.Tx], error) {
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &deliveryWorker{s: s}); err != nil {
		return nil, err
	}
	if err := river.AddWorkerSafely(workers, &abandonedSweepWorker{s: s}); err != nil {
		return nil, err
	}
	if err := river.AddWorkerSafely(workers, &abandonedCartEmailWorker{s: s}); err != nil {
		return nil, err
	}
	// Webhook callbacks mostly wait on the network, so many run at once. The queue also hands
	// out jobs a batch at a time, at most one batch per fetch (every 20 ms while there is work),
	// and a batch only fills free workers: delivery can go no faster than workers / 20 ms.
	// Measured under the benchmark's checkouts (6 deliveries each): on SQLite 32 workers fell
	// behind at about 940 deliveries/s, the delay growing to seconds, where 64 kept up at 1,230/s
	// with p99 under 0.4 s and drained a backlog at about 1,800/s (32: 1,070/s); 128 did no
	// better. The workers mostly wait: on SQLite their writes queue for the one writer anyway.
	const webhookWorkers = 64
	poll := s.jobPollInterval
	// A job runs for at most one callback plus the reads before it (the writes after it do
	// not depend on the job's context); a job still marked running well after that belongs to
	// a process that died (kill -9, a lost host) and is handed to another worker.
	jobTimeout := s.webhookTimeout + 5*time.Second
	cfg := &river.Config{
		Workers: workers,
		Queues: map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: 2},
			queueWebhooks:      {MaxWorkers: webhookWorkers},
		},
		PeriodicJobs: []*river.PeriodicJob{
			river.NewPeriodicJob(river.PeriodicInterval(AbandonedSweepInterval),
				func() (river.JobArgs, *river.InsertOpts) { return abandonedSweepArgs{}, nil },
				&river.PeriodicJobOpts{ID: "abandoned_order_sweep", RunOnStart: true}),
		},
		FetchPollInterval:    poll,
		FetchCooldown:        min(poll, 20*time.Millisecond),
		JobTimeout:           jobTimeout,
		RescueStuckJobsAfter: jobTimeout + 10*time.Second,
		Logger:               slog.New(minLevel{s.log.Handler(), slog.LevelWarn}),
		Middleware:           []rivertype.Middleware{&soonAvailable{}},
	}
	if s.db.Dialect == dialect.SQLite {
		return river.NewClient(riversqlite.New(s.db.SQL), cfg)
	}
	return river.NewClient(riverdatabasesql.New(s.db.SQL), cfg)
}

// StartJobs starts working the job queue (webhook deliveries, the abandoned-order sweep) until
// StopJobs or ctx ends. Every checkoutd process may run it: each job is worked once.
func (s *Service) StartJobs(ctx context.Context) error { return s.jobs.Start(ctx) }

// StopJobs lets running jobs finish (within ctx) and stops taking new ones.
func (s *Service) StopJobs(ctx context.Context) error {
	err := s.jobs.Stop(ctx)
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// What did not finish stays in the queue, marked running, and is rescued later.
		return nil
	}
	return err
}

// insertJobsTx writes jobs in tx, the transaction of the change that causes them.
func (s *Service) insertJobsTx(ctx context.Context, tx *ent.Tx, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	v, ok := s.sqlTxs.Load(tx)
	if !ok {
		return fmt.Errorf("jobs: the transaction was not begun by inTx")
	}
	_, err := s.jobs.InsertManyTx(ctx, v.(*sql.Tx), params)
	return err
}

// schedulerInterval is how often River's scheduler (on the leader) makes scheduled jobs
// available: its default, which the configuration does not expose.
const schedulerInterval = 5 * time.Second

// soonAvailable writes a job due within the scheduler's interval as available, with its
// scheduled_at: workers take available jobs once their time has come, where a scheduled one
// would wait for the scheduler, up to its interval late. River does the same for a short
// snooze. A quick retry then comes on time.
type soonAvailable struct{ river.MiddlewareDefaults }

func (*soonAvailable) InsertMany(ctx context.Context, many []*rivertype.JobInsertParams, doInner func(context.Context) ([]*rivertype.JobInsertResult, error)) ([]*rivertype.JobInsertResult, error) {
	for _, p := range many {
		if p.State == rivertype.JobStateScheduled && p.ScheduledAt != nil && time.Until(*p.ScheduledAt) < schedulerInterval {
			p.State = rivertype.JobStateAvailable
		}
	}
	return doInner(ctx)
}

// minLevel drops River's routine records; its warnings and errors go to the service's log,
// except the cancellations River reports as errors while it stops itself.
type minLevel struct {
	slog.Handler
	level slog.Level
}

func (h minLevel) Handle(ctx context.Context, r slog.Record) error {
	stopping := false
	r.Attrs(func(a slog.Attr) bool {
		stopping = a.Key == "error" && a.Value.String() == context.Canceled.Error()
		return !stopping
	})
	if stopping {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.level && h.Handler.Enabled(ctx, l)
}
func (h minLevel) WithAttrs(a []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(a), h.level}
}
func (h minLevel) WithGroup(n string) slog.Handler { return minLevel{h.Handler.WithGroup(n), h.level} }
