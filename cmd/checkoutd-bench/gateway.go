package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/checkoutd/checkoutd/service/httpsig"
)

const (
	gatewayToken    = "bench-gateway-token"
	gatewayProvider = "bench"
)

// gateway is an external payment gateway that answers at once, so that the benchmark measures
// checkoutd and not a payment network. It checks every signature like a real one, and counts
// what it captured and refunded, so the contention benchmark can prove the money is exact.
type gateway struct {
	URL      string
	srv      *http.Server
	seq      atomic.Int64
	badSigs  atomic.Int64
	mu       sync.Mutex
	captured int64
	refunded int64
	seen     map[string]any // by Idempotency-Key: the first answer, replayed
}

func startGateway() (*gateway, error) {
	g := &gateway{seen: map[string]any{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /epg/{op}", g.handle)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	g.URL = "http://" + ln.Addr().String() + "/epg"
	g.srv = &http.Server{Handler: mux}
	go func() { _ = g.srv.Serve(ln) }()
	return g, nil
}

func (g *gateway) handle(w http.ResponseWriter, r *http.Request) {
	if err := httpsig.Verify(r, "Authorization", []byte(gatewayToken), 5*time.Minute, time.Now()); err != nil {
		g.badSigs.Add(1)
		http.Error(w, `{"error_code":"unauthorized"}`, http.StatusUnauthorized)
		return
	}
	var body struct {
		Amount int64 `json:"amount"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	key := r.Header.Get("Idempotency-Key")
	g.mu.Lock()
	out, replay := g.seen[key]
	if !replay {
		id := fmt.Sprintf("%s_%d", r.PathValue("op"), g.seq.Add(1))
		switch r.PathValue("op") {
		case "auth":
			out = map[string]any{"authorization_id": id}
		case "capture":
			g.captured += body.Amount
			out = map[string]any{"transaction_id": id}
		case "refund":
			g.refunded += body.Amount
			out = map[string]any{"transaction_id": id}
		default:
			out = map[string]any{}
		}
		if key != "" {
			g.seen[key] = out
		}
	}
	g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func (g *gateway) totals() (captured, refunded int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.captured, g.refunded
}

func (g *gateway) stop() { _ = g.srv.Close() }
