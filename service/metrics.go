package service

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/checkoutd/checkoutd/ent/webhookdelivery"
	"github.com/checkoutd/checkoutd/service/webhook"
)

// metrics are the service's Prometheus metrics, in a registry of its own (one per Service, so
// that tests may run many).
type metrics struct {
	registry   *prometheus.Registry
	attempts   *prometheus.CounterVec
	deliveries *prometheus.CounterVec
	latency    *prometheus.HistogramVec
	// writeTxs and writeTxSeconds count the service's write transactions and the time each held
	// its connection, begin to commit or rollback: on SQLite, how busy its one writer is.
	writeTxs       prometheus.Counter
	writeTxSeconds prometheus.Counter
	// fieldChanges counts changes of an order's own row by how they were written: "kept" in one
	// conditional statement on the order this process kept, "locked" in a transaction.
	fieldChanges *prometheus.CounterVec
	// processCompletions counts process_order's last transactions by path: "reserved" on the rows
	// as its reservation left them, "locked" on rows read again because one moved on.
	processCompletions *prometheus.CounterVec
}

func newMetrics(s *Service) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_webhook_attempts_total",
			Help: "Webhook callbacks made, by topic and outcome (success, http_error, timeout, connection_error).",
		}, []string{"topic", "outcome"}),
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_webhook_deliveries_total",
			Help: "Webhook deliveries that reached an end, by topic and outcome (succeeded, failed).",
		}, []string{"topic", "outcome"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "checkoutd_webhook_attempt_duration_seconds",
			Help:    "Time from sending a webhook callback to its answer (or to giving up on one), by topic.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"topic"}),
		writeTxs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "checkoutd_db_write_transactions_total",
			Help: "Write transactions the service ran (the job queue's own are not counted).",
		}),
		writeTxSeconds: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "checkoutd_db_write_transaction_seconds_total",
			Help: "Time the service's write transactions held their connection, from begin to commit or rollback. On SQLite, its rate is how busy the one writer is.",
		}),
		fieldChanges: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_order_field_changes_total",
			Help: "Changes of an order's own row (customer, addresses, shipping line, taxes, discount codes), by path: kept (one statement on the order this process kept, still current) or locked (a transaction on the locked row).",
		}, []string{"path"}),
		processCompletions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "checkoutd_order_process_completions_total",
			Help: "process_order's last transactions (every payment authorized), by path: reserved (conditional updates of the rows as the order's reservation left them) or locked (the rows locked and read again, one having moved on).",
		}, []string{"path"}),
	}
	m.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.attempts, m.deliveries, m.latency, m.writeTxs, m.writeTxSeconds, m.fieldChanges, m.processCompletions, queueCollector{s})
	return m
}

// Metrics is what /metrics serves.
func (s *Service) Metrics() prometheus.Gatherer { return s.metrics.registry }

func (m *metrics) observeAttempt(topic string, res webhook.Result, final webhookdelivery.Status) {
	outcome := "success"
	if res.Err != nil {
		switch res.Err.Kind {
		case webhook.KindStatus:
			outcome = "http_error"
		case webhook.KindTimeout:
			outcome = "timeout"
		default:
			outcome = "connection_error"
		}
	}
	m.attempts.WithLabelValues(topic, outcome).Inc()
	m.latency.WithLabelValues(topic).Observe(res.Latency.Seconds())
	if final != webhookdelivery.StatusPending {
		m.deliveries.WithLabelValues(topic, final.String()).Inc()
	}
}

// queueCollector reads the depth of the job queue and of pending deliveries from the database
// at each scrape: the queue is shared by every checkoutd process, so no one process could
// count it.
type queueCollector struct{ s *Service }

var (
	queueDepthDesc = prometheus.NewDesc("checkoutd_job_queue_depth",
		"Jobs in the queue not yet done, by kind and state (available, scheduled, retryable, running, pending).",
		[]string{"kind", "state"}, nil)
	pendingDeliveriesDesc = prometheus.NewDesc("checkoutd_webhook_deliveries_pending",
		"Webhook deliveries still being attempted.", nil, nil)
)

func (queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- queueDepthDesc
	ch <- pendingDeliveriesDesc
}

func (c queueCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.collectJobs(ctx, ch); err != nil {
		c.s.log.Warn("metrics: reading the job queue", "error", err)
	}
	pending, err := c.s.db.Read.WebhookDelivery.Query().Where(webhookdelivery.StatusEQ(webhookdelivery.StatusPending)).Count(ctx)
	if err != nil {
		c.s.log.Warn("metrics: counting pending deliveries", "error", err)
		return
	}
	ch <- prometheus.MustNewConstMetric(pendingDeliveriesDesc, prometheus.GaugeValue, float64(pending))
}

// collectJobs counts the queue's unfinished jobs. Its rows are closed before it returns: on
// SQLite they hold the one connection.
func (c queueCollector) collectJobs(ctx context.Context, ch chan<- prometheus.Metric) error {
	rows, err := c.s.db.SQL.QueryContext(ctx, `SELECT kind, state, count(*) FROM river_job
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
