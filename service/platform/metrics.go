package platform

import (
	"context"
	"database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// registerPoolMetrics adds the database pools' figures (go_sql_*, by db_name): "main", the pool
// that writes (and, on PostgreSQL, reads), and on SQLite "read", the read-only pool beside it.
func (p *Platform) registerPoolMetrics() {
	p.Metrics.MustRegister(collectors.NewDBStatsCollector(p.DB.SQL, "main"))
	if p.DB.read != nil {
		p.Metrics.MustRegister(collectors.NewDBStatsCollector(p.DB.read, "read"))
	}
}

// jobOutcomes count the jobs this process worked, by kind and outcome, and time their runs. They
// follow River's events, which it sends once the outcome is written: a job is counted once per
// run, as the queue recorded it.
type jobOutcomes struct {
	total   *prometheus.CounterVec
	seconds *prometheus.HistogramVec
}

func newJobOutcomes() jobOutcomes {
	return jobOutcomes{
		total: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_jobs_total",
			Help: "Job runs this process finished, by kind and outcome: completed, retried (failed, to run again), discarded (failed for good), cancelled, snoozed.",
		}, []string{"kind", "outcome"}),
		seconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "checkoutd_job_duration_seconds",
			Help:    "Time one run of a job took, by kind.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"kind"}),
	}
}

// jobEvents are the events of a job's end.
var jobEvents = []river.EventKind{river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobCancelled, river.EventKindJobSnoozed}

// follow counts the outcomes client reports until the function it returns is called. The
// subscription's buffer (River drops what overflows it) is emptied by a loop that only counts.
func (o jobOutcomes) follow(client *river.Client[*sql.Tx]) func() {
	events, cancel := client.SubscribeConfig(&river.SubscribeConfig{Kinds: jobEvents, ChanSize: 10_000})
	go func() {
		for ev := range events {
			if ev.Job == nil {
				continue
			}
			o.total.WithLabelValues(ev.Job.Kind, jobOutcome(ev)).Inc()
			if ev.JobStats != nil {
				o.seconds.WithLabelValues(ev.Job.Kind).Observe(ev.JobStats.RunDuration.Seconds())
			}
		}
	}()
	return cancel
}

func jobOutcome(ev *river.Event) string {
	switch ev.Kind {
	case river.EventKindJobCompleted:
		return "completed"
	case river.EventKindJobCancelled:
		return "cancelled"
	case river.EventKindJobSnoozed:
		return "snoozed"
	}
	if ev.Job.State == rivertype.JobStateDiscarded {
		return "discarded"
	}
	return "retried"
}

// queueCollector reads the depth of the job queue from the database at each scrape: the queue
// is shared by every checkoutd process, so no one process could count it.
type queueCollector struct{ p *Platform }

var queueDepthDesc = prometheus.NewDesc("checkoutd_job_queue_depth",
	"Jobs in the queue not yet done, by kind and state (available, scheduled, retryable, running, pending).",
	[]string{"kind", "state"}, nil)

func (queueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- queueDepthDesc }

func (c queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.collectJobs(ctx, ch); err != nil {
		c.p.Log.Warn("metrics: reading the job queue", "error", err)
	}
}

// collectJobs counts the queue's unfinished jobs. Its rows are closed before it returns: on
// SQLite they hold the one connection.
func (c queueCollector) collectJobs(ctx context.Context, ch chan<- prometheus.Metric) error {
	rows, err := c.p.DB.SQL.QueryContext(ctx, `SELECT kind, state, count(*) FROM river_job
		WHERE state IN ('available', 'scheduled', 'retryable', 'running', 'pending') GROUP BY kind, state`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			kind, state string
			n           float64
		)
		if err := rows.Scan(&kind, &state, &n); err != nil {
			return err
		}
		ch <- prometheus.MustNewConstMetric(queueDepthDesc, prometheus.GaugeValue, n, kind, state)
	}
	return rows.Err()
}
