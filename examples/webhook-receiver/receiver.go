package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
)

// keepSeen is how long an event id is remembered: checkoutd retries a delivery for about three
// days, and an operator may replay it later still.
const keepSeen = 7 * 24 * time.Hour

// queueSize bounds the events received and not yet handled. When it is full the receiver
// answers 503 and remembers nothing: checkoutd sends the event again later.
const queueSize = 1024

// maxBody bounds a callback's body; an order's application_state is its largest part.
const maxBody = 10 << 20

// event is a callback's body. data depends on the topic; for the order topics it holds
// public_order_id, platform_order_id and application_state (docs/webhooks.md).
type event struct {
	EventID        string          `json:"event_id"`
	Topic          string          `json:"topic"`
	ShopIdentifier string          `json:"shop_identifier"`
	CreatedAt      time.Time       `json:"created_at"`
	Data           json.RawMessage `json:"data"`
}

// receiver takes checkoutd's callbacks: it checks the signature, answers at once, and leaves the
// work to whoever reads its queue (work). Its memory of event ids is in this process only: a
// real receiver records an event id in the same database transaction as the work the event
// causes, so that a restart neither loses an event nor does its work twice.
type receiver struct {
	secret []byte
	log    *slog.Logger
	mux    *http.ServeMux
	queue  chan event

	mu     sync.Mutex
	seen   map[string]time.Time // event id → when it was first received
	pruned time.Time
}

// newReceiver returns the receiver's HTTP handler, which accepts callbacks signed with the
// shop's shared secret on any path.
func newReceiver(sharedSecret string, log *slog.Logger) *receiver {
	rc := &receiver{secret: []byte(sharedSecret), log: log, mux: http.NewServeMux(), queue: make(chan event, queueSize),
		seen: map[string]time.Time{}, pruned: time.Now()}
	rc.mux.HandleFunc("POST /", rc.receive)
	return rc
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) { rc.mux.ServeHTTP(w, r) }

func (rc *receiver) receive(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get("X-Webhook-Event-Id")
	logged := rc.log.With("event_id", id, "topic", r.Header.Get("X-Webhook-Topic"))
	if !verify(r, rc.secret) {
		// checkoutd retries a 401 like any failure: rotating the secret at both ends loses nothing.
		logged.Warn("refused: bad or stale signature")
		answer(w, http.StatusUnauthorized, map[string]any{"error": "invalid signature"})
		return
	}
	var ev event
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&ev); err != nil || id == "" || ev.EventID != id {
		logged.Warn("refused: not a checkoutd event", "error", err)
		answer(w, http.StatusBadRequest, map[string]any{"error": "the body is not an event, or its event_id is not X-Webhook-Event-Id"})
		return
	}
	status, body := rc.admit(ev, logged)
	answer(w, status, body)
}

// admit queues an event seen for the first time and answers what checkoutd is to be told.
func (rc *receiver) admit(ev event, logged *slog.Logger) (int, any) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if _, dup := rc.seen[ev.EventID]; dup {
		// Delivery is at least once: a retry after a lost answer, or a replay. Acknowledge it,
		// do nothing again.
		logged.Info("duplicate acknowledged")
		return http.StatusOK, map[string]any{"received": true, "duplicate": true}
	}
	select {
	case rc.queue <- ev:
	default:
		logged.Warn("busy: checkoutd will send it again later")
		return http.StatusServiceUnavailable, map[string]any{"error": "busy"}
	}
	rc.remember(ev.EventID, time.Now())
	return http.StatusOK, map[string]any{"received": true}
}

// remember records an event id, and now and then forgets the ones older than keepSeen.
func (rc *receiver) remember(id string, now time.Time) {
	rc.seen[id] = now
	if now.Sub(rc.pruned) < time.Hour {
		return
	}
	for k, at := range rc.seen {
		if now.Sub(at) > keepSeen {
			delete(rc.seen, k)
		}
	}
	rc.pruned = now
}

// work hands the events received to handle, one at a time, in the order they arrived, until
// stop is closed.
func (rc *receiver) work(stop <-chan struct{}, handle func(event)) {
	for {
		select {
		case ev := <-rc.queue:
			handle(ev)
		case <-stop:
			return
		}
	}
}

func answer(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// verify is the check of docs/webhooks.md ("Checking the signature"), standard library only:
// HMAC-SHA256 keyed by the shared secret over the request target and the Date header, with the
// Date at most five minutes from this clock so that a captured callback cannot be sent again
// later.
func verify(r *http.Request, secret []byte) bool {
	params := map[string]string{}
	for _, part := range strings.Split(r.Header.Get("Signature"), ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok {
			params[k] = strings.Trim(v, `"`)
		}
	}
	if params["algorithm"] != "hmac-sha256" || params["headers"] != "(request-target) date" {
		return false
	}
	date := r.Header.Get("Date")
	t, err := http.ParseTime(date)
	if err != nil || time.Since(t).Abs() > 5*time.Minute {
		return false
	}
	target := r.URL.EscapedPath()
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("(request-target): " + strings.ToLower(r.Method) + " " + target + "\ndate: " + date))
	want := base64.StdEncoding.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(want), []byte(params["signature"]))
}
