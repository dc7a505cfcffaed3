package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"reflect"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/alecthomas/kong"

	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/remotelog"
	"github.com/checkoutd/checkoutd/service/subscription"
	"github.com/checkoutd/checkoutd/service/webhook"
	"github.com/checkoutd/checkoutd/service/webhooks"
)

// config is checkoutd's whole configuration, the one value every command takes. Each setting
// comes from its flag, else its environment variable, else its default; a variable that is set
// counts even when empty (CHECKOUT_METRICS_ADDR= turns metrics off). Settings tagged secret are
// masked wherever they are shown: a URL's password (secret:"url"), or the whole value (secret:"value").
type config struct {
	DatabaseURL string `name:"database-url" env:"CHECKOUT_DATABASE_URL" default:"file:checkout.db" placeholder:"URL" secret:"url" group:"database" help:"file:PATH for the embedded SQLite database, or postgres://user:password@host/db for PostgreSQL."`

	Addr                 string `name:"addr" env:"CHECKOUT_ADDR" default:"127.0.0.1:8080" placeholder:"HOST:PORT" group:"serve" help:"Public listen address: REST, GraphQL, the admin console."`
	Migrate              bool   `name:"migrate" env:"CHECKOUT_MIGRATE" default:"true" negatable:"" group:"serve" help:"Apply pending migrations when serve starts; --no-migrate leaves them to checkoutd migrate."`
	MetricsAddr          string `name:"metrics-addr" env:"CHECKOUT_METRICS_ADDR" default:"127.0.0.1:9090" placeholder:"HOST:PORT" group:"serve" help:"Listen address of /metrics (Prometheus), apart from the public one; empty turns it off."`
	PprofAddr            string `name:"pprof-addr" env:"CHECKOUT_PPROF_ADDR" placeholder:"HOST:PORT" group:"serve" help:"Listen address of Go's profiles (/debug/pprof/), never the public one; empty (the default) turns them off."`
	GraphQLIntrospection bool   `name:"graphql-introspection" env:"CHECKOUT_GRAPHQL_INTROSPECTION" default:"true" negatable:"" group:"serve" help:"Let GraphQL clients read the schema (__schema, __type)."`
	OutboundAllowPrivate bool   `name:"outbound-allow-private" env:"CHECKOUT_OUTBOUND_ALLOW_PRIVATE" default:"false" negatable:"" group:"serve" help:"Let calls to configured URLs reach private and loopback addresses (development); link-local and metadata addresses stay refused."`
	SMTPURL              string `name:"smtp-url" env:"CHECKOUT_SMTP_URL" placeholder:"URL" secret:"url" group:"serve" help:"smtp://user:password@host:port?from=shop@example.com for refund and abandoned-cart emails; empty sends none."`

	WebhookRetryBase   time.Duration `name:"webhook-retry-base" env:"CHECKOUT_WEBHOOK_RETRY_BASE" default:"${webhook_retry_base}" placeholder:"DURATION" group:"jobs" help:"Wait before a failed webhook's first retry; each wait doubles."`
	WebhookTimeout     time.Duration `name:"webhook-timeout" env:"CHECKOUT_WEBHOOK_TIMEOUT" default:"${webhook_timeout}" placeholder:"DURATION" group:"jobs" help:"How long one webhook callback may take."`
	WebhookMaxAttempts int           `name:"webhook-max-attempts" env:"CHECKOUT_WEBHOOK_MAX_ATTEMPTS" default:"${webhook_max_attempts}" placeholder:"N" group:"jobs" help:"Attempts before a delivery is failed (about 3 days with the defaults)."`
	JobPollInterval    time.Duration `name:"job-poll-interval" env:"CHECKOUT_JOB_POLL_INTERVAL" default:"${job_poll_interval}" placeholder:"DURATION" group:"jobs" help:"How often idle workers look for new jobs."`

	SubscriptionSweepInterval time.Duration `name:"subscription-sweep-interval" env:"CHECKOUT_SUBSCRIPTION_SWEEP_INTERVAL" default:"${subscription_sweep_interval}" placeholder:"DURATION" group:"jobs" help:"How often due subscriptions are placed (at least 1s): each within this of its next_order_datetime."`

	RetentionWebhookDeliveries  keepFor `name:"retention-webhook-deliveries" env:"CHECKOUT_RETENTION_WEBHOOK_DELIVERIES" default:"${retention_webhook_deliveries}" placeholder:"DURATION" group:"retention" help:"How long a finished webhook delivery and its attempts are kept (at least 1h); 30d or 72h."`
	RetentionConnectorCalls     keepFor `name:"retention-connector-calls" env:"CHECKOUT_RETENTION_CONNECTOR_CALLS" default:"${retention_connector_calls}" placeholder:"DURATION" group:"retention" help:"How long a finished platform connector call and its attempts are kept (at least 1h)."`
	RetentionRemoteExchanges    keepFor `name:"retention-remote-exchanges" env:"CHECKOUT_RETENTION_REMOTE_EXCHANGES" default:"${retention_remote_exchanges}" placeholder:"DURATION" group:"retention" help:"How long an exchange with a remote state authority or API override is kept in the support log (at least 1h)."`
	RetentionIdempotencyRecords keepFor `name:"retention-idempotency-records" env:"CHECKOUT_RETENTION_IDEMPOTENCY_RECORDS" default:"${retention_idempotency_records}" placeholder:"DURATION" group:"retention" help:"How long an idempotency record is kept (at least the 24h a key replays)."`

	LogFormat string `name:"log-format" env:"CHECKOUT_LOG_FORMAT" default:"text" enum:"text,json" placeholder:"FORMAT" group:"logs" help:"Log line format: text or json."`
	LogLevel  string `name:"log-level" env:"CHECKOUT_LOG_LEVEL" default:"info" enum:"debug,info,warn,error" placeholder:"LEVEL" group:"logs" help:"Least severe level logged: debug, info, warn or error."`

	SecretKey         string `name:"secret-key" env:"CHECKOUT_SECRET_KEY" placeholder:"BASE64" secret:"value" group:"secrets" help:"32 random bytes in base64: the key that encrypts the secrets stored in the database. Required with PostgreSQL; with SQLite, unset, a key file beside the database is made and used."`
	SecretKeyPrevious string `name:"secret-key-previous" env:"CHECKOUT_SECRET_KEY_PREVIOUS" placeholder:"BASE64,..." secret:"value" group:"secrets" help:"Older keys, comma-separated, still read (never written) until secrets rotate has re-encrypted everything under --secret-key."`
}

// configVars are the defaults that live beside the code they configure, so help and behaviour agree.
var configVars = kong.Vars{
	"webhook_retry_base":   webhooks.DefaultRetryBase.String(),
	"webhook_timeout":      webhook.DefaultTimeout.String(),
	"webhook_max_attempts": fmt.Sprint(webhooks.DefaultMaxAttempts),
	"job_poll_interval":    platform.DefaultJobPollInterval.String(),

	"subscription_sweep_interval": subscription.DefaultSweepInterval.String(),

	"retention_webhook_deliveries":  keepFor(webhooks.DeliveryRetention).String(),
	"retention_connector_calls":     keepFor(connector.CallRetention).String(),
	"retention_remote_exchanges":    keepFor(remotelog.Retention).String(),
	"retention_idempotency_records": keepFor(checkout.IdempotencyRecordRetention).String(),
}

var configGroups = kong.Groups{
	"database":  "Database:",
	"serve":     "Serving (serve):",
	"jobs":      "Webhooks and jobs (serve):",
	"retention": "Retention (serve):",
	"logs":      "Logs:",
	"secrets":   "Secrets:",
}

// Validate refuses what kong's types let through but no command could use, so a malformed
// setting is a usage error (exit status 2) before anything is opened.
func (c *config) Validate() error {
	if err := checkDatabaseURL(c.DatabaseURL); err != nil {
		return err
	}
	if c.Addr == "" {
		return errors.New("--addr (CHECKOUT_ADDR) must not be empty")
	}
	for _, d := range []struct {
		flag, env string
		value     time.Duration
	}{
		{"webhook-retry-base", "CHECKOUT_WEBHOOK_RETRY_BASE", c.WebhookRetryBase},
		{"webhook-timeout", "CHECKOUT_WEBHOOK_TIMEOUT", c.WebhookTimeout},
		{"job-poll-interval", "CHECKOUT_JOB_POLL_INTERVAL", c.JobPollInterval},
	} {
		if d.value <= 0 {
			return fmt.Errorf("--%s (%s) must be a positive duration like 10s, not %s", d.flag, d.env, d.value)
		}
	}
	for _, r := range c.retention() {
		if time.Duration(r.keep) < r.min {
			return fmt.Errorf("--%s (%s) must be at least %s, not %s", r.flag, r.env, keepFor(r.min), r.keep)
		}
	}
	if c.SubscriptionSweepInterval < time.Second {
		return fmt.Errorf("--subscription-sweep-interval (CHECKOUT_SUBSCRIPTION_SWEEP_INTERVAL) must be at least 1s, not %s", c.SubscriptionSweepInterval)
	}
	if c.WebhookMaxAttempts < 1 {
		return fmt.Errorf("--webhook-max-attempts (CHECKOUT_WEBHOOK_MAX_ATTEMPTS) must be at least 1, not %d", c.WebhookMaxAttempts)
	}
	return nil
}

// checkDatabaseURL accepts what platform.OpenDatabase opens, and says so without echoing a password.
func checkDatabaseURL(raw string) error {
	const want = "--database-url (CHECKOUT_DATABASE_URL) must be file:PATH or postgres://user:password@host/db"
	switch {
	case strings.HasPrefix(raw, "file:"):
		if strings.TrimPrefix(raw, "file:") == "" {
			return errors.New(want + ", not file: without a path")
		}
		return nil
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		if _, err := url.Parse(raw); err != nil {
			return errors.New(want + ": this postgres:// URL does not parse")
		}
		return nil
	case raw == "":
		return errors.New(want + ", not empty")
	}
	scheme, _, ok := strings.Cut(raw, ":")
	if !ok || strings.ContainsAny(scheme, "/@ ") {
		return errors.New(want + ", not a value without a scheme")
	}
	return fmt.Errorf("%s, not %s:...", want, scheme)
}

// sqlite reports whether the database is the embedded one.
func (c *config) sqlite() bool { return strings.HasPrefix(c.DatabaseURL, "file:") }

func (c *config) logger(w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(c.LogLevel)) // kong's enum has checked it
	opts := &slog.HandlerOptions{Level: level}
	if c.LogFormat == "json" {
		return slog.New(platform.RequestIDHandler(slog.NewJSONHandler(w, opts)))
	}
	return slog.New(platform.RequestIDHandler(slog.NewTextHandler(w, opts)))
}

func (c *config) openDatabase() (*platform.Database, error) {
	return platform.OpenDatabase(c.DatabaseURL)
}

// openDatabaseWithSecrets opens the database for a command that reads or writes shops: the key
// ring that opens their stored secrets is installed first.
func (c *config) openDatabaseWithSecrets() (*platform.Database, error) {
	if err := installSecretKeys(c.DatabaseURL, c.SecretKey, c.SecretKeyPrevious); err != nil {
		return nil, err
	}
	return c.openDatabase()
}

// configCmd prints the effective configuration.
type configCmd struct{}

func (configCmd) Help() string {
	return "One line per setting: its environment variable, its value (passwords and keys masked) and where the value came from (flag, environment or default)."
}

func (configCmd) Run(kctx *kong.Context, stdout io.Writer) error {
	fromFlag := map[*kong.Flag]bool{}
	for _, p := range kctx.Path {
		if p.Flag != nil && !p.Resolved {
			fromFlag[p.Flag] = true
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, f := range configFlags(kctx.Model) {
		env := f.Tag.Envs[0]
		source := "default"
		if fromFlag[f] {
			source = "flag --" + f.Name
		} else if _, ok := os.LookupEnv(env); ok {
			source = "environment"
		}
		fmt.Fprintf(tw, "%s=%s\t# %s\n", env, shown(f, f.Target), source)
	}
	return tw.Flush()
}

// configFlags are the settings of config, in the order they are declared.
func configFlags(app *kong.Application) []*kong.Flag {
	var flags []*kong.Flag
	for _, f := range app.Flags {
		if len(f.Tag.Envs) > 0 {
			flags = append(flags, f)
		}
	}
	return flags
}

// shown is a setting's value as printed: a secret URL keeps all but its password, any other
// secret shows only whether it is set.
func shown(f *kong.Flag, v reflect.Value) string {
	s := fmt.Sprint(v.Interface())
	switch {
	case s == "" || !f.Tag.Has("secret"):
		return s
	case f.Tag.Get("secret") == "url":
		return maskURL(s)
	}
	return "(set, masked)"
}

// maskURL hides a URL's password, in its user part or in a password query parameter.
func maskURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(set, masked: not a URL)"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}
