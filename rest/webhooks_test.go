package rest_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/httpsig"
	"github.com/checkoutd/checkoutd/service/webhooks"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

const hookSecret = "whsec-test-secret"

// hookWait bounds how long a test waits for the queue to deliver.
const hookWait = 20 * time.Second

// eachHooks is eachAPI with the job queue running, quick retries (10ms base, doubling) and the
// shared secret configured.
func eachHooks(t *testing.T, opts []service.Option, fn func(t *testing.T, a *api)) {
	opts = append([]service.Option{service.WithWebhookRetryBase(10 * time.Millisecond), service.WithJobPollInterval(20 * time.Millisecond),
		service.WithWebhookTimeout(2 * time.Second)}, opts...)
	eachAPIWith(t, opts, func(t *testing.T, a *api) {
		ctx, cancel := context.WithCancel(context.Background())
		if err := a.svc.StartJobs(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stop, done := context.WithTimeout(context.Background(), 5*time.Second)
			defer done()
			_ = a.svc.StopJobs(stop)
			cancel()
		})
		a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": hookSecret}).wantStatus(t, 200)
		fn(t, a)
	})
}

// subscribe subscribes url to the topics (by name) and returns the subscription ids.
func subscribe(t *testing.T, a *api, url string, topics ...string) []int {
	t.Helper()
	var ids []int
	for _, name := range topics {
		id := 0
		for _, tp := range webhooks.Topics {
			if tp.Name == name {
				id = tp.ID
			}
		}
		w := a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": id, "callback_url": url}).wantStatus(t, 200).data(t)
		ids = append(ids, int(w["webhook"].(map[string]any)["id"].(float64)))
	}
	return ids
}

func topicsOf(calls []webhooktest.Callback) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Topic)
	}
	return out
}

func deliveries(t *testing.T, a *api, webhookID int, query string) []map[string]any {
	t.Helper()
	list := a.do("GET", a.shopPath(fmt.Sprintf("/webhooks/%d/deliveries%s", webhookID, query)), nil).wantStatus(t, 200).data(t)["deliveries"].([]any)
	out := make([]map[string]any, len(list))
	for i, d := range list {
		out[i] = d.(map[string]any)
	}
	return out
}

// waitDelivery polls the delivery log until the subscription's newest delivery has status.
func waitDelivery(t *testing.T, a *api, webhookID int, status string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(hookWait)
	for {
		list := deliveries(t, a, webhookID, "")
		if len(list) > 0 && list[0]["status"] == status {
			return list[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s delivery for webhook %d after %s: %v", status, webhookID, hookWait, list)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestProcessingAnOrderDeliversProcessedThenCreatedSignedWithTheContractsHeadersAndBody(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		subscribe(t, a, rcv.URL, "order/processed", "order/created")
		p := processedOrder(t, a, gatewaytest.New(t, gatewayAPIToken))
		got := rcv.WaitAccepted(2, hookWait)
		if strings.Join(topicsOf(got), ",") != "order/processed,order/created" {
			t.Fatalf("topics %v, want processed then created", topicsOf(got))
		}
		for _, c := range got {
			sig := httpsig.Params(c.Header.Get("Signature"))
			if sig["keyId"] != "shared_secret" || sig["algorithm"] != "hmac-sha256" || sig["headers"] != "(request-target) date" || c.Header.Get("Date") == "" {
				t.Fatalf("signature header %q, Date %q", c.Header.Get("Signature"), c.Header.Get("Date"))
			}
			if c.Header.Get("Content-Type") != "application/json" || c.Header.Get("X-Webhook-Topic") != c.Topic || len(c.EventID) != 32 {
				t.Fatalf("headers %v", c.Header)
			}
			b := c.Body
			data, _ := b["data"].(map[string]any)
			if b["event_id"] != c.EventID || b["topic"] != c.Topic || b["shop_identifier"] != a.shop || b["created_at"] == nil ||
				data["public_order_id"] != p.id || !strings.HasPrefix(fmt.Sprint(data["platform_order_id"]), "CKD-") || data["application_state"] == nil {
				t.Fatalf("body %s", c.Raw)
			}
			if data["application_state"].(map[string]any)["is_processed"] != true {
				t.Fatalf("application_state is not the processed order's: %s", c.Raw)
			}
		}
		if got[0].EventID == got[1].EventID {
			t.Fatal("two events share an event id")
		}
	})
}

// cancelOrder starts an order and cancels it from the back office: the quickest way to an event
// (order/failed, reason cancelled). It returns the order's public id.
func cancelOrder(t *testing.T, a *api) string {
	t.Helper()
	id, _, _ := initOrder(t, a)
	a.do("POST", "/checkout/orders/"+a.shop+"/"+id+"/cancel", map[string]any{"reason": "test"}).wantStatus(t, 200)
	return id
}

func TestAReceiverThatAnswers500TwiceGetsTheThirdAttemptWithTheSameEventID(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, rcv.URL, "order/failed")
		rcv.FailNext(500, 500)
		orderID := cancelOrder(t, a)
		calls := rcv.WaitAccepted(1, hookWait)
		all := rcv.Calls()
		if len(all) != 3 || all[0].Status != 500 || all[1].Status != 500 || all[2].Status != 200 {
			t.Fatalf("calls %d: %v", len(all), all)
		}
		for _, c := range all {
			if c.EventID != calls[0].EventID || string(c.Raw) != string(all[0].Raw) {
				t.Fatalf("a retry changed the event id or the body: %s vs %s", c.Raw, all[0].Raw)
			}
		}
		if calls[0].Body["data"].(map[string]any)["public_order_id"] != orderID {
			t.Fatalf("order/failed without public_order_id: %s", calls[0].Raw)
		}
		// The second wait is about twice the first: 10ms then 20ms, each give or take 10%.
		if gap1, gap2 := all[1].At.Sub(all[0].At), all[2].At.Sub(all[1].At); gap1 < 9*time.Millisecond || gap2 < 18*time.Millisecond {
			t.Fatalf("retries came after %s and %s, want at least 9ms and 18ms", gap1, gap2)
		}
		d := waitDelivery(t, a, ids[0], "succeeded")
		attempts := d["attempts"].([]any)
		if len(attempts) != 3 || d["attempt_count"].(float64) != 3 || d["event_id"] != calls[0].EventID || d["public_order_id"] != orderID {
			t.Fatalf("delivery log %v", d)
		}
		for i, want := range []float64{500, 500, 200} {
			at := attempts[i].(map[string]any)
			if at["status_code"] != want || at["attempted_at"] == nil || at["latency_ms"] == nil {
				t.Fatalf("attempt %d: %v", i, at)
			}
		}
		if e := attempts[0].(map[string]any)["error"]; e != "receiver answered 500" || attempts[2].(map[string]any)["error"] != nil {
			t.Fatalf("errors %v / %v", e, attempts[2].(map[string]any)["error"])
		}
	})
}

func TestAReceiverCheckingTheSignatureRefusesAWrongSecretAndAcceptsTheRightOne(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, "not-the-shops-secret")
		ids := subscribe(t, a, rcv.URL, "order/failed")
		cancelOrder(t, a)
		rcv.WaitFor(hookWait, "a refused callback", func(calls []webhooktest.Callback) bool { return len(calls) > 0 })
		if c := rcv.Calls()[0]; c.Status != http.StatusUnauthorized {
			t.Fatalf("a receiver with another secret answered %d", c.Status)
		}
		rcv.SetSecret(hookSecret)
		got := rcv.WaitAccepted(1, hookWait)
		if got[0].EventID != rcv.Calls()[0].EventID {
			t.Fatal("the accepted retry is another event")
		}
		waitDelivery(t, a, ids[0], "succeeded")
		// Every later delivery is accepted at once.
		cancelOrder(t, a)
		cancelOrder(t, a)
		rcv.WaitAccepted(3, hookWait)
	})
}

func TestADeliveryOutOfAttemptsIsFailedAndRepeatedFailuresFlagTheSubscriptionUnhealthy(t *testing.T) {
	eachHooks(t, []service.Option{service.WithWebhookMaxAttempts(2)}, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, rcv.URL, "order/failed")
		rcv.FailNext(503, 503, 503, 503, 503, 503)
		health := func() map[string]any {
			return a.do("GET", a.shopPath("/webhooks"), nil).wantStatus(t, 200).data(t)["webhooks"].([]any)[0].(map[string]any)
		}
		for i := 1; i <= webhooks.UnhealthyAfterFailedDeliveries; i++ {
			cancelOrder(t, a)
			d := waitDelivery(t, a, ids[0], "failed")
			if d["attempt_count"].(float64) != 2 || d["failed_at"] == nil || d["next_attempt_at"] != nil || d["last_status_code"].(float64) != 503 {
				t.Fatalf("failed delivery %v", d)
			}
			h := health()
			if h["consecutive_failed_deliveries"].(float64) != float64(i) || (h["healthy"] == true) != (i < webhooks.UnhealthyAfterFailedDeliveries) {
				t.Fatalf("after %d failed deliveries: %v", i, h)
			}
		}
		if h := health(); h["unhealthy_since"] == nil {
			t.Fatalf("unhealthy without a time: %v", h)
		}
		// Failing is not being dropped: the next event is still delivered, and a success
		// makes the subscription healthy again.
		cancelOrder(t, a)
		rcv.WaitAccepted(1, hookWait)
		waitDelivery(t, a, ids[0], "succeeded")
		if h := health(); h["healthy"] != true || h["consecutive_failed_deliveries"].(float64) != 0 || h["unhealthy_since"] != nil {
			t.Fatalf("after a success: %v", h)
		}
	})
}

// processed and created of one order go to one receiver URL through two subscriptions: created
// waits for processed, which its receiver refused once.
func TestDeliveriesOfOneOrderReachAReceiverInTheOrderTheyHappened(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		subscribe(t, a, rcv.URL, "order/processed", "order/created")
		rcv.FailNext(500, 500)
		processedOrder(t, a, gatewaytest.New(t, gatewayAPIToken))
		rcv.WaitAccepted(2, hookWait)
		var seq []string
		for _, c := range rcv.Calls() {
			seq = append(seq, fmt.Sprintf("%s:%d", c.Topic, c.Status))
		}
		if strings.Join(seq, ",") != "order/processed:500,order/processed:500,order/processed:200,order/created:200" {
			t.Fatalf("calls %v: created went out before processed was delivered", seq)
		}
	})
}

func TestTheAttemptLogKeepsTheFirstKiBOfTheAnswerAndFiltersByTopicStatusAndOrder(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, rcv.URL, "order/failed")
		rcv.AnswerNext(502, strings.Repeat("é", 1000)) // 2000 bytes, cut inside no character
		first := cancelOrder(t, a)
		rcv.WaitAccepted(1, hookWait)
		waitDelivery(t, a, ids[0], "succeeded")
		second := cancelOrder(t, a)
		rcv.WaitAccepted(2, hookWait)
		waitDelivery(t, a, ids[0], "succeeded")
		list := deliveries(t, a, ids[0], "")
		if len(list) != 2 || list[0]["public_order_id"] != second || list[1]["public_order_id"] != first {
			t.Fatalf("log, newest first: %v", list)
		}
		body := list[1]["attempts"].([]any)[0].(map[string]any)["response_body"].(string)
		if len(body) != 1024 || body != strings.Repeat("é", 512) {
			t.Fatalf("logged answer of %d bytes: %q...", len(body), body[:20])
		}
		if got := deliveries(t, a, ids[0], "?public_order_id="+first); len(got) != 1 || got[0]["public_order_id"] != first {
			t.Fatalf("filtered by order: %v", got)
		}
		if got := deliveries(t, a, ids[0], "?status=failed"); len(got) != 0 {
			t.Fatalf("filtered by status: %v", got)
		}
		if got := deliveries(t, a, ids[0], "?topic=order/failed&status=succeeded&limit=1"); len(got) != 1 || got[0]["public_order_id"] != second {
			t.Fatalf("filtered by topic, one page: %v", got)
		}
		if got := deliveries(t, a, ids[0], fmt.Sprintf("?before=%d", int(list[0]["id"].(float64)))); len(got) != 1 || got[0]["public_order_id"] != first {
			t.Fatalf("next page: %v", got)
		}
		a.do("GET", a.shopPath(fmt.Sprintf("/webhooks/%d/deliveries?status=lost", ids[0])), nil).wantError(t, 422, "", "webhook_delivery.invalid_status")
		a.do("GET", a.shopPath("/webhooks/999/deliveries"), nil).wantError(t, 404, "", "webhook.not_found")
	})
}

func TestReplayingADeliveryMakesOneNewAttemptWithTheSameEventID(t *testing.T) {
	eachHooks(t, []service.Option{service.WithWebhookMaxAttempts(1)}, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, rcv.URL, "order/failed")
		rcv.FailNext(500)
		cancelOrder(t, a)
		d := waitDelivery(t, a, ids[0], "failed")
		path := a.shopPath(fmt.Sprintf("/webhooks/%d/deliveries/%d/replay", ids[0], int(d["id"].(float64))))
		r := a.do("POST", path, nil).wantStatus(t, 202).data(t)["delivery"].(map[string]any)
		if r["status"] != "pending" || r["event_id"] != d["event_id"] {
			t.Fatalf("replay answered %v", r)
		}
		got := rcv.WaitAccepted(1, hookWait)
		if got[0].EventID != d["event_id"] {
			t.Fatalf("replayed event id %s, want %s", got[0].EventID, d["event_id"])
		}
		done := waitDelivery(t, a, ids[0], "succeeded")
		attempts := done["attempts"].([]any)
		if len(attempts) != 2 || attempts[0].(map[string]any)["replay"] != false || attempts[1].(map[string]any)["replay"] != true {
			t.Fatalf("attempts %v", attempts)
		}
		// A past (succeeded) delivery is replayed too; a replay that fails is not retried.
		rcv.FailNext(500)
		a.do("POST", path, nil).wantStatus(t, 202)
		failed := waitDelivery(t, a, ids[0], "failed")
		if len(failed["attempts"].([]any)) != 3 || len(rcv.Calls()) != 3 {
			t.Fatalf("after a failed replay: %v", failed)
		}
		a.do("POST", a.shopPath(fmt.Sprintf("/webhooks/%d/deliveries/999/replay", ids[0])), nil).wantError(t, 404, "", "webhook_delivery.not_found")
	})
}

func TestAPendingDeliveryCannotBeReplayed(t *testing.T) {
	eachHooks(t, []service.Option{service.WithWebhookRetryBase(time.Hour)}, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, rcv.URL, "order/failed")
		rcv.FailNext(500)
		cancelOrder(t, a)
		rcv.WaitFor(hookWait, "the first attempt", func(c []webhooktest.Callback) bool { return len(c) == 1 })
		d := waitDelivery(t, a, ids[0], "pending")
		for d["attempt_count"].(float64) < 1 {
			d = waitDelivery(t, a, ids[0], "pending")
		}
		a.do("POST", a.shopPath(fmt.Sprintf("/webhooks/%d/deliveries/%d/replay", ids[0], int(d["id"].(float64)))), nil).
			wantError(t, 422, "", "webhook_delivery.in_progress")
	})
}

func TestPingSendsASignedTestCallbackAndSaysWhatTheReceiverAnswered(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, rcv.URL, "order/created")
		ping := a.do("POST", a.shopPath(fmt.Sprintf("/webhooks/%d/ping", ids[0])), nil).wantStatus(t, 200).data(t)["ping"].(map[string]any)
		calls := rcv.Calls()
		if ping["success"] != true || ping["status_code"].(float64) != 200 || len(calls) != 1 || calls[0].Topic != "ping" ||
			calls[0].EventID != ping["event_id"] || calls[0].Body["data"].(map[string]any)["webhook_topic"] != "order/created" {
			t.Fatalf("ping %v, calls %v", ping, calls)
		}
		rcv.SetSecret("another")
		ping = a.do("POST", a.shopPath(fmt.Sprintf("/webhooks/%d/ping", ids[0])), nil).wantStatus(t, 200).data(t)["ping"].(map[string]any)
		if ping["success"] != false || ping["status_code"].(float64) != 401 || ping["error"] != "receiver answered 401" {
			t.Fatalf("ping to a receiver with another secret: %v", ping)
		}
		a.do("POST", a.shopPath("/webhooks/999/ping"), nil).wantError(t, 404, "", "webhook.not_found")
		if got := deliveries(t, a, ids[0], ""); len(got) != 0 {
			t.Fatalf("a ping is not a delivery: %v", got)
		}
	})
}

func TestATimeoutOrARefusedConnectionIsRetried(t *testing.T) {
	eachHooks(t, []service.Option{service.WithWebhookTimeout(300 * time.Millisecond)}, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		refused := "http://" + ln.Addr().String() + "/hooks"
		ln.Close()
		ids := subscribe(t, a, refused, "order/failed")
		cancelOrder(t, a)
		d := waitDelivery(t, a, ids[0], "pending")
		for d["attempt_count"].(float64) < 1 {
			d = waitDelivery(t, a, ids[0], "pending")
		}
		if d["last_status_code"] != nil || !strings.Contains(d["last_error"].(string), "connection") {
			t.Fatalf("refused connection logged as %v", d)
		}
		// The receiver is up, but slower than the timeout once.
		rcv.HangNext(2 * time.Second)
		a.do("PATCH", a.shopPath(fmt.Sprintf("/webhooks/%d", ids[0])), map[string]any{"callback_url": rcv.URL}).wantStatus(t, 200)
		got := rcv.WaitAccepted(1, hookWait)
		done := waitDelivery(t, a, ids[0], "succeeded")
		var errs []string
		for _, at := range done["attempts"].([]any) {
			if e, ok := at.(map[string]any)["error"].(string); ok {
				errs = append(errs, e)
			}
		}
		if len(errs) < 2 || !strings.HasPrefix(errs[0], "connection") || !strings.HasPrefix(errs[len(errs)-1], "timeout") || got[0].EventID != done["event_id"] {
			t.Fatalf("attempt errors %q", errs)
		}
	})
}
