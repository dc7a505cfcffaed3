package platform

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"entgo.io/ent/dialect"
	"github.com/lib/pq"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"github.com/checkoutd/checkoutd/ent"
)

// The job queue is River, in the service's own database: a job is a row written in the
// transaction of the change that causes it, worked by whichever checkoutd process locks it
// first, and kept until it is done, across crashes and restarts. Domains register their workers,
// queues and periodic jobs; the wiring then opens the queue. A periodic job runs on the queue's
// leader only: once across every checkoutd process.

// DefaultJobPollInterval is how often an idle worker looks for new jobs. The database/sql and
// SQLite drivers have no LISTEN, so new jobs are found by polling: how soon a webhook goes out
// after its event commits is this interval at worst. One indexed query per queue per poll.
const DefaultJobPollInterval = 100 * time.Millisecond

// Queue is the job queue. Workers, queues and periodic jobs are added before Open.
type Queue struct {
	p        *Platform
	workers  *river.Workers
	queues   map[string]river.QueueConfig
	periodic []*river.PeriodicJob
	client   *river.Client[*sql.Tx]
	// retention are the domains' retention rules (retention.go), retentionKeep the settings.
	retention     []RetentionRule
	retentionKeep map[string]time.Duration
	outcomes      jobOutcomes
	// unsubscribe ends the subscription to the queue's job outcomes (Start to Stop).
	unsubscribe func()
}

func newQueue(p *Platform) *Queue {
	return &Queue{p: p, workers: river.NewWorkers(), retentionKeep: map[string]time.Duration{}, outcomes: newJobOutcomes(),
		queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 2}, QueuePlatform: {MaxWorkers: platformWorkers}}}
}

// AddWorker registers the worker of one kind of job.
func AddWorker[T river.JobArgs](q *Queue, w river.Worker[T]) {
	if q.client != nil {
		panic("platform: a worker added after the queue opened")
	}
	// Only a mistake in the wiring gets here (a kind registered twice), never the environment.
	if err := river.AddWorkerSafely(q.workers, w); err != nil {
		panic(fmt.Sprintf("platform: job queue: %v", err))
	}
}

// AddQueue declares a named queue worked by at most maxWorkers jobs at once per process.
func (q *Queue) AddQueue(name string, maxWorkers int) {
	q.queues[name] = river.QueueConfig{MaxWorkers: maxWorkers}
}

// QueuePlatform is the one queue of the platform connector's work: connector calls, sync pages
// and the platform's event notifications. Each queue polls the database on its own, so the
// connector's kinds of work share one rather than adding a poller each.
const QueuePlatform = "platform"

// platformWorkers bounds the platform queue's jobs at once per process: they mostly wait on the
// platform or on SQLite's one writer.
const platformWorkers = 32

// AddPeriodic runs a job of args every interval, and once when the queue's leader starts, on one
// process only.
func (q *Queue) AddPeriodic(id string, interval time.Duration, args func() river.JobArgs) {
	q.periodic = append(q.periodic, river.NewPeriodicJob(river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return args(), nil },
		&river.PeriodicJobOpts{ID: id, RunOnStart: true}))
}

// QueueConfig is how the opened queue polls and times out its jobs.
type QueueConfig struct {
	// PollInterval is how often an idle worker looks for jobs (DefaultJobPollInterval if zero).
	PollInterval time.Duration
	// JobTimeout bounds one run of a job whose worker sets no Timeout of its own.
	JobTimeout time.Duration
	// LongestJob is the longest Timeout a worker sets. A job still marked running well after it
	// belongs to a process that died (kill -9, a lost host) and is handed to another worker.
	LongestJob time.Duration
}

// Open builds the queue's client from what the domains registered. Jobs can be inserted from
// then on; Start works them.
func (q *Queue) Open(cfg QueueConfig) error {
	poll := cfg.PollInterval
	if poll == 0 {
		poll = DefaultJobPollInterval
	}
	rc := &river.Config{
		ID:                   q.p.processID,
		Workers:              q.workers,
		Queues:               q.queues,
		PeriodicJobs:         q.periodic,
		FetchPollInterval:    poll,
		FetchCooldown:        min(poll, 20*time.Millisecond),
		JobTimeout:           cfg.JobTimeout,
		RescueStuckJobsAfter: max(cfg.JobTimeout, cfg.LongestJob) + 10*time.Second,
		Logger:               slog.New(minLevel{q.p.Log.Handler(), slog.LevelWarn}),
		Middleware:           []rivertype.Middleware{&soonAvailable{}},
	}
	var err error
	if q.p.DB.Dialect == dialect.SQLite {
		q.client, err = river.NewClient(riversqlite.New(q.p.DB.SQL), rc)
	} else {
		q.client, err = river.NewClient(riverdatabasesql.New(q.p.DB.SQL), rc)
	}
	return err
}

// Start works the queue until Stop or ctx ends. Every checkoutd process may run it: each job is
// worked once.
func (q *Queue) Start(ctx context.Context) error {
	if q.unsubscribe == nil {
		q.unsubscribe = q.outcomes.follow(q.client)
	}
	return q.client.Start(ctx)
}

// Stop lets running jobs finish (within ctx) and stops taking new ones.
func (q *Queue) Stop(ctx context.Context) error {
	err := q.client.Stop(ctx)
	if q.unsubscribe != nil {
		q.unsubscribe()
		q.unsubscribe = nil
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// What did not finish stays in the queue, marked running, and is rescued later.
		return nil
	}
	return err
}

// InsertTx writes jobs in tx, the transaction of the change that causes them.
func (q *Queue) InsertTx(ctx context.Context, tx *ent.Tx, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	v, ok := q.p.sqlTxs.Load(tx)
	if !ok {
		return fmt.Errorf("jobs: the transaction was not begun by InTx")
	}
	_, err := q.client.InsertManyTx(ctx, v.(*sql.Tx), params)
	return err
}

// ReleaseRunning makes the jobs that processes left running available again at once: on
// PostgreSQL those last attempted by the processes named (their leases lapsed), on SQLite (one
// process per database, owners nil) every job marked running when this process starts. The
// queue's own rescue would wait RescueStuckJobsAfter. A job's work is written to be run twice
// (each checks, in its transaction, that its step is still to do).
func (q *Queue) ReleaseRunning(ctx context.Context, owners []string) (int64, error) {
	var res sql.Result
	var err error
	if q.p.DB.Dialect == dialect.Postgres {
		if len(owners) == 0 {
			return 0, nil
		}
		res, err = q.p.DB.SQL.ExecContext(ctx, `UPDATE river_job SET state = 'available'
			WHERE state = 'running' AND attempted_by[array_length(attempted_by, 1)] = ANY($1)`, pq.Array(owners))
	} else {
		res, err = q.p.DB.SQL.ExecContext(ctx, `UPDATE river_job SET state = 'available' WHERE state = 'running'`)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// Insert writes jobs outside any transaction: for work whose only record is its job (a
// queued notification).
func (q *Queue) Insert(ctx context.Context, params []river.InsertManyParams) error {
	if len(params) == 0 {
		return nil
	}
	_, err := q.client.InsertMany(ctx, params)
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
