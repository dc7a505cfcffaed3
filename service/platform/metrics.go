package platform

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

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
