package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"entgo.io/ent/dialect"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/web"
	demopage "github.com/checkoutd/checkoutd/web/demo"
)

// newHandler is the whole HTTP surface of checkoutd.
func newHandler(svc *service.Service, graphOpts ...graph.Option) http.Handler {
	mux := http.NewServeMux()
	rest.Register(mux, svc)
	mux.Handle("/graphql", graph.Handler(svc, append([]graph.Option{graph.WithGraphiQL(web.GraphiQL())}, graphOpts...)...))
	mux.Handle("GET /metrics", promhttp.HandlerFor(svc.Metrics(), promhttp.HandlerOpts{}))
	web.Register(mux, svc)
	demopage.Register(mux)
	return rest.Common(mux)
}

// defaultGCPercent is the garbage collector's target when GOGC is not set.
const defaultGCPercent = 400

func serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	noMigrate := fs.Bool("no-migrate", false, "do not apply pending migrations at start")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if os.Getenv("GOGC") == "" {
		// A request allocates a few hundred kilobytes and keeps none of it, so the heap that
		// survives a collection is small; Go's default (collect when the heap has doubled) then
		// collects so often that it costs a tenth of a busy server's CPU. GOGC overrides this.
		debug.SetGCPercent(defaultGCPercent)
	}
	db, err := openDatabase()
	if err != nil {
		return err
	}
	defer db.Close()
	if !*noMigrate {
		if err := db.Migrate(ctx); err != nil {
			return err
		}
	}
	opts, err := webhookOptions()
	if err != nil {
		return err
	}
	allowPrivate, err := outboundAllowPrivate()
	if err != nil {
		return err
	}
	opts = append(opts, service.WithOutboundAllowPrivate(allowPrivate))
	introspection, err := graphqlIntrospection()
	if err != nil {
		return err
	}
	svc := service.New(db, append(opts, service.WithLogger(slog.Default()), service.WithSMTP(os.Getenv("CHECKOUT_SMTP_URL")))...)
	if err := prepareSecrets(ctx, svc); err != nil {
		return err
	}
	if addr := os.Getenv("CHECKOUT_PPROF_ADDR"); addr != "" {
		// Profiles on a separate listener, never on the public one.
		go func() { slog.Warn("pprof stopped", "error", http.ListenAndServe(addr, pprofMux())) }()
	}
	if db.Dialect == dialect.SQLite {
		// This process is the database's only one: what a process before it left in doubt (a
		// capture at its gateway when it was killed) is settled before anything is served.
		settleCtx, cancel := context.WithTimeout(ctx, settleAfterRestartTimeout)
		if err := svc.Checkout.SettleAfterRestart(settleCtx); err != nil {
			slog.Warn("settling what a stopped process left in doubt did not finish; the sweeps go on with it", "error", err)
		}
		cancel()
	}
	// The job queue (webhook deliveries, abandoned-cart emails, the periodic sweeps) runs beside the HTTP server
	// on its own goroutines and database connections, so a busy server does not stop it.
	if err := svc.StartJobs(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	addr := envOr("CHECKOUT_ADDR", "127.0.0.1:8080")
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newHandler(svc, graph.WithIntrospection(introspection)), ReadHeaderTimeout: 10 * time.Second}
	slog.Info("checkoutd listening", "addr", ln.Addr().String(), "dialect", db.Dialect)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	// In-flight requests get time to finish before the process exits.
	slog.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := svc.StopJobs(shutdownCtx); err != nil {
		return err
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func pprofMux() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// outboundAllowPrivate reads CHECKOUT_OUTBOUND_ALLOW_PRIVATE: true lets calls to configured
// URLs reach private, loopback and other non-public addresses (development, where a gateway or
// receiver runs on the same machine); unset or false refuses them. Link-local and metadata
// addresses are refused either way.
func outboundAllowPrivate() (bool, error) {
	v := os.Getenv("CHECKOUT_OUTBOUND_ALLOW_PRIVATE")
	if v == "" {
		return false, nil
	}
	allow, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("CHECKOUT_OUTBOUND_ALLOW_PRIVATE must be true or false, not %q", v)
	}
	return allow, nil
}

// settleAfterRestartTimeout bounds the settling at start-up (each gateway call has its own timeout).
const settleAfterRestartTimeout = 30 * time.Second

// graphqlIntrospection reads CHECKOUT_GRAPHQL_INTROSPECTION: unset or true lets GraphQL clients
// (GraphiQL, code generators) read the schema; false refuses __schema and __type, for an operator
// who would rather not publish the schema.
func graphqlIntrospection() (bool, error) {
	v := os.Getenv("CHECKOUT_GRAPHQL_INTROSPECTION")
	if v == "" {
		return true, nil
	}
	on, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("CHECKOUT_GRAPHQL_INTROSPECTION must be true or false, not %q", v)
	}
	return on, nil
}

// webhookOptions reads the webhook settings of the environment: CHECKOUT_WEBHOOK_RETRY_BASE
// (the wait before the first retry, 10s), CHECKOUT_WEBHOOK_TIMEOUT (one callback, 10s),
// CHECKOUT_WEBHOOK_MAX_ATTEMPTS (18) and CHECKOUT_JOB_POLL_INTERVAL (100ms).
func webhookOptions() ([]service.Option, error) {
	var opts []service.Option
	for _, d := range []struct {
		name string
		opt  func(time.Duration) service.Option
	}{
		{"CHECKOUT_WEBHOOK_RETRY_BASE", service.WithWebhookRetryBase},
		{"CHECKOUT_WEBHOOK_TIMEOUT", service.WithWebhookTimeout},
		{"CHECKOUT_JOB_POLL_INTERVAL", service.WithJobPollInterval},
	} {
		if v := os.Getenv(d.name); v != "" {
			dur, err := time.ParseDuration(v)
			if err != nil || dur <= 0 {
				return nil, fmt.Errorf("%s must be a positive duration like 10s, not %q", d.name, v)
			}
			opts = append(opts, d.opt(dur))
		}
	}
	if v := os.Getenv("CHECKOUT_WEBHOOK_MAX_ATTEMPTS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("CHECKOUT_WEBHOOK_MAX_ATTEMPTS must be a whole number of at least 1, not %q", v)
		}
		opts = append(opts, service.WithWebhookMaxAttempts(n))
	}
	return opts, nil
}
