package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"runtime/debug"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/web"
	demopage "github.com/checkoutd/checkoutd/web/demo"
)

// newHandler is the whole public HTTP surface of checkoutd. Its metrics are served on a listener
// of their own (metrics.go).
func newHandler(svc *service.Service, graphOpts ...graph.Option) http.Handler {
	mux := http.NewServeMux()
	rest.Register(mux, svc)
	mux.Handle("/graphql", graph.Handler(svc, append([]graph.Option{graph.WithGraphiQL(web.GraphiQL())}, graphOpts...)...))
	web.Register(mux, svc)
	demopage.Register(mux)
	return rest.CommonMeasured(mux, rest.NewHTTPMetrics(svc.MetricsRegisterer()))
}

// defaultGCPercent is the garbage collector's target when GOGC is not set.
const defaultGCPercent = 400

// serveCmd serves until SIGINT or SIGTERM, then lets in-flight requests finish.
type serveCmd struct{}

func (serveCmd) Help() string {
	return "Applies pending migrations first unless --no-migrate (CHECKOUT_MIGRATE=false), then serves on --addr, with metrics and profiles on their own addresses."
}

func (serveCmd) Run(ctx context.Context, cfg *config) error {
	if os.Getenv("GOGC") == "" {
		// A request allocates a few hundred kilobytes and keeps none of it, so the heap that
		// survives a collection is small; Go's default (collect when the heap has doubled) then
		// collects so often that it costs a tenth of a busy server's CPU. GOGC overrides this.
		debug.SetGCPercent(defaultGCPercent)
	}
	db, err := cfg.openDatabaseWithSecrets()
	if err != nil {
		return err
	}
	defer db.Close()
	if cfg.Migrate {
		if err := db.Migrate(ctx); err != nil {
			return err
		}
	}
	svc := service.New(db,
		service.WithWebhookRetryBase(cfg.WebhookRetryBase),
		service.WithWebhookTimeout(cfg.WebhookTimeout),
		service.WithWebhookMaxAttempts(cfg.WebhookMaxAttempts),
		service.WithJobPollInterval(cfg.JobPollInterval),
		service.WithSubscriptionSweepInterval(cfg.SubscriptionSweepInterval),
		service.WithOutboundAllowPrivate(cfg.OutboundAllowPrivate),
		service.WithLogger(slog.Default()),
		service.WithSMTP(cfg.SMTPURL))
	if err := cfg.applyRetention(svc); err != nil {
		return err
	}
	if err := prepareSecrets(ctx, svc); err != nil {
		return err
	}
	if addr := cfg.PprofAddr; addr != "" {
		// Profiles on a separate listener, never on the public one.
		go func() { slog.Warn("pprof stopped", "error", http.ListenAndServe(addr, pprofMux())) }()
	}
	stopMetrics := serveMetrics(svc, cfg.MetricsAddr)
	defer stopMetrics()
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
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newHandler(svc, graph.WithIntrospection(cfg.GraphQLIntrospection)), ReadHeaderTimeout: 10 * time.Second}
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

// settleAfterRestartTimeout bounds the settling at start-up (each gateway call has its own timeout).
const settleAfterRestartTimeout = 30 * time.Second
