package main

import (
	"fmt"
	"log"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The subscriptions figure: 1,000 subscriptions created through the REST API fall due at one
// instant, and the scheduler (the subscription_order_sweep job) places an order for each, charged
// at the bench gateway, which answers at once. It is timed from the instant they fall due to the
// last one's last_order_datetime, which checkoutd stamps when it records the order placed.

const (
	// subscriptionsDue is the issue's: 1,000 due orders.
	subscriptionsDue = 1000
	// subscriptionSweepEvery is the sweep interval the harness runs checkoutd with
	// (CHECKOUT_SUBSCRIPTION_SWEEP_INTERVAL): the figure measures the placing, not the wait for
	// the next of the default's 30-second ticks.
	subscriptionSweepEvery = time.Second
	// subscriptionCreators create the subscriptions at once.
	subscriptionCreators = 16
	// subscriptionsCreatedWithin is how far ahead of now the subscriptions fall due: their
	// creation must be over by then.
	subscriptionsCreatedWithin = 5 * time.Second
	// subscriptionsTargetSecs is the target on SQLite.
	subscriptionsTargetSecs = 30
)

// SubscriptionsReport is the scheduler's run on one database.
type SubscriptionsReport struct {
	Subscriptions   int     `json:"subscriptions"`
	SweepInterval   string  `json:"sweep_interval"`
	Creators        int     `json:"creators"`
	CreateSeconds   float64 `json:"create_seconds"`
	CreatePerSecond float64 `json:"created_per_second"`
	// CreatedLate is true when creating them took longer than subscriptionsCreatedWithin: the
	// first ones were being placed while the last were created.
	CreatedLate bool `json:"created_after_due"`
	// Seconds runs from the due instant to the last subscription's order recorded placed.
	Seconds     float64 `json:"due_to_all_placed_seconds"`
	FirstAfter  float64 `json:"first_placed_after_due_seconds"`
	MedianAfter float64 `json:"median_placed_after_due_seconds"`
	// PerSecond is the orders placed a second from the first to the last.
	PerSecond float64 `json:"placed_per_second"`
	// SeenAfter is when the harness's poll (every 50 ms) saw every one placed.
	SeenAfter float64 `json:"seen_all_placed_after_due_seconds"`
	// Placed counts the subscriptions with exactly one order processed, Twice those with more.
	Placed       int   `json:"placed_once"`
	Twice        int   `json:"placed_more_than_once"`
	GatewayCalls int64 `json:"gateway_authorizations"`
	// CPUms is the server's CPU time per order placed, from the due instant to the poll seeing
	// the last.
	CPUms       float64 `json:"server_cpu_ms_per_order"`
	WriteTxOpen float64 `json:"write_transactions_open_average"`
	Errors      int     `json:"create_errors"`
	FirstError  string  `json:"first_error,omitempty"`
	TargetSecs  float64 `json:"target_seconds"`
}

// benchmarkSubscriptions creates the subscriptions, due together a little ahead, waits for them
// to fall due and times their placing.
// A quick run places a quarter of them, against a quarter of the target.
func benchmarkSubscriptions(c config, srv *server, cl *client, gw *gateway, gatewayID string) (SubscriptionsReport, error) {
	r := SubscriptionsReport{Subscriptions: subscriptionsDue, SweepInterval: subscriptionSweepEvery.String(), Creators: subscriptionCreators,
		TargetSecs: subscriptionsTargetSecs}
	if c.quick {
		r.Subscriptions, r.TargetSecs = subscriptionsDue/4, subscriptionsTargetSecs/4.0
	}
	n := r.Subscriptions
	a, err := cl.call("POST", "/graphql", cl.token, map[string]any{"query": `mutation { createProduct(input: {platformID: "bench-tea", title: "Bench tea",
		variants: [{platformID: "bench-tea-1", sku: "TEA-1", price: 1500, requiresShipping: true, taxable: true}]}) { id } }`}, nil)
	if errs, _ := a.body()["errors"].([]any); err == nil && len(errs) > 0 {
		err = fmt.Errorf("createProduct: %s", truncate(string(a.raw), 300))
	}
	if err != nil {
		return r, err
	}
	due := time.Now().Add(subscriptionsCreatedWithin).UTC().Truncate(time.Second)
	base := "/subscriptions/v1/shops/" + cl.shop + "/subscriptions"
	addr := map[string]any{"first_name": "Ada", "last_name": "Lovelace", "street1": "1 Main St", "city": "Albany",
		"province_code": "NY", "country_code": "US", "zip": "12207"}
	var next atomic.Int64
	var mu sync.Mutex
	began := time.Now()
	var wg sync.WaitGroup
	for range subscriptionCreators {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)); i <= n; i = int(next.Add(1)) {
				_, err := cl.call("POST", base, cl.token, map[string]any{
					"customer": map[string]any{"first_name": "Ada", "last_name": "Lovelace", "email": fmt.Sprintf("sub%d@example.com", i)},
					"subscription": map[string]any{"idempotency_key": fmt.Sprintf("bench-%d", i), "next_order_datetime": due.Format(time.RFC3339),
						"order_rrule": "FREQ=MONTHLY", "base_currency": "USD", "charged_currency": "USD",
						"line_items":      []any{map[string]any{"platform_product_id": "bench-tea", "platform_variant_id": "bench-tea-1", "quantity": 2, "price": 1500}},
						"billing_address": addr, "shipping_address": addr,
						"payment_details": map[string]any{"gateway_name": gatewayID, "gateway_payment_id": "tok_subscription"}}}, nil)
				if err != nil {
					mu.Lock()
					r.Errors++
					if r.FirstError == "" {
						r.FirstError = err.Error()
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	created := time.Since(began)
	r.CreateSeconds, r.CreatePerSecond = created.Seconds(), float64(n)/created.Seconds()
	r.CreatedLate = time.Now().After(due)
	if r.Errors > 0 {
		return r, fmt.Errorf("creating the subscriptions: %d errors, the first: %s", r.Errors, r.FirstError)
	}
	log.Printf("  subscriptions: %d created in %.1f s; due at %s", n, r.CreateSeconds, due.Format(time.TimeOnly))
	time.Sleep(time.Until(due))
	cpu0, write0, gw0 := srv.cpu(), srv.writeSeconds(), gw.seq.Load()
	placedQuery := base + "?limit=1&filter=" + url.QueryEscape("gte(orders_processed:1)")
	deadline := due.Add(time.Duration(4 * r.TargetSecs * float64(time.Second)))
	for ; time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		a, err := cl.call("GET", placedQuery, cl.token, nil, nil)
		if err != nil {
			return r, err
		}
		p, _ := a.body()["pagination"].(map[string]any)
		if total, _ := p["total"].(float64); int(total) >= n {
			r.SeenAfter = time.Since(due).Seconds()
			break
		}
	}
	watched := time.Since(due)
	r.CPUms = float64((srv.cpu() - cpu0).Microseconds()) / 1000 / float64(n)
	r.WriteTxOpen = (srv.writeSeconds() - write0) / watched.Seconds()
	r.GatewayCalls = gw.seq.Load() - gw0
	var after []time.Duration
	for cursor := ""; ; {
		a, err := cl.call("GET", base+"?limit=100&cursor="+cursor, cl.token, nil, nil)
		if err != nil {
			return r, err
		}
		body := a.body()
		subs, _ := body["subscriptions"].([]any)
		for _, s := range subs {
			sub, _ := s.(map[string]any)
			switch n, _ := sub["orders_processed"].(float64); {
			case n == 1:
				r.Placed++
			case n > 1:
				r.Twice++
			}
			if last, _ := sub["last_order_datetime"].(string); last != "" {
				if t, err := time.Parse(time.RFC3339Nano, last); err == nil {
					after = append(after, t.Sub(due))
				}
			}
		}
		p, _ := body["pagination"].(map[string]any)
		if cursor, _ = p["next"].(string); cursor == "" {
			break
		}
	}
	if len(after) > 0 {
		slices.Sort(after)
		first, last := after[0], after[len(after)-1]
		r.FirstAfter, r.MedianAfter, r.Seconds = first.Seconds(), after[len(after)/2].Seconds(), last.Seconds()
		if last > first {
			r.PerSecond = float64(len(after)-1) / (last - first).Seconds()
		}
	}
	return r, nil
}

// target is the on SQLite; PostgreSQL's figure is reported beside it.
func (r SubscriptionsReport) target(db string) target {
	name := fmt.Sprintf("%s: the subscription scheduler places %s due orders (a gateway answering at once) in under %g s, each once",
		db, thousands(float64(r.Subscriptions)), r.TargetSecs)
	if db != "sqlite" {
		name = fmt.Sprintf("%s: the subscription scheduler places %s due orders (a gateway answering at once; SQLite's target: %g s), each once",
			db, thousands(float64(r.Subscriptions)), r.TargetSecs)
	}
	ok := r.Placed == r.Subscriptions && r.Twice == 0 && r.GatewayCalls == int64(r.Subscriptions) && !r.CreatedLate && r.Seconds < r.TargetSecs
	return target{name, ok, fmt.Sprintf("%.1f s (%.0f orders/s), %d of %d placed once, %d twice, %d authorizations",
		r.Seconds, r.PerSecond, r.Placed, r.Subscriptions, r.Twice, r.GatewayCalls), db != "sqlite"}
}

func (r SubscriptionsReport) markdown(w func(string, ...any)) {
	w("### Subscriptions: %s falling due at once, placed by the scheduler\n\n", thousands(float64(r.Subscriptions)))
	w("| Figure | Measured |\n|---|---|\n")
	w("| Created (REST, %d clients) | %.1f s, %.0f/s%s |\n", r.Creators, r.CreateSeconds, r.CreatePerSecond,
		map[bool]string{true: " (**after they fell due**)", false: ""}[r.CreatedLate])
	w("| Due to the last order placed | %.1f s (%.0f orders/s from the first to the last) |\n", r.Seconds, r.PerSecond)
	w("| Due to the first, and the median, order placed | %.2f s, %.1f s |\n", r.FirstAfter, r.MedianAfter)
	w("| Seen all placed by the harness's poll | %.1f s after due |\n", r.SeenAfter)
	w("| Placed once / more than once | %d of %d / %d; the gateway authorized %d |\n", r.Placed, r.Subscriptions, r.Twice, r.GatewayCalls)
	w("| Server CPU per order placed | %.2f ms (write transactions open on average: %.2f) |\n\n", r.CPUms, r.WriteTxOpen)
	w("Each subscription is two of one catalog variant a month, shipped to and billed at a New York address, charged to a stored token at the bench gateway. ")
	w("They are created due %s ahead, at one instant; the harness runs checkoutd with CHECKOUT_SUBSCRIPTION_SWEEP_INTERVAL=%s, ", subscriptionsCreatedWithin, r.SweepInterval)
	w("so that the figure is the placing and not the wait for the default's next 30-second tick (which adds up to 30 s in production). ")
	w("Each order's time is its subscription's last_order_datetime, stamped by checkoutd when it records the order placed; ")
	w("each order goes through the checkout path a shopper's takes (addresses, shipping line, taxes, payment, process_order with its authorization and webhooks).\n\n")
}
