package webhooks

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent/webhookdelivery"
	"github.com/checkoutd/checkoutd/service/webhook"
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the webhook deliveries' Prometheus metrics.
type metrics struct {
	attempts   *prometheus.CounterVec
	deliveries *prometheus.CounterVec
	latency    *prometheus.HistogramVec
}

func newMetrics(s *Service) *metrics {
	m := &metrics{
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
	}
	s.p.Metrics.MustRegister(m.attempts, m.deliveries, m.latency, pendingDeliveries{s})
	return m
}

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

// pendingDeliveries reads the number of pending deliveries from the database at each scrape:
// deliveries are shared by every checkoutd process, so no one process could count them.
type pendingDeliveries struct{ s *Service }

var pendingDeliveriesDesc = prometheus.NewDesc("checkoutd_webhook_deliveries_pending",
	"Webhook deliveries still being attempted.", nil, nil)

func (pendingDeliveries) Describe(ch chan<- *prometheus.Desc) { ch <- pendingDeliveriesDesc }

func (c pendingDeliveries) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pending, err := c.s.p.DB.Read.WebhookDelivery.Query().Where(webhookdelivery.StatusEQ(webhookdelivery.StatusPending)).Count(ctx)
	if err != nil {
		c.s.p.Log.Warn("metrics: counting pending deliveries", "error", err)
		return
	}
	ch <- prometheus.MustNewConstMetric(pendingDeliveriesDesc, prometheus.GaugeValue, float64(pending))
}
