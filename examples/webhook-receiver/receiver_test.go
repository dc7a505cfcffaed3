package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/webhook"
)

// These tests deliver callbacks with checkoutd's own webhook client (service/webhook), which
// signs them exactly as checkoutd's deliveries do.

const sharedSecret = "whsec-example-secret"

// handled records the events the receiver's worker handled, in order.
type handled struct {
	mu      sync.Mutex
	events  []event
	changed chan struct{}
}

func (h *handled) add(ev event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.events = append(h.events, ev)
	close(h.changed)
	h.changed = make(chan struct{})
}

// waitFor waits until the worker has handled an event with id, and returns every event handled
// by then.
func (h *handled) waitFor(t *testing.T, id string) []event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		h.mu.Lock()
		events, changed := append([]event(nil), h.events...), h.changed
		h.mu.Unlock()
		for _, ev := range events {
			if ev.EventID == id {
				return events
			}
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("event %s was not handled; handled: %v", id, ids(events))
		}
	}
}

func ids(events []event) []string {
	var out []string
	for _, ev := range events {
		out = append(out, ev.EventID)
	}
	return out
}

// started runs the receiver with a worker that records what it handles; wrap, when given, sees
// each request before the receiver does (a proxy on the way).
func started(t *testing.T, wrap func(http.Handler) http.Handler) (*receiver, string, *handled) {
	t.Helper()
	rc := newReceiver(sharedSecret, slog.New(slog.NewTextHandler(io.Discard, nil)))
	h := &handled{changed: make(chan struct{})}
	stop := make(chan struct{})
	go rc.work(stop, h.add)
	var handler http.Handler = rc
	if wrap != nil {
		handler = wrap(rc)
	}
	srv := httptest.NewServer(handler)
	t.Cleanup(func() { srv.Close(); close(stop) })
	return rc, srv.URL + "/hooks/checkout", h
}

// clientAt is checkoutd's webhook client dating its signatures by now. The receiver listens on
// loopback, which checkoutd reaches only when told to (CHECKOUT_OUTBOUND_ALLOW_PRIVATE).
func clientAt(now func() time.Time) *webhook.Client {
	return webhook.New(5*time.Second, now, outbound.Policy{AllowPrivate: true})
}

// callback is an order/processed event as checkoutd sends it.
func callback(url, eventID, secret string) webhook.Callback {
	body, _ := json.Marshal(map[string]any{"event_id": eventID, "topic": "order/processed", "shop_identifier": "example-shop",
		"created_at": time.Now().UTC().Format(time.RFC3339),
		"data":       map[string]any{"public_order_id": "order-1", "platform_order_id": "CKD-1", "application_state": map[string]any{}}})
	return webhook.Callback{URL: url, Topic: "order/processed", EventID: eventID, Body: body, Secret: []byte(secret)}
}

func TestASignedEventIsAcceptedAndHandledOnceHoweverOftenItComes(t *testing.T) {
	_, url, h := started(t, nil)
	c := clientAt(time.Now)
	ctx := context.Background()
	first := c.Send(ctx, callback(url, "evt-1", sharedSecret))
	if first.Err != nil || first.StatusCode != 200 || strings.Contains(first.Body, "duplicate") {
		t.Fatalf("first delivery: %d %s %v", first.StatusCode, first.Body, first.Err)
	}
	for range 2 { // a retry after a lost answer, a replay
		again := c.Send(ctx, callback(url, "evt-1", sharedSecret))
		if again.Err != nil || again.StatusCode != 200 || !strings.Contains(again.Body, `"duplicate":true`) {
			t.Fatalf("repeated delivery: %d %s %v", again.StatusCode, again.Body, again.Err)
		}
	}
	// The worker takes events in the order they came: once evt-2 is handled, a second evt-1
	// would have been too.
	if r := c.Send(ctx, callback(url, "evt-2", sharedSecret)); r.Err != nil {
		t.Fatal(r.Err)
	}
	got := h.waitFor(t, "evt-2")
	if strings.Join(ids(got), ",") != "evt-1,evt-2" || got[0].Topic != "order/processed" || got[0].ShopIdentifier != "example-shop" {
		t.Fatalf("handled %v, want evt-1 then evt-2, once each", ids(got))
	}
}

func TestACallbackWithABadOrStaleSignatureIsRefused401(t *testing.T) {
	// A proxy on the way that changes what the signature covers.
	var tamper func(r *http.Request)
	_, url, h := started(t, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tamper != nil {
				tamper(r)
			}
			next.ServeHTTP(w, r)
		})
	})
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		client *webhook.Client
		secret string
		tamper func(r *http.Request)
	}{
		{name: "another secret", client: clientAt(time.Now), secret: "not-the-secret"},
		{name: "a Date ten minutes old", client: clientAt(func() time.Time { return time.Now().Add(-10 * time.Minute) }), secret: sharedSecret},
		{name: "a Date ten minutes ahead", client: clientAt(func() time.Time { return time.Now().Add(10 * time.Minute) }), secret: sharedSecret},
		{name: "the Date changed on the way", client: clientAt(time.Now), secret: sharedSecret, tamper: func(r *http.Request) {
			t, _ := http.ParseTime(r.Header.Get("Date"))
			r.Header.Set("Date", t.Add(time.Second).UTC().Format(http.TimeFormat))
		}},
		{name: "the path changed on the way", client: clientAt(time.Now), secret: sharedSecret, tamper: func(r *http.Request) {
			r.URL.Path, r.URL.RawPath = "/hooks/other", ""
		}},
		{name: "the signature changed on the way", client: clientAt(time.Now), secret: sharedSecret, tamper: func(r *http.Request) {
			r.Header.Set("Signature", strings.Replace(r.Header.Get("Signature"), `signature="`, `signature="A`, 1))
		}},
		{name: "no signature", client: clientAt(time.Now), secret: sharedSecret, tamper: func(r *http.Request) { r.Header.Del("Signature") }},
	} {
		tamper = tc.tamper
		if r := tc.client.Send(ctx, callback(url, "evt-1", tc.secret)); r.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: answered %d %s, want 401", tc.name, r.StatusCode, r.Body)
		}
	}
	// A refused callback is not remembered: the genuine one with the same event id is handled.
	tamper = nil
	if r := clientAt(time.Now).Send(ctx, callback(url, "evt-1", sharedSecret)); r.StatusCode != 200 || strings.Contains(r.Body, "duplicate") {
		t.Fatalf("the genuine callback: %d %s", r.StatusCode, r.Body)
	}
	if got := h.waitFor(t, "evt-1"); len(got) != 1 {
		t.Fatalf("handled %v", ids(got))
	}
}

func TestTheReceiverAnswersBeforeTheWorkIsDoneAndAsksForARetryWhenItsQueueIsFull(t *testing.T) {
	rc := newReceiver(sharedSecret, slog.New(slog.NewTextHandler(io.Discard, nil)))
	rc.queue = make(chan event, 1)
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	url := srv.URL + "/hooks/checkout"
	c := clientAt(time.Now)
	ctx := context.Background()
	// No worker yet, as if it were busy with a slow event: the first is answered, the second
	// finds the queue full and is not remembered.
	if r := c.Send(ctx, callback(url, "evt-1", sharedSecret)); r.StatusCode != 200 || r.Latency > time.Second {
		t.Fatalf("first: %d after %s", r.StatusCode, r.Latency)
	}
	if r := c.Send(ctx, callback(url, "evt-2", sharedSecret)); r.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("with the queue full: %d %s, want 503", r.StatusCode, r.Body)
	}
	h := &handled{changed: make(chan struct{})}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go rc.work(stop, h.add)
	h.waitFor(t, "evt-1")
	if r := c.Send(ctx, callback(url, "evt-2", sharedSecret)); r.StatusCode != 200 || strings.Contains(r.Body, "duplicate") {
		t.Fatalf("evt-2 sent again: %d %s", r.StatusCode, r.Body)
	}
	if got := h.waitFor(t, "evt-2"); strings.Join(ids(got), ",") != "evt-1,evt-2" {
		t.Fatalf("handled %v", ids(got))
	}
}

func TestEachEventIsLoggedByItsIdsWithoutItsData(t *testing.T) {
	var out strings.Builder
	logEvent(slog.New(slog.NewTextHandler(&out, nil)), event{EventID: "evt-1", Topic: "gift_card/created", ShopIdentifier: "example-shop",
		Data: json.RawMessage(`{"public_order_id":"order-1","platform_order_id":"CKD-1","gift_card":{"card_pin":"1234-5678"}}`)})
	line := out.String()
	for _, want := range []string{"msg=event", "event_id=evt-1", "topic=gift_card/created", "shop=example-shop", "public_order_id=order-1", "platform_order_id=CKD-1"} {
		if !strings.Contains(line, want) {
			t.Errorf("log line %q lacks %s", line, want)
		}
	}
	if strings.Contains(line, "1234-5678") {
		t.Errorf("the gift card's pin was logged: %q", line)
	}
}
