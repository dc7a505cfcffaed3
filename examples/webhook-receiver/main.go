// Command webhook-receiver is an example receiver of checkoutd's webhooks: it checks each
// callback's signature with the shop's shared secret (401 when it is bad or stale), answers 200 at
// once, acknowledges an event id it has seen without handling it again, and logs each event.
// See README.md.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"
)

func main() {
	addr := flag.String("addr", envOr("WEBHOOK_ADDR", "127.0.0.1:8091"), "listen address (env WEBHOOK_ADDR)")
	secret := flag.String("shared-secret", os.Getenv("WEBHOOK_SHARED_SECRET"), "the shop's shared secret (env WEBHOOK_SHARED_SECRET; required)")
	flag.Parse()
	if *secret == "" {
		fmt.Fprintln(os.Stderr, "webhook-receiver: set WEBHOOK_SHARED_SECRET (or -shared-secret) to the shared secret configured in checkoutd")
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	rc := newReceiver(*secret, log)
	go rc.work(nil, func(ev event) { logEvent(log, ev) }) // nil: it works as long as the process runs
	log.Info("example webhook receiver listening", "callback_url", "http://"+*addr+"/hooks/checkout")
	srv := &http.Server{Addr: *addr, Handler: rc, ReadHeaderTimeout: 10 * time.Second}
	if err := srv.ListenAndServe(); err != nil {
		log.Error("serving", "error", err)
		os.Exit(1)
	}
}

// logEvent is this example's work: one log line per event. The data of gift_card/created holds
// the card's pin, so the data itself is not logged.
func logEvent(log *slog.Logger, ev event) {
	var data struct {
		PublicOrderID   string `json:"public_order_id"`
		PlatformOrderID string `json:"platform_order_id"`
		Reason          string `json:"reason"`
	}
	_ = json.Unmarshal(ev.Data, &data)
	attrs := []any{"event_id", ev.EventID, "topic", ev.Topic, "shop", ev.ShopIdentifier, "created_at", ev.CreatedAt}
	if data.PublicOrderID != "" {
		attrs = append(attrs, "public_order_id", data.PublicOrderID)
	}
	if data.PlatformOrderID != "" {
		attrs = append(attrs, "platform_order_id", data.PlatformOrderID)
	}
	if data.Reason != "" {
		attrs = append(attrs, "reason", data.Reason)
	}
	log.Info("event", attrs...)
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
