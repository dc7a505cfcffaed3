package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/web"
)

// newHandler is the whole HTTP surface of checkoutd.
func newHandler(svc *service.Service) http.Handler {
	mux := http.NewServeMux()
	rest.Register(mux, svc)
	mux.Handle("/graphql", graph.Handler(svc))
	web.Register(mux)
	return rest.Common(mux)
}

func serve(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	noMigrate := fs.Bool("no-migrate", false, "do not apply pending migrations at start")
	if err := fs.Parse(args); err != nil {
		return err
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
	svc := service.New(db, service.WithLogger(slog.Default()))
	addr := envOr("CHECKOUT_ADDR", "127.0.0.1:8080")
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newHandler(svc), ReadHeaderTimeout: 10 * time.Second}
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
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
