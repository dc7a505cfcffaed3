package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
)

// keepFor is how long a kind of record is kept: a Go duration (72h) or whole days (30d), the
// unit retention is thought of in.
type keepFor time.Duration

func (k *keepFor) UnmarshalText(b []byte) error {
	v := string(b)
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a whole number of days like 30d", v)
		}
		*k = keepFor(time.Duration(n) * 24 * time.Hour)
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("%q is not a duration like 30d or 72h", v)
	}
	*k = keepFor(d)
	return nil
}

func (k keepFor) String() string {
	d := time.Duration(k)
	// Weeks and longer read best in days (30d), shorter times in hours (48h).
	if d >= 7*24*time.Hour && d%(24*time.Hour) == 0 {
		return strconv.Itoa(int(d/(24*time.Hour))) + "d"
	}
	if d%time.Hour == 0 {
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return d.String()
}

// retentionSetting is one retention setting with the records it names and its least value.
type retentionSetting struct {
	records, flag, env string
	keep               keepFor
	min                time.Duration
}

func (c *config) retention() []retentionSetting {
	return []retentionSetting{
		{"webhook_deliveries", "retention-webhook-deliveries", "CHECKOUT_RETENTION_WEBHOOK_DELIVERIES", c.RetentionWebhookDeliveries, time.Hour},
		{"connector_calls", "retention-connector-calls", "CHECKOUT_RETENTION_CONNECTOR_CALLS", c.RetentionConnectorCalls, time.Hour},
		{"remote_exchanges", "retention-remote-exchanges", "CHECKOUT_RETENTION_REMOTE_EXCHANGES", c.RetentionRemoteExchanges, time.Hour},
		{"idempotency_records", "retention-idempotency-records", "CHECKOUT_RETENTION_IDEMPOTENCY_RECORDS", c.RetentionIdempotencyRecords, checkout.IdempotencyKeyLifetime},
	}
}

// applyRetention gives svc the retention settings.
func (c *config) applyRetention(svc *service.Service) error {
	for _, r := range c.retention() {
		if err := svc.SetRetention(r.records, time.Duration(r.keep)); err != nil {
			return fmt.Errorf("--%s (%s): %w", r.flag, r.env, err)
		}
	}
	return nil
}
