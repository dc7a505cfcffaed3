package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/service"
)

// retentionVariables name, for each kind of record the retention job deletes when old, the
// variable that says how long it is kept.
var retentionVariables = map[string]string{
	"webhook_deliveries":  "CHECKOUT_RETENTION_WEBHOOK_DELIVERIES",
	"connector_calls":     "CHECKOUT_RETENTION_CONNECTOR_CALLS",
	"idempotency_records": "CHECKOUT_RETENTION_IDEMPOTENCY_RECORDS",
}

// applyRetention reads the retention variables into svc.
func applyRetention(svc *service.Service) error {
	for name, variable := range retentionVariables {
		v := os.Getenv(variable)
		if v == "" {
			continue
		}
		keep, err := parseDays(v)
		if err != nil {
			return fmt.Errorf("%s must be a duration like 30d or 72h, not %q", variable, v)
		}
		if err := svc.SetRetention(name, keep); err != nil {
			return fmt.Errorf("%s: %w", variable, err)
		}
	}
	return nil
}

// parseDays is time.ParseDuration that also takes whole days (30d), the unit retention is
// thought of in.
func parseDays(v string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("bad number of days %q", days)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("bad duration %q", v)
	}
	return d, nil
}
