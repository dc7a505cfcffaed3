package rest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/httpsig"
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
		for _, tp := range service.WebhookTopics {
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
