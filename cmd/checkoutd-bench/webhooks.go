package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/checkoutd/checkoutd/service/httpsig"
)

// webhookSubscribers is how many subscriptions each benchmarked topic has: a shop with a few
// systems listening (an ERP, a mailer, analytics), and a delivery rate above the checkout rate.
const webhookSubscribers = 3

// webhookTopics are the topics every processed order sends (order/processed, order/created).
var webhookTopics = []int{1, 2}

const webhookSecret = "bench-webhook-secret"

// receiver is the local webhook endpoint: it checks every callback's signature and records
// when each delivery arrived.
type receiver struct {
	URL     string
	srv     *http.Server
	badSigs atomic.Int64

	// gate, while open is nil, holds every callback: the deliveries behind them pile up in the
	// queue, a backlog whose drain, once the gate opens, shows how fast delivery can go.
	gate chan struct{}

	mu       sync.Mutex
	arrivals map[string][]time.Time // public_order_id: one arrival per delivery
	total    int
	last     time.Time
}

// open lets held callbacks, and all later ones, through.
func (r *receiver) open() {
	if r.gate != nil {
		close(r.gate)
	}
}

func startReceiver(held bool) (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &receiver{URL: "http://" + ln.Addr().String(), arrivals: map[string][]time.Time{}}
	if held {
		r.gate = make(chan struct{})
	}
	r.srv = &http.Server{Handler: http.HandlerFunc(r.handle), ReadHeaderTimeout: 5 * time.Second}
	go r.srv.Serve(ln)
	return r, nil
}

func (r *receiver) handle(w http.ResponseWriter, req *http.Request) {
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-req.Context().Done():
			return
		}
	}
	at := time.Now()
	if err := httpsig.Verify(req, "Signature", []byte(webhookSecret), 5*time.Minute, time.Now()); err != nil {
		r.badSigs.Add(1)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	raw, _ := io.ReadAll(req.Body)
	var body struct {
		Data struct {
			PublicOrderID string `json:"public_order_id"`
		} `json:"data"`
	}
	_ = json.Unmarshal(raw, &body)
	r.mu.Lock()
	r.arrivals[body.Data.PublicOrderID] = append(r.arrivals[body.Data.PublicOrderID], at)
	r.total++
	r.last = at
	r.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (r *receiver) received() (int, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total, r.last
}

func (r *receiver) stop() { r.srv.Close() }

// WebhooksReport is the delivery figures of two runs, each processed order sending its events
// to every subscriber: one at 8 shoppers' checkouts (latency), one at 32 with the receiver
// holding every callback until the checkouts end, whose backlog then drains with nothing else
// running (capacity).
type WebhooksReport struct {
	Subscribers int        `json:"subscribers_per_topic"`
	Topics      int        `json:"topics"`
	Steady      WebhookRun `json:"steady"`
	Backlog     WebhookRun `json:"backlog"`
}

// WebhookRun is one run: checkouts at Shoppers for a while, then every delivery awaited.
type WebhookRun struct {
	Shoppers         int     `json:"shoppers"`
	Held             bool    `json:"receiver_held_during_load"`
	Orders           int     `json:"orders"`
	Expected         int     `json:"deliveries_expected"`
	Delivered        int     `json:"deliveries_received"`
	PerSecond        float64 `json:"deliveries_per_second"`
	DuringLoad       float64 `json:"deliveries_per_second_during_load"`
	DrainSeconds     float64 `json:"drain_seconds_after_load"`
	DrainPerSecond   float64 `json:"deliveries_per_second_after_load"`
	P50              float64 `json:"p50_ms"`
	P99              float64 `json:"p99_ms"`
	CheckoutsPerSec  float64 `json:"checkouts_per_second_meanwhile"`
	BadSignatures    int64   `json:"bad_signatures"`
	MissingAtTimeout int     `json:"missing_at_timeout"`
}

// benchmarkWebhooks subscribes a local receiver to the topics of a processed order and runs
// guest checkouts at 8 shoppers for d, then at 32 for at most 5 s (under the callbacks' 10 s
// timeout) with the receiver holding callbacks, waiting after each for every delivery.
// A delivery's latency runs from the moment process_order answered (its transaction, which
// wrote the event, had committed by then) to the moment the receiver had it.
func benchmarkWebhooks(cl *client, srv *server, gatewayID string, d time.Duration) (WebhooksReport, error) {
	r := WebhooksReport{Subscribers: webhookSubscribers, Topics: len(webhookTopics)}
	if _, err := cl.call("POST", "/checkout/shop/"+cl.shop+"/integration/config", cl.token, map[string]string{"shared_secret": webhookSecret}, nil); err != nil {
		return r, err
	}
	var err error
	if r.Steady, err = webhookRun(cl, srv, gatewayID, 8, d, false); err != nil {
		return r, err
	}
	r.Backlog, err = webhookRun(cl, srv, gatewayID, 32, min(d, 5*time.Second), true)
	return r, err
}

func webhookRun(cl *client, srv *server, gatewayID string, shoppers int, d time.Duration, held bool) (WebhookRun, error) {
	rcv, err := startReceiver(held)
	if err != nil {
		return WebhookRun{}, err
	}
	defer rcv.stop()
	var hooks []string
	// Later runs and figures go without this run's subscriptions.
	defer func() {
		for _, id := range hooks {
			_, _ = cl.call("DELETE", "/checkout/shop/"+cl.shop+"/webhooks/"+id, cl.token, nil, nil)
		}
	}()
	for _, topic := range webhookTopics {
		for i := range webhookSubscribers {
			a, err := cl.call("POST", "/checkout/shop/"+cl.shop+"/webhooks", cl.token, map[string]any{
				"webhook_topic_id": topic, "callback_url": fmt.Sprintf("%s/hooks/%d", rcv.URL, i)}, nil)
			if err != nil {
				return WebhookRun{}, err
			}
			wh, _ := dataOf(a)["webhook"].(map[string]any)
			id, ok := wh["id"].(float64)
			if !ok {
				return WebhookRun{}, fmt.Errorf("webhook answer without an id: %s", a.raw)
			}
			hooks = append(hooks, fmt.Sprintf("%.0f", id))
		}
	}

	var mu sync.Mutex
	answered := map[string]time.Time{}
	checkout := func() ([]time.Duration, error) {
		lat, id, err := cl.guestCheckout(gatewayID)
		if err == nil {
			mu.Lock()
			answered[id] = time.Now()
			mu.Unlock()
		}
		return lat, err
	}
	start := time.Now()
	load := runLoad(shoppers, d, srv, checkout)
	loadEnd := time.Now()
	rcv.open()
	duringLoad, _ := rcv.received()
	perOrder := len(webhookTopics) * webhookSubscribers
	expected := len(answered) * perOrder
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if n, _ := rcv.received(); n >= expected {
			break
		}
	}
	delivered, last := rcv.received()
	r := WebhookRun{Shoppers: shoppers, Held: held, Orders: len(answered), Expected: expected,
		Delivered: delivered, CheckoutsPerSec: load.perSecond(), BadSignatures: rcv.badSigs.Load(),
		DuringLoad: float64(duringLoad) / loadEnd.Sub(start).Seconds(), MissingAtTimeout: max(0, expected-delivered)}
	if delivered > 0 {
		r.PerSecond = float64(delivered) / last.Sub(start).Seconds()
		r.DrainSeconds = max(0, last.Sub(loadEnd).Seconds())
		if r.DrainSeconds > 0 {
			// With the checkouts over, the backlog goes out as fast as delivery alone can go.
			r.DrainPerSecond = float64(delivered-duringLoad) / r.DrainSeconds
		}
	}
	var lat []time.Duration
	rcv.mu.Lock()
	for id, ats := range rcv.arrivals {
		at0, ok := answered[id]
		if !ok {
			continue // an order whose checkout the load stopped before its answer was read
		}
		for _, at := range ats {
			// A callback can beat the answer to the shopper by a hair: that is no delay at all.
			lat = append(lat, max(0, at.Sub(at0)))
		}
	}
	rcv.mu.Unlock()
	r.P50, r.P99 = percentile(lat, .5), percentile(lat, .99)
	if load.Errors > 0 {
		return r, fmt.Errorf("webhook load: %d checkouts failed: %s", load.Errors, load.FirstError)
	}
	return r, nil
}
