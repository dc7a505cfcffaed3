// Command platform is an example store platform's connector server for checkoutd: it answers
// checkoutd's signed calls for customers, addresses, orders and products, keeps its state in
// memory, and refuses any call not signed with the shared secret. See README.md and
// docs/platform-connector.md; the server itself is package platformserver.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
)

func main() {
	addr := flag.String("addr", envOr("PLATFORM_ADDR", "127.0.0.1:8091"), "listen address (env PLATFORM_ADDR)")
	secret := flag.String("shared-secret", os.Getenv("PLATFORM_SHARED_SECRET"), "the shared secret checkoutd signs calls with, for every shop (env PLATFORM_SHARED_SECRET; required)")
	seedShop := flag.String("seed-shop", envOr("PLATFORM_SEED_SHOP", "demo-shop"), "shop the seeded customers belong to (env PLATFORM_SEED_SHOP)")
	seedN := flag.Int("seed-customers", envInt("PLATFORM_SEED_CUSTOMERS", 0), "customers to create at start, for a sync to find (env PLATFORM_SEED_CUSTOMERS)")
	flag.Parse()
	if *secret == "" {
		fmt.Fprintln(os.Stderr, "platform: set PLATFORM_SHARED_SECRET (or -shared-secret) to the shared secret you give checkoutd")
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	srv := platformserver.New(map[string][]byte{platformserver.AnyShop: []byte(*secret)}, platformserver.WithLogger(log))
	if *seedN > 0 {
		srv.SeedCustomers(*seedShop, *seedN)
		log.Info("seeded customers", "shop", *seedShop, "count", *seedN)
	}
	log.Info("example platform connector listening", "destination", "http://"+*addr, "version", platformserver.Version)
	hs := &http.Server{Addr: *addr, Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	if err := hs.ListenAndServe(); err != nil {
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

func envInt(name string, fallback int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return fallback
}
