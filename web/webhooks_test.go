package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/webhookdelivery"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/webhooks"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

func TestTheConsoleShowsAnUnhealthySubscriptionItsDeliveryLogAndReplaysPingsAndSetsEventSettings(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		a := newAdmin(t, db, false, service.WithWebhookMaxAttempts(1), service.WithWebhookRetryBase(10*time.Millisecond),
			service.WithJobPollInterval(20*time.Millisecond))
		if err := a.svc.StartJobs(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stop, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			_ = a.svc.StopJobs(stop)
		})
		sh, _ := a.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if _, err := a.svc.Shops.ConfigureSharedSecret(ctx, sh, "console-secret"); err != nil {
			t.Fatal(err)
		}
		rcv := webhooktest.New(t, "console-secret")
		sub, err := a.svc.Webhooks.CreateWebhookSubscription(ctx, sh, 5, rcv.URL)
		if err != nil {
			t.Fatal(err)
		}
		rcv.FailNext(500, 500, 500)
		title, price := "Mug", int64(1000)
		for range webhooks.UnhealthyAfterFailedDeliveries {
			v, err := a.svc.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price}}})
			if err != nil {
				t.Fatal(err)
			}
			sess, _ := a.svc.Orders.BackendOrderSession(ctx, sh, v.Order.PublicOrderID)
			if _, err := a.svc.Checkout.CancelOrder(ctx, sess, checkout.CancelInput{Reason: "test"}, ""); err != nil {
				t.Fatal(err)
			}
		}
		failed := webhookdelivery.StatusFailed
		var list []string
		for deadline := time.Now().Add(20 * time.Second); len(list) < webhooks.UnhealthyAfterFailedDeliveries; time.Sleep(20 * time.Millisecond) {
			ds, err := a.svc.Webhooks.ListWebhookDeliveries(ctx, sh, sub.ID, webhooks.DeliveryFilter{Status: &failed}, 10, 0)
			if err != nil || time.Now().After(deadline) {
				t.Fatalf("failed deliveries %v (%v)", ds, err)
			}
			list = list[:0]
			for _, d := range ds {
				list = append(list, fmt.Sprint(d.ID))
			}
		}

		a.signIn("shop-a", a.token)
		_, page := a.get("/admin/webhooks")
		if !strings.Contains(page, "Unhealthy") || !strings.Contains(page, "3 failed deliveries in a row") {
			t.Fatalf("the webhooks page does not flag the subscription:\n%s", page)
		}
		if _, dash := a.get("/admin"); !strings.Contains(dash, "1 webhook subscriptions are unhealthy") {
			t.Fatalf("the dashboard does not say so:\n%s", dash)
		}
		if _, none := a.get(fmt.Sprintf("/admin/webhooks/%d/deliveries?status=succeeded", sub.ID)); !strings.Contains(none, "No deliveries yet") {
			t.Fatalf("filtered by status succeeded:\n%s", none)
		}
		res, log := a.get(fmt.Sprintf("/admin/webhooks/%d/deliveries", sub.ID))
		wantStatus(t, res, http.StatusOK)
		if strings.Count(log, "receiver answered 500") != 3 || strings.Count(log, `class="replay"`) != 3 {
			t.Fatalf("the delivery log:\n%s", log)
		}
		res, _ = a.post(fmt.Sprintf("/admin/webhooks/%d/deliveries/%s/replay", sub.ID, list[0]), url.Values{"csrf_token": {a.csrf}})
		wantStatus(t, res, http.StatusSeeOther)
		rcv.WaitAccepted(1, 20*time.Second)

		res, _ = a.post(fmt.Sprintf("/admin/webhooks/%d/ping", sub.ID), url.Values{"csrf_token": {a.csrf}})
		wantStatus(t, res, http.StatusSeeOther)
		if _, page = a.get("/admin/webhooks"); !strings.Contains(page, "answered 200") {
			t.Fatalf("no ping result on the page:\n%s", page)
		}

		res, _ = a.post("/admin/webhooks/settings", url.Values{"csrf_token": {a.csrf}, "abandoned_cart_emails": {"1"}})
		wantStatus(t, res, http.StatusSeeOther)
		sh, _ = a.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if !sh.AbandonedCartEmails || sh.GiftCardsEnabled {
			t.Fatalf("settings: abandoned-cart emails %v, gift cards %v", sh.AbandonedCartEmails, sh.GiftCardsEnabled)
		}
		if _, page = a.get("/admin/webhooks"); !strings.Contains(page, `id="abandoned_cart_emails" name="abandoned_cart_emails" type="checkbox" value="1" checked`) {
			t.Fatalf("the setting is not shown on:\n%s", page)
		}
	})
}
