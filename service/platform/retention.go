package platform

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/riverqueue/river"
)

// Records kept for support (webhook deliveries, connector calls, idempotency records) would
// grow without end. Each domain that keeps such records registers a retention rule: how long a
// record is kept and how to delete a batch of older ones. One periodic job, on the queue's
// leader, runs every rule in bounded batches, each its own short transaction, so that a large
// backlog never holds a lock or SQLite's one writer for long.

// RetentionInterval is how often the retention job runs.
const RetentionInterval = time.Hour

// RetentionBatch is how many records one batch deletes at most.
const RetentionBatch = 500

// retentionBudget bounds one run: what is left is the next run's.
const retentionBudget = 40 * time.Second

// RetentionRule keeps one kind of record for Keep after it was made.
type RetentionRule struct {
	// Name names the records (webhook_deliveries); its setting overrides Keep.
	Name string
	// Keep is how long a record is kept when no setting says otherwise.
	Keep time.Duration
	// Min is the shortest Keep a setting may give (a record still in use is never deleted).
	Min time.Duration
	// DeleteBatch deletes at most limit records made before the cutoff, oldest first, and
	// reports how many it deleted and whether none older are left. after is where the last batch
	// of this run stopped (0 at first) and next where this one did, for rules that walk by id.
	DeleteBatch func(ctx context.Context, before time.Time, after, limit int) (deleted, next int, done bool, err error)
}

// OldRecord is what a walk by id reads of a record: ids grow with time, so a walk from the
// oldest stops at the first record made after the cutoff and never reads the recent ones.
type OldRecord struct {
	ID       int
	Made     time.Time
	Finished bool
}

// WalkOldest is the DeleteBatch of records whose ids grow with time: read gives the next limit
// records after an id, oldest first; the finished ones made before the cutoff go to remove, in
// one call, which deletes them (and what hangs off them) unless they are no longer finished.
func WalkOldest(read func(ctx context.Context, after, limit int) ([]OldRecord, error),
	remove func(ctx context.Context, ids []int) (int, error)) func(ctx context.Context, before time.Time, after, limit int) (int, int, bool, error) {
	return func(ctx context.Context, before time.Time, after, limit int) (int, int, bool, error) {
		rows, err := read(ctx, after, limit)
		if err != nil {
			return 0, after, false, err
		}
		var old []int
		done := len(rows) < limit
		for _, r := range rows {
			if !r.Made.Before(before) {
				done = true
				break
			}
			after = r.ID
			if r.Finished {
				old = append(old, r.ID)
			}
		}
		if len(old) == 0 {
			return 0, after, done, nil
		}
		n, err := remove(ctx, old)
		return n, after, done, err
	}
}

// AddRetention registers a rule; the retention job runs it once the queue starts.
func (q *Queue) AddRetention(r RetentionRule) {
	if q.client != nil {
		panic("platform: a retention rule added after the queue opened")
	}
	if len(q.retention) == 0 {
		AddWorker(q, &retentionWorker{q: q})
		q.AddPeriodic("retention", RetentionInterval, func() river.JobArgs { return retentionArgs{} })
	}
	q.retention = append(q.retention, r)
}

// SetRetention sets how long the records of a rule are kept (before the queue starts). It
// refuses a name no rule has, and a time shorter than the rule's minimum.
func (q *Queue) SetRetention(name string, keep time.Duration) error {
	for _, r := range q.retention {
		if r.Name == name {
			if keep < r.Min {
				return fmt.Errorf("%s must be kept at least %s, not %s", name, r.Min, keep)
			}
			q.retentionKeep[name] = keep
			return nil
		}
	}
	return fmt.Errorf("no records are named %q", name)
}

// RetentionRules are the registered rules, each with the time it keeps its records.
func (q *Queue) RetentionRules() []RetentionRule {
	out := make([]RetentionRule, 0, len(q.retention))
	for _, r := range q.retention {
		if keep, ok := q.retentionKeep[r.Name]; ok {
			r.Keep = keep
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Prune runs every rule until its old records are gone or the budget is spent, and returns how
// many records of each it deleted.
func (q *Queue) Prune(ctx context.Context, budget time.Duration) (map[string]int, error) {
	deadline := time.Now().Add(budget)
	now := q.p.Clock()
	deleted := map[string]int{}
	for _, r := range q.RetentionRules() {
		after := 0
		for time.Now().Before(deadline) {
			n, next, done, err := r.DeleteBatch(ctx, now.Add(-r.Keep), after, RetentionBatch)
			deleted[r.Name] += n
			if err != nil {
				return deleted, fmt.Errorf("retention of %s: %w", r.Name, err)
			}
			if done {
				break
			}
			after = next
		}
	}
	return deleted, nil
}

type retentionArgs struct{}

func (retentionArgs) Kind() string { return "retention" }

// InsertOpts runs a failed run once: the next one is its retry.
func (retentionArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 1} }

type retentionWorker struct {
	river.WorkerDefaults[retentionArgs]
	q *Queue
}

func (*retentionWorker) Timeout(*river.Job[retentionArgs]) time.Duration {
	return retentionBudget + 10*time.Second
}

func (w *retentionWorker) Work(ctx context.Context, _ *river.Job[retentionArgs]) error {
	deleted, err := w.q.Prune(ctx, retentionBudget)
	for name, n := range deleted {
		if n > 0 {
			w.q.p.Log.InfoContext(ctx, "retention deleted old records", "records", name, "deleted", n)
		}
	}
	return err
}
