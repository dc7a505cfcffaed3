// Command gateway is an example external payment gateway for checkoutd: it answers checkoutd's
// signed /retain, /auth, /capture, /refund and /void calls, keeps its state in memory, honours
// Idempotency-Key, and declines the card token "tok_decline". See README.md.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"
)

func main() {
	addr := flag.String("addr", envOr("GATEWAY_ADDR", "127.0.0.1:8090"), "listen address (env GATEWAY_ADDR)")
	token := flag.String("api-token", os.Getenv("GATEWAY_API_TOKEN"), "the api_token checkoutd signs calls with (env GATEWAY_API_TOKEN; required)")
	flag.Parse()
	if *token == "" {
		fmt.Fprintln(os.Stderr, "gateway: set GATEWAY_API_TOKEN (or -api-token) to the api_token you register with checkoutd")
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	log.Info("example payment gateway listening", "base_url", "http://"+*addr, "decline_token", DeclineToken)
	srv := &http.Server{Addr: *addr, Handler: newGateway(*token, log), ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		log.Error("serving", "error", err)
		os.Exit(1)
	}
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
