package rest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

// Each topic fires on its trigger and only then. Events are recorded in the transaction of
// their change, so the tests read them from the order's events at once, and check delivery
// through a receiver.

func TestOrderFulfilledFiresWhenTheFulfilledQuantitiesReachTheOrderedOnesAndOnlyThen(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		subscribe(t, a, rcv.URL, "order/fulfilled")
		p := processedOrder(t, a, gatewaytest.New(t, gatewayAPIToken))
		fulfil := func(key string, n int) {
			a.do("PATCH", p.backend+"/line_items", map[string]any{"line_items": []map[string]any{{"line_item_key": key, "fulfilled_quantity": n}}}).wantStatus(t, 200)
		}
		fulfil("k1", 2) // k2 is still to ship
		if got := p.topics(); strings.Join(got, ",") != "order/processed,order/created" {
			t.Fatalf("a partly fulfilled order fired %v", got)
		}
		fulfil("k2", 1)
		fulfil("k2", 1) // fulfilled already: no second event
		if got := p.topics(); strings.Join(got, ",") != "order/processed,order/created,order/fulfilled" {
			t.Fatalf("events %v", got)
		}
		got := rcv.WaitAccepted(1, hookWait)
		state := got[0].Body["data"].(map[string]any)["application_state"].(map[string]any)
		for _, li := range state["line_items"].([]any) {
			line := li.(map[string]any)
			if line["fulfilled_quantity"] != line["product_data"].(map[string]any)["quantity"] {
				t.Fatalf("order/fulfilled carries a line not fulfilled: %v", line)
			}
		}
		// Taking fulfilment back and completing it again is a new fulfilment.
		fulfil("k2", 0)
		fulfil("k2", 1)
		if got := p.topics(); len(got) != 4 || got[3] != "order/fulfilled" {
			t.Fatalf("events after a second fulfilment %v", got)
		}
	})
}

// The abandoned-order queue is dispatched by DispatchAbandonedOrders, which the job queue runs
// every five minutes; here the test runs it after moving the service clock.
func TestOrderAbandonedFiresAnHourAfterTheShoppersLastActivityForOrdersWithItems(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		ctx := context.Background()
		rcv := webhooktest.New(t, hookSecret)
		subscribe(t, a, rcv.URL, "order/abandoned")
		left, _, _ := initOrder(t, a)
		busy, busyJWT, _ := initOrder(t, a)
		empty, emptyJWT, _ := initOrder(t, a)
		for _, key := range []string{"k1", "k2"} {
			storefront(t, a, emptyJWT, "DELETE", "/checkout/storefront/"+a.shop+"/"+empty+"/items", map[string]any{"line_item_key": key}).wantStatus(t, 200)
		}
		dispatch := func(want int) {
			t.Helper()
			n, err := a.svc.Orders.DispatchAbandonedOrders(ctx)
			if err != nil || n != want {
				t.Fatalf("dispatch recorded %d (%v), want %d", n, err, want)
			}
		}
		a.clock.Advance(40 * time.Minute)
		storefront(t, a, busyJWT, "PATCH", "/checkout/storefront/"+a.shop+"/"+busy+"/meta_data", map[string]any{"notes": "still here"}).wantStatus(t, 200)
		a.clock.Advance(19 * time.Minute)
		dispatch(0) // 59 minutes: nobody has left yet
		a.clock.Advance(2 * time.Minute)
		dispatch(1) // 61 minutes: the first order; the busy one was active 21 minutes ago; the empty one has no items
		dispatch(0) // an order is abandoned once
		a.clock.Advance(40 * time.Minute)
		dispatch(1) // the busy order, an hour after its activity
		got := rcv.WaitAccepted(2, hookWait)
		// Deliveries of different orders may pass each other; only one order's keep their order.
		orders := map[any]bool{}
		for _, c := range got {
			orders[c.Body["data"].(map[string]any)["public_order_id"]] = c.Topic == "order/abandoned"
		}
		if len(orders) != 2 || !orders[left] || !orders[busy] {
			t.Fatalf("abandoned %v, want %s and %s", orders, left, busy)
		}
		// A shopper who comes back (resume) and leaves again abandons the order again.
		a.do("POST", "/checkout/orders/"+a.shop+"/resume", map[string]any{"public_order_id": left}).wantStatus(t, 200)
		a.clock.Advance(59 * time.Minute)
		dispatch(0)
		a.clock.Advance(2 * time.Minute)
		dispatch(1)
	})
}

// Activity is recorded to the minute (a checkout's changes then write no index entry), so the
// sweep waits a minute longer: an order is never abandoned before an hour of the shopper's idleness.
func TestAnOrderChangedWithinAMinuteOfItsLastActivityIsNotAbandonedBeforeAnHourAfterThatChange(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		ctx := context.Background()
		id, jwt, _ := initOrder(t, a)
		a.clock.Advance(50 * time.Second)
		storefront(t, a, jwt, "PATCH", "/checkout/storefront/"+a.shop+"/"+id+"/meta_data", map[string]any{"notes": "still here"}).wantStatus(t, 200)
		dispatch := func(want int) {
			t.Helper()
			if n, err := a.svc.Orders.DispatchAbandonedOrders(ctx); err != nil || n != want {
				t.Fatalf("dispatch abandoned %d (%v), want %d", n, err, want)
			}
		}
		a.clock.Advance(time.Hour - time.Second)
		dispatch(0) // 59 minutes 59 seconds after the change
		a.clock.Advance(11 * time.Second)
		dispatch(1) // a minute after the hour from the recorded activity
	})
}

func TestAShopSendingItsOwnAbandonedCartEmailsEmailsTheShopperAndFiresNoOrderAbandoned(t *testing.T) {
	box := newMailbox(t)
	eachHooks(t, []service.Option{service.WithSMTP("smtp://" + box.addr + "?from=shop@example.com")}, func(t *testing.T, a *api) {
		ctx := context.Background()
		rcv := webhooktest.New(t, hookSecret)
		subscribe(t, a, rcv.URL, "order/abandoned")
		sh, err := a.svc.Shops.ShopByIdentifier(ctx, a.shop)
		if err != nil {
			t.Fatal(err)
		}
		on := true
		if _, err := a.svc.Shops.UpdateSettings(ctx, sh, shops.SettingsInput{AbandonedCartEmails: &on}); err != nil {
			t.Fatal(err)
		}
		id, jwt, _ := initOrder(t, a)
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/customer/guest", guest()).wantStatus(t, 200)
		before := len(box.messages())
		a.clock.Advance(61 * time.Minute)
		if n, err := a.svc.Orders.DispatchAbandonedOrders(ctx); err != nil || n != 1 {
			t.Fatalf("abandoned %d (%v), want 1", n, err)
		}
		deadline := time.Now().Add(hookWait)
		for len(box.messages()) == before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		msgs := box.messages()
		if len(msgs) != before+1 || !strings.Contains(msgs[before], "To-Envelope: ada@example.com") || !strings.Contains(msgs[before], "2 x Mug") {
			t.Fatalf("mail %v", msgs[before:])
		}
		events, err := a.svc.Client().Event.Query().All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if e.Topic == platform.TopicOrderAbandoned {
				t.Fatalf("order/abandoned recorded while the shop sends its own emails")
			}
		}
		if len(rcv.Calls()) != 0 {
			t.Fatalf("the subscriber got %v", rcv.Calls())
		}
	})
}

// giftCardCart is a mug and two gift cards of 50.00 for Ann.
func giftCardCart(t *testing.T, a *api) map[string]any {
	t.Helper()
	sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
	if err != nil {
		t.Fatal(err)
	}
	no := false
	if _, err := a.svc.Catalog.CreateProduct(context.Background(), sh, catalog.ProductInput{PlatformID: "gift", Title: "Gift card", GiftCard: true,
		Variants: []catalog.VariantInput{{PlatformID: "gift-50", SKU: "GIFT-50", Price: 5000, RequiresShipping: &no}}}); err != nil {
		t.Fatal(err)
	}
	return map[string]any{"cart_items": []map[string]any{
		{"sku": "MUG-1", "quantity": 1, "line_item_key": "mug", "title": "Mug", "price": 1250},
		{"platform_id": "gift-50", "quantity": 2, "line_item_key": "gift", "line_item_properties": map[string]string{"recipient_name": "Ann", "message": "Enjoy"}},
	}}
}

func processCart(t *testing.T, a *api, gwID string, body map[string]any) *checkout {
	t.Helper()
	c := readyCheckout(t, a, body)
	c.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
	c.call("POST", "/process_order", nil).wantStatus(t, 200)
	return c
}

func TestGiftCardCreatedFiresWhenAGiftCardIsBoughtInAShopWithGiftCardsEnabled(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		ctx := context.Background()
		rcv := webhooktest.New(t, hookSecret)
		subscribe(t, a, rcv.URL, "gift_card/created")
		gwID := addGateway(t, a, gatewaytest.New(t, gatewayAPIToken), "Cards")
		body := giftCardCart(t, a)
		off := processCart(t, a, gwID, body)
		if got := off.topics(); strings.Join(got, ",") != "order/processed,order/created" {
			t.Fatalf("gift cards are off, and the order fired %v", got)
		}
		sh, _ := a.svc.Shops.ShopByIdentifier(ctx, a.shop)
		enabled := true
		if _, err := a.svc.Shops.UpdateSettings(ctx, sh, shops.SettingsInput{GiftCardsEnabled: &enabled}); err != nil {
			t.Fatal(err)
		}
		on := processCart(t, a, gwID, body)
		if got := on.topics(); strings.Join(got, ",") != "order/processed,order/created,gift_card/created,gift_card/created" {
			t.Fatalf("events %v", got)
		}
		got := rcv.WaitAccepted(2, hookWait)
		tokens := map[string]bool{}
		for _, c := range got {
			data := c.Body["data"].(map[string]any)
			card := data["gift_card"].(map[string]any)
			if data["public_order_id"] != on.id || data["line_item_key"] != "gift" || card["amount"].(float64) != 5000 ||
				card["currency"] != "USD" || card["recipient_name"] != "Ann" || card["message"] != "Enjoy" || card["customer_email"] == "" {
				t.Fatalf("gift_card/created %s", c.Raw)
			}
			tokens[card["card_token"].(string)] = true
			// The card the event announces works, with the pin the event carries.
			found := a.do("GET", a.shopPath("/gift_card?card_token="+card["card_token"].(string)+"&card_pin="+card["card_pin"].(string)), nil).
				wantStatus(t, 200).data(t)["gift_card"].(map[string]any)
			if found["balance"].(float64) != 5000 {
				t.Fatalf("issued card %v", found)
			}
		}
		if len(tokens) != 2 {
			t.Fatalf("two units, %d cards", len(tokens))
		}
	})
}

func TestOrderFailedFiresWhenAuthorizationOrCaptureFailsButNotWhenTheGatewayAsksForAction(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		subscribe(t, a, rcv.URL, "order/failed")
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Cards")

		action := readyCheckout(t, a, cart())
		action.pay(gwID, gatewaytest.TokenAction, 0).wantStatus(t, 200)
		action.call("POST", "/process_order", nil).wantStatus(t, 202)
		if got := action.topics(); len(got) != 0 {
			t.Fatalf("a gateway asking for customer action fired %v", got)
		}

		declined := readyCheckout(t, a, cart())
		declined.pay(gwID, gatewaytest.TokenDecline, 0).wantStatus(t, 200)
		declined.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.declined")

		p := processedOrder(t, a, gw)
		gw.SetMode("/capture", "decline")
		p.post("/payments/capture/full", map[string]any{}, "").wantError(t, 422, "", "capture.failed")

		got := rcv.WaitAccepted(2, hookWait)
		reasons := map[any]any{}
		for _, c := range got {
			data := c.Body["data"].(map[string]any)
			reasons[data["public_order_id"]] = data["reason"]
		}
		if reasons[declined.id] != "payment authorization failed" || reasons[p.id] != "payment capture failed" || len(reasons) != 2 {
			t.Fatalf("order/failed deliveries %v", reasons)
		}
	})
}
