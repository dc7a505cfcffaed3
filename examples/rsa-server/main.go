// Command rsa-server is an example remote state authority (RSA) for checkoutd: it answers
// checkoutd's signed process_order_events, validate_address, validate_email_address,
// validate_discount_code and validate_inventory calls, applies each event to the order state it
// is sent, and keeps nothing between calls. See README.md.
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
	addr := flag.String("addr", envOr("RSA_ADDR", "127.0.0.1:8091"), "listen address (env RSA_ADDR)")
	secret := flag.String("shared-secret", os.Getenv("RSA_SHARED_SECRET"), "the shared_secret of the shop's rsa_config (env RSA_SHARED_SECRET; required)")
	flag.Parse()
	if *secret == "" {
		fmt.Fprintln(os.Stderr, "rsa-server: set RSA_SHARED_SECRET (or -shared-secret) to the shared_secret you configure in checkoutd")
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	log.Info("example remote state authority listening", "url", "http://"+*addr)
	srv := &http.Server{Addr: *addr, Handler: newAuthority(*secret, log), ReadHeaderTimeout: 10 * time.Second}
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
