package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/checkoutd/checkoutd/service"
)

// metricsHandler serves svc's metrics at GET /metrics, and nothing else.
func metricsHandler(svc *service.Service) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(svc.Metrics(), promhttp.HandlerOpts{}))
	return mux
}

// serveMetrics serves svc's metrics on their own listener at addr (none when empty), until the
// function it returns is called. A listener that cannot be opened (the port taken) is logged
// and checkoutd serves on without it: the metrics are not what the shops depend on, and a
// scraper that finds nothing is how the operator hears of it, besides the log.
func serveMetrics(svc *service.Service, addr string) (stop func()) {
	if addr == "" {
		return func() {}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		slog.Error("metrics are not served: their listener did not open; checkoutd serves on without it", "addr", addr, "error", err)
		return func() {}
	}
	srv := &http.Server{Handler: metricsHandler(svc), ReadHeaderTimeout: 10 * time.Second}
	slog.Info("metrics listening", "addr", ln.Addr().String())
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("metrics listener stopped", "error", err)
		}
	}()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
}
