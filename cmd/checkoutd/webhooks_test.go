package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

const secret = "process-test-secret"

// eachDatabaseURL runs fn with the URL of an empty SQLite file and of an empty PostgreSQL
// schema, side by side: these tests mostly wait on processes.
func eachDatabaseURL(t *testing.T, fn func(t *testing.T, url string)) {
	t.Run("sqlite", func(t *testing.T) { t.Parallel(); fn(t, "file:"+filepath.Join(t.TempDir(), "checkout.db")) })
	t.Run("postgres", func(t *testing.T) { t.Parallel(); fn(t, servicetest.PostgresURL(t)) })
}

// A delivery whose receiver failed is waiting for its retry when checkoutd is killed with
// SIGKILL; the next checkoutd on the same database makes it.
func TestADeliveryPendingWhenCheckoutdIsKilledIsMadeAfterRestart(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, url string) {
		env := []string{"CHECKOUT_DATABASE_URL=" + url, "CHECKOUT_WEBHOOK_RETRY_BASE=3s", "CHECKOUT_JOB_POLL_INTERVAL=100ms"}
		runBinary(t, env, "migrate")
		token := createShop(t, env, "acme")
		rcv := webhooktest.New(t, secret)
		rcv.FailNext(http.StatusServiceUnavailable)

		first := serveProcess(t, env)
		first.call(token, "POST", "/checkout/shop/acme/integration/config", map[string]string{"shared_secret": secret}, 200)
		sub := first.call(token, "POST", "/checkout/shop/acme/webhooks", map[string]any{"webhook_topic_id": 5, "callback_url": rcv.URL}, 200)
		webhookID := int(sub["data"].(map[string]any)["webhook"].(map[string]any)["id"].(float64))
		orderID := first.cancelledOrder(token, "acme")
		// The refused attempt is logged, and its retry waits its 3 seconds, when the process dies.
		logPath := fmt.Sprintf("/checkout/shop/acme/webhooks/%d/deliveries", webhookID)
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			d := first.call(token, "GET", logPath, nil, 200)["data"].(map[string]any)["deliveries"].([]any)
			if len(d) == 1 && d[0].(map[string]any)["attempt_count"].(float64) == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no logged attempt: %v", d)
			}
		}
		first.kill()
		if n := len(rcv.Calls()); n != 1 {
			t.Fatalf("%d calls before the restart, want the one refused attempt", n)
		}

		second := serveProcess(t, env)
		got := rcv.WaitAccepted(1, 30*time.Second)
		if got[0].EventID != rcv.Calls()[0].EventID || got[0].Body["data"].(map[string]any)["public_order_id"] != orderID {
			t.Fatalf("after the restart: %s, want the event of the first attempt", got[0].Raw)
		}
		d := second.call(token, "GET", logPath, nil, 200)["data"].(map[string]any)["deliveries"].([]any)
		for deadline := time.Now().Add(10 * time.Second); len(d) == 1 && d[0].(map[string]any)["status"] != "succeeded" && time.Now().Before(deadline); {
			time.Sleep(50 * time.Millisecond)
			d = second.call(token, "GET", logPath, nil, 200)["data"].(map[string]any)["deliveries"].([]any)
		}
		if len(d) != 1 || d[0].(map[string]any)["status"] != "succeeded" || len(d[0].(map[string]any)["attempts"].([]any)) != 2 {
			t.Fatalf("delivery log after the restart: %v", d)
		}
		if n := len(rcv.Calls()); n != 2 {
			t.Fatalf("%d calls, want the refused one and the one after the restart", n)
		}
	})
}

// Two checkoutd processes on one PostgreSQL share the job queue: between them, each event is
// delivered once.
func TestTwoProcessesOnOnePostgreSQLDeliverEachEventOnce(t *testing.T) {
	url := servicetest.PostgresURL(t)
	env := []string{"CHECKOUT_DATABASE_URL=" + url, "CHECKOUT_JOB_POLL_INTERVAL=50ms"}
	// Both start on an empty database at once: one migrates, the other waits for it.
	var procs [2]*process
	var wg sync.WaitGroup
	for i := range procs {
		wg.Add(1)
		go func() { defer wg.Done(); procs[i] = serveProcess(t, env) }()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	token := createShop(t, env, "acme")
	rcv := webhooktest.New(t, secret)
	procs[0].call(token, "POST", "/checkout/shop/acme/integration/config", map[string]string{"shared_secret": secret}, 200)
	procs[1].call(token, "POST", "/checkout/shop/acme/webhooks", map[string]any{"webhook_topic_id": 5, "callback_url": rcv.URL}, 200)

	const events = 40
	orders := make(chan string, events)
	for i := range events {
		wg.Add(1)
		go func() { defer wg.Done(); orders <- procs[i%2].cancelledOrder(token, "acme") }()
	}
	wg.Wait()
	close(orders)
	rcv.WaitAccepted(events, 60*time.Second)
	// Give a second delivery of any event time to arrive before counting.
	time.Sleep(time.Second)
	seen := map[string]int{}
	for _, c := range rcv.Calls() {
		seen[c.Body["data"].(map[string]any)["public_order_id"].(string)]++
	}
	for id := range orders {
		if seen[id] != 1 {
			t.Errorf("order %s delivered %d times", id, seen[id])
		}
	}
	if n := len(rcv.Calls()); n != events {
		t.Fatalf("%d callbacks for %d events", n, events)
	}
	db, err := sql.Open("postgres", url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var workers int
	if err := db.QueryRow(`SELECT count(DISTINCT attempted_by[array_length(attempted_by, 1)]) FROM river_job WHERE kind = 'webhook_delivery'`).Scan(&workers); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d events delivered once each by %d processes", events, workers)
}

// newServer is checkoutd's whole HTTP surface in the test process, with the job queue running.
func newServer(t *testing.T, db *platform.Database, opts ...service.Option) (*httptest.Server, *service.Service, string) {
	t.Helper()
	// The receivers listen on loopback.
	svc := service.New(db, append([]service.Option{service.WithOutboundAllowPrivate(true), service.WithWebhookRetryBase(10 * time.Millisecond),
		service.WithJobPollInterval(20 * time.Millisecond)}, opts...)...)
	if err := svc.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = svc.StopJobs(ctx)
	})
	srv := httptest.NewServer(newHandler(svc))
	t.Cleanup(srv.Close)
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "acme"})
	if err != nil {
		t.Fatal(err)
	}
	p := &process{t: t, url: srv.URL}
	p.call(created.AccessToken, "POST", "/checkout/shop/acme/integration/config", map[string]string{"shared_secret": secret}, 200)
	return srv, svc, created.AccessToken
}

// metrics scrapes svc's metrics as their own listener serves them.
func metrics(t *testing.T, svc *service.Service) string {
	t.Helper()
	rec := httptest.NewRecorder()
	metricsHandler(svc).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

func TestMetricsCountDeliveriesByTopicAndOutcomeWithQueueDepthAndLatency(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		srv, svc, token := newServer(t, db)
		p := &process{t: t, url: srv.URL}
		ok := webhooktest.New(t, secret)
		slow := webhooktest.New(t, secret)
		p.call(token, "POST", "/checkout/shop/acme/webhooks", map[string]any{"webhook_topic_id": 5, "callback_url": ok.URL}, 200)
		ok.FailNext(500)
		p.cancelledOrder(token, "acme")
		ok.WaitAccepted(1, 20*time.Second)
		// A receiver that keeps failing, with an hour before its retry, leaves a job waiting.
		fresh := servicetest.SQLite
		if db.Dialect == dialect.Postgres {
			fresh = servicetest.Postgres
		}
		srv2, svc2, token2 := newServer(t, fresh(t), service.WithWebhookRetryBase(time.Hour))
		p2 := &process{t: t, url: srv2.URL}
		p2.call(token2, "POST", "/checkout/shop/acme/webhooks", map[string]any{"webhook_topic_id": 5, "callback_url": slow.URL}, 200)
		slow.FailNext(500)
		p2.cancelledOrder(token2, "acme")
		slow.WaitFor(20*time.Second, "the failed attempt", func(c []webhooktest.Callback) bool { return len(c) == 1 })

		want := []string{
			`checkoutd_webhook_attempts_total{outcome="http_error",topic="order/failed"} 1`,
			`checkoutd_webhook_attempts_total{outcome="success",topic="order/failed"} 1`,
			`checkoutd_webhook_deliveries_total{outcome="succeeded",topic="order/failed"} 1`,
			`checkoutd_webhook_attempt_duration_seconds_count{topic="order/failed"} 2`,
			`checkoutd_webhook_deliveries_pending 0`,
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			text, missing := metrics(t, svc), ""
			for _, w := range want {
				if !strings.Contains(text, w) {
					missing = w
				}
			}
			if missing == "" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("/metrics lacks %s:\n%s", missing, text)
			}
			time.Sleep(50 * time.Millisecond)
		}
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			text := metrics(t, svc2)
			if strings.Contains(text, `checkoutd_job_queue_depth{kind="webhook_delivery",state="scheduled"} 1`) &&
				strings.Contains(text, `checkoutd_webhook_deliveries_pending 1`) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("/metrics shows no waiting job:\n%s", text)
			}
		}
	})
}

// Storefront and admin calls keep the server busy while events are delivered: the queue runs on
// its own goroutines and connections, and delivers them all meanwhile.
func TestTheQueueKeepsDeliveringWhileTheHTTPServerIsUnderLoad(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		srv, _, token := newServer(t, db)
		p := &process{t: t, url: srv.URL}
		rcv := webhooktest.New(t, secret)
		p.call(token, "POST", "/checkout/shop/acme/webhooks", map[string]any{"webhook_topic_id": 5, "callback_url": rcv.URL}, 200)
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var requests sync.Map
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n := 0
				for ctx.Err() == nil {
					req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/checkout/shop/acme/webhooks", nil)
					req.Header.Set("Authorization", "Bearer "+token)
					if res, err := http.DefaultClient.Do(req); err == nil {
						res.Body.Close()
						n++
					}
				}
				requests.Store(i, n)
			}()
		}
		const events = 20
		start := time.Now()
		for range events {
			p.cancelledOrder(token, "acme")
		}
		rcv.WaitAccepted(events, 30*time.Second)
		took := time.Since(start)
		stop()
		wg.Wait()
		total := 0
		requests.Range(func(_, v any) bool { total += v.(int); return true })
		t.Logf("%d events delivered in %s while the server answered %d other requests", events, took.Round(time.Millisecond), total)
	})
}

// A delivery in flight when checkoutd is killed (its POST sent, no answer yet, nothing
// recorded) is made again after the restart, once its job is taken for dead: with a 1 s
// callback timeout, 16 s after it started, at the leader's next rescue.
func TestADeliveryInFlightWhenCheckoutdIsKilledIsMadeAfterRestart(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, url string) {
		env := []string{"CHECKOUT_DATABASE_URL=" + url, "CHECKOUT_WEBHOOK_TIMEOUT=1s", "CHECKOUT_JOB_POLL_INTERVAL=100ms"}
		runBinary(t, env, "migrate")
		token := createShop(t, env, "acme")
		rcv := webhooktest.New(t, secret)
		rcv.HangNext(time.Minute)

		first := serveProcess(t, env)
		first.call(token, "POST", "/checkout/shop/acme/integration/config", map[string]string{"shared_secret": secret}, 200)
		first.call(token, "POST", "/checkout/shop/acme/webhooks", map[string]any{"webhook_topic_id": 5, "callback_url": rcv.URL}, 200)
		first.cancelledOrder(token, "acme")
		// The receiver counts a call when it answers; wait until the POST has arrived.
		time.Sleep(500 * time.Millisecond)
		first.kill()
		start := time.Now()
		serveProcess(t, env)
		got := rcv.WaitAccepted(1, 90*time.Second)
		t.Logf("delivered %s after the restart", time.Since(start).Round(time.Second))
		if calls := rcv.Calls(); len(got) != 1 || calls[0].Status != 0 || calls[0].EventID != got[0].EventID {
			t.Fatalf("calls %v: want the unanswered one, then the same event accepted", calls)
		}
	})
}
