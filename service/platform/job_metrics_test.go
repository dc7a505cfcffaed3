package platform_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// outcomeArgs is a job that ends as its Outcome says: completed, retried (then completed),
// discarded or cancelled.
type outcomeArgs struct {
	Outcome string `json:"outcome"`
}

func (outcomeArgs) Kind() string { return "metrics_outcome" }

type outcomeWorker struct {
	river.WorkerDefaults[outcomeArgs]
}

// NextRetry retries at once: the test does not wait for the backoff.
func (outcomeWorker) NextRetry(*river.Job[outcomeArgs]) time.Time { return time.Now() }

func (outcomeWorker) Work(_ context.Context, j *river.Job[outcomeArgs]) error {
	switch j.Args.Outcome {
	case "retried":
		if j.Attempt == 1 {
			return errors.New("not yet")
		}
	case "discarded":
		return errors.New("never")
	case "cancelled":
		return river.JobCancel(errors.New("no point"))
	}
	return nil
}

// Every run of a job this process works is counted by kind and outcome, once, as the queue
// recorded it: a job that fails and then succeeds is one retried run and one completed.
func TestJobRunsAreCountedByKindAndOutcome(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		p := platform.New(db, slog.New(slog.DiscardHandler), time.Now)
		platform.AddWorker(p.Jobs, outcomeWorker{})
		if err := p.Jobs.Open(platform.QueueConfig{PollInterval: 20 * time.Millisecond, JobTimeout: 5 * time.Second}); err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		if err := p.Jobs.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Jobs.Stop(ctx) })
		var jobs []river.InsertManyParams
		for _, o := range []string{"completed", "retried", "discarded", "cancelled"} {
			opts := &river.InsertOpts{MaxAttempts: 2}
			if o == "discarded" {
				opts.MaxAttempts = 1
			}
			jobs = append(jobs, river.InsertManyParams{Args: outcomeArgs{Outcome: o}, InsertOpts: opts})
		}
		if err := p.Jobs.Insert(ctx, jobs); err != nil {
			t.Fatal(err)
		}
		want := `
# HELP checkoutd_jobs_total Job runs this process finished, by kind and outcome: completed, retried (failed, to run again), discarded (failed for good), cancelled, snoozed.
# TYPE checkoutd_jobs_total counter
checkoutd_jobs_total{kind="metrics_outcome",outcome="cancelled"} 1
checkoutd_jobs_total{kind="metrics_outcome",outcome="completed"} 2
checkoutd_jobs_total{kind="metrics_outcome",outcome="discarded"} 1
checkoutd_jobs_total{kind="metrics_outcome",outcome="retried"} 1
`
		var err error
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if err = testutil.GatherAndCompare(p.Metrics, strings.NewReader(want), "checkoutd_jobs_total"); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if n := testutil.CollectAndCount(p.Metrics, "checkoutd_job_duration_seconds"); n != 1 {
			t.Fatalf("%d job duration series, want 1", n)
		}
	})
}
