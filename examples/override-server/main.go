// Command override-server is an example API override server for checkoutd: one URL that
// answers all five override types (address_validate, shipping, discount, inventory, tax),
// verifying each call's X-HMAC signature with the override's shared secret. See README.md and
// docs/overrides.md.
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
	addr := flag.String("addr", envOr("OVERRIDE_ADDR", "127.0.0.1:8092"), "listen address (env OVERRIDE_ADDR)")
	secret := flag.String("shared-secret", os.Getenv("OVERRIDE_SHARED_SECRET"), "the shared_secret you register the overrides with (env OVERRIDE_SHARED_SECRET; required)")
	flag.Parse()
	if *secret == "" {
		fmt.Fprintln(os.Stderr, "override-server: set OVERRIDE_SHARED_SECRET (or -shared-secret) to the shared_secret you register with checkoutd")
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	log.Info("example override server listening", "url", "http://"+*addr)
	srv := &http.Server{Addr: *addr, Handler: newServer(*secret, log), ReadHeaderTimeout: 10 * time.Second}
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
