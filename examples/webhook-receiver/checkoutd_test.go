package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/examples/internal/checkoutdtest"
	"github.com/checkoutd/checkoutd/service"
)

// This test runs checkoutd itself (its REST API and job queue, on each database) and subscribes
// the example as README.md tells a shop to: the callbacks are checkoutd's own deliveries.

// topicOrderFailed is the id of order/failed in GET /webhooks/topics.
const topicOrderFailed = 5

func TestCheckoutdsDeliveriesAreAcceptedAReplayIsAcknowledgedOnceAndAnotherSecretIsRefused(t *testing.T) {
	opts := []service.Option{service.WithJobPollInterval(20 * time.Millisecond), service.WithWebhookRetryBase(10 * time.Millisecond)}
	checkoutdtest.Each(t, opts, func(t *testing.T, c *checkoutdtest.Checkoutd) {
		c.StartJobs()
		_, url, h := started(t, nil)
		shop := "/checkout/shop/" + c.Shop
		c.Do("POST", shop+"/integration/config", map[string]any{"shared_secret": sharedSecret}).Want(t, 200)
		hook := c.Do("POST", shop+"/webhooks", map[string]any{"webhook_topic_id": topicOrderFailed, "callback_url": url}).Want(t, 200).Data(t)
		hookPath := fmt.Sprintf("%s/webhooks/%d", shop, int(hook["webhook"].(map[string]any)["id"].(float64)))

		ping := c.Do("POST", hookPath+"/ping", nil).Want(t, 200).Data(t)["ping"].(map[string]any)
		if ping["success"] != true || ping["status_code"].(float64) != 200 {
			t.Fatalf("ping: %v", ping)
		}

		// An order cancelled from the back office is an order/failed event.
		order := c.Do("POST", "/checkout/orders/"+c.Shop+"/init", map[string]any{"cart_items": []map[string]any{
			{"sku": "MUG-1", "quantity": 1, "line_item_key": "mug", "title": "Mug", "price": 1250}}}).Want(t, 200).Data(t)["public_order_id"].(string)
		c.Do("POST", "/checkout/orders/"+c.Shop+"/"+order+"/cancel", map[string]any{"reason": "changed my mind"}).Want(t, 200)
		delivery := waitDelivery(t, c, hookPath, 1)
		eventID := delivery["event_id"].(string)
		got := h.waitFor(t, eventID)
		ev := got[len(got)-1]
		if ev.Topic != "order/failed" || ev.ShopIdentifier != c.Shop || !strings.Contains(string(ev.Data), `"public_order_id":"`+order+`"`) {
			t.Fatalf("handled %+v %s", ev, ev.Data)
		}

		// A replay sends the same event again: acknowledged, not handled again.
		c.Do("POST", fmt.Sprintf("%s/deliveries/%d/replay", hookPath, int(delivery["id"].(float64))), nil).Want(t, 202)
		replayed := waitDelivery(t, c, hookPath, 2)
		attempts := replayed["attempts"].([]any)
		if last := attempts[1].(map[string]any); last["status_code"].(float64) != 200 || !strings.Contains(last["response_body"].(string), `"duplicate":true`) {
			t.Fatalf("the replay's attempt: %v", last)
		}
		h.mu.Lock()
		handledOrderEvents := 0
		for _, e := range h.events {
			if e.Topic == "order/failed" {
				handledOrderEvents++
			}
		}
		h.mu.Unlock()
		if handledOrderEvents != 1 {
			t.Fatalf("order/failed handled %d times, want once", handledOrderEvents)
		}

		// checkoutd signing with another secret than the receiver's is refused.
		c.Do("POST", shop+"/integration/config", map[string]any{"shared_secret": "rotated-at-one-end-only"}).Want(t, 200)
		ping = c.Do("POST", hookPath+"/ping", nil).Want(t, 200).Data(t)["ping"].(map[string]any)
		if ping["success"] != false || ping["status_code"].(float64) != 401 {
			t.Fatalf("ping signed with another secret: %v", ping)
		}
	})
}

// waitDelivery polls the subscription's delivery log until its newest delivery succeeded with
// attempts attempts, and returns it.
func waitDelivery(t *testing.T, c *checkoutdtest.Checkoutd, hookPath string, attempts int) map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		list := c.Do("GET", hookPath+"/deliveries", nil).Want(t, 200).Data(t)["deliveries"].([]any)
		if len(list) > 0 {
			d := list[0].(map[string]any)
			if d["status"] == "succeeded" && len(d["attempts"].([]any)) == attempts {
				return d
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no delivery succeeded after %d attempts: %v", attempts, list)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
