// Package webhooks is the webhook domain: subscriptions, the deliveries of the events the outbox
// records (signed callbacks, retries, ordering per order and receiver, attempts, replay), and
// the subscriptions' health.
package webhooks

import (
	"time"

	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/webhook"
)

// Config is how callbacks are made and retried.
type Config struct {
	// Timeout bounds each callback (webhook.DefaultTimeout if zero).
	Timeout time.Duration
	// RetryBase is the wait before the first retry (DefaultRetryBase if zero).
	RetryBase time.Duration
	// MaxAttempts is how many attempts a delivery gets before it is failed (DefaultMaxAttempts
	// if zero).
	MaxAttempts int
	// Outbound is the policy callback URLs are checked against, when configured and when called.
	Outbound outbound.Policy
}

// Service owns the webhook subscriptions and deliveries: their rules and their tables' writes.
type Service struct {
	p             *platform.Platform
	shops         *shops.Service
	client        *webhook.Client
	outbound      outbound.Policy
	retryBase     time.Duration
	maxAttempts   int
	subscriptions platform.FreshCache[int, []subscribedTopic]
	metrics       *metrics
}

// New returns the webhook domain: it subscribes to the outbox, and registers its delivery
// worker and queue with the job queue.
func New(p *platform.Platform, sh *shops.Service, cfg Config) *Service {
	if cfg.Timeout == 0 {
		cfg.Timeout = webhook.DefaultTimeout
	}
	if cfg.RetryBase == 0 {
		cfg.RetryBase = DefaultRetryBase
	}
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	s := &Service{p: p, shops: sh, outbound: cfg.Outbound, retryBase: cfg.RetryBase, maxAttempts: cfg.MaxAttempts,
		// Signatures carry the wall-clock Date the receiver checks, whatever the service clock says.
		client: webhook.New(cfg.Timeout, time.Now, cfg.Outbound)}
	s.metrics = newMetrics(s)
	s.watchSubscriptions()
	p.Outbox.Subscribe(deliveriesOfEvents{s})
	platform.AddWorker(p.Jobs, &deliveryWorker{s: s})
	// Webhook callbacks mostly wait on the network, so many run at once. The queue also hands
	// out jobs a batch at a time, at most one batch per fetch (every 20 ms while there is work),
	// and a batch only fills free workers: delivery can go no faster than workers / 20 ms.
	// Measured under the benchmark's checkouts (6 deliveries each): on SQLite 32 workers fell
	// behind at about 940 deliveries/s, the delay growing to seconds, where 64 kept up at 1,230/s
	// with p99 under 0.4 s and drained a backlog at about 1,800/s (32: 1,070/s); 128 did no
	// better. The workers mostly wait: on SQLite their writes queue for the one writer anyway.
	const webhookWorkers = 64
	p.Jobs.AddQueue(queueWebhooks, webhookWorkers)
	p.Jobs.AddRetention(s.retentionRule())
	return s
}

// Queue names.
const queueWebhooks = "webhooks"
