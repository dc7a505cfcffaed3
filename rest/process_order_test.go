package rest_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/checkoutd/checkoutd/ent/event"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

const gatewayAPIToken = "gw-api-token"

// addGateway registers a test gateway with the shop and returns its public id.
func addGateway(t *testing.T, a *api, gw *gatewaytest.Server, name string) string {
	t.Helper()
	d := a.do("POST", a.shopPath("/external_payment_gateways"), map[string]any{
		"name": name, "base_url": gw.URL, "api_token": gatewayAPIToken, "partial_capture": true,
		"additional_order_details": false, "provider_id": gatewaytest.ProviderID, "currency": "USD",
	}).wantStatus(t, 200).data(t)
	return d["external_payment_gateway"].(map[string]any)["public_id"].(string)
}

// checkout is one order on its way to processing, seen from the storefront.
type checkout struct {
	t    *testing.T
	a    *api
	id   string
	jwt  string
	base string
}

// readyCheckout starts an order and gives it everything process_order needs but payments:
// a guest, both addresses, a shipping line and generated taxes.
func readyCheckout(t *testing.T, a *api, cartBody map[string]any) *checkout {
	t.Helper()
	d := a.do("POST", "/checkout/orders/"+a.shop+"/init", cartBody).wantStatus(t, 200).data(t)
	c := &checkout{t: t, a: a, id: d["public_order_id"].(string), jwt: d["jwt_token"].(string)}
	c.base = "/checkout/storefront/" + a.shop + "/" + c.id
	c.call("POST", "/customer/guest", guest()).wantStatus(t, 200)
	c.call("POST", "/addresses/shipping", usAddress()).wantStatus(t, 200)
	c.call("POST", "/addresses/billing", usAddress()).wantStatus(t, 200)
	c.call("POST", "/shipping_lines", map[string]any{"index": "0"}).wantStatus(t, 200)
	return c
}

func (c *checkout) call(method, path string, body any) response {
	c.t.Helper()
	return c.a.doAs(c.jwt, method, c.base+path, body)
}

func (c *checkout) state() map[string]any {
	c.t.Helper()
	return stateOf(c.t, c.call("GET", "/refresh", nil).wantStatus(c.t, 200))
}

func (c *checkout) total() int64 { return int64(c.state()["order_total"].(float64)) }

func (c *checkout) pay(gatewayID, token string, amount int64) response {
	c.t.Helper()
	body := map[string]any{"gateway_public_id": gatewayID, "token": token, "currency": "USD", "type": "credit_card", "display_string": "Visa ending 4242"}
	if amount > 0 {
		body["amount"] = amount
	}
	return c.call("POST", "/payments", body)
}

func (c *checkout) orderStatus() order.Status {
	c.t.Helper()
	o, err := c.a.svc.Client().Order.Query().Where(order.PublicOrderID(c.id)).Only(context.Background())
	if err != nil {
		c.t.Fatal(err)
	}
	return o.Status
}

func (c *checkout) topics() []string {
	c.t.Helper()
	evs, err := c.a.svc.Client().Event.Query().Where(event.HasOrderWith(order.PublicOrderID(c.id))).Order(event.ByID()).All(context.Background())
	if err != nil {
		c.t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Topic)
	}
	return out
}

func TestProcessOrderAuthorizesThePaymentThroughItsGatewayAndMarksTheOrderProcessed(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		c := readyCheckout(t, a, cart())
		total := c.total()
		paid := stateOf(t, c.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200))
		if paid["order_balance"].(float64) != 0 || len(paid["payments"].([]any)) != 1 {
			t.Fatalf("after adding a payment of the whole total: %v %v", paid["order_balance"], paid["payments"])
		}
		state := stateOf(t, c.call("POST", "/process_order", nil).wantStatus(t, 200))
		if state["is_processed"] != true || !strings.HasPrefix(state["platform_order_id"].(string), "CKD-") {
			t.Fatalf("processed state %v %v", state["is_processed"], state["platform_order_id"])
		}
		auths := gw.Calls("/auth")
		if len(auths) != 1 || int64(auths[0].Body["amount"].(float64)) != total || auths[0].Body["order_id"] != c.id ||
			auths[0].Body["currency"] != "USD" || auths[0].IdempotencyKey == "" {
			t.Fatalf("gateway saw %+v, want one /auth of %d for %s", auths, total, c.id)
		}
		if got := c.topics(); strings.Join(got, ",") != "order/processed,order/created" {
			t.Fatalf("events %v", got)
		}
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "order.not_open")
		c.call("POST", "/items", map[string]any{"sku": "X", "quantity": 1, "line_item_key": "late"}).wantError(t, 422, "", "order.not_open")
	})
}

func TestProcessOrderNeedsACompleteOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		fresh := func() *checkout {
			d := a.do("POST", "/checkout/orders/"+a.shop+"/init", cart()).wantStatus(t, 200).data(t)
			c := &checkout{t: t, a: a, id: d["public_order_id"].(string), jwt: d["jwt_token"].(string)}
			c.base = "/checkout/storefront/" + a.shop + "/" + c.id
			return c
		}
		c := fresh()
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "order.no_customer")
		c.call("POST", "/customer/guest", guest()).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "order.no_shipping_address")
		c.call("POST", "/addresses/shipping", usAddress()).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "order.no_shipping_line")
		c.call("POST", "/shipping_lines", map[string]any{"index": "0"}).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "order.payments_do_not_cover_total")
		c.pay(gwID, gatewaytest.TokenOK, 100).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "order.no_billing_address")
		c.call("POST", "/addresses/billing", usAddress()).wantStatus(t, 200)
		e := c.call("POST", "/process_order", nil).wantError(t, 422, "", "order.payments_do_not_cover_total")
		if e["details"].(map[string]any)["payments_total"].(float64) != 100 {
			t.Fatalf("details %v", e["details"])
		}
		if n := len(gw.Calls("")); n != 0 {
			t.Fatalf("an incomplete order reached the gateway %d times", n)
		}
		if c.orderStatus() != order.StatusOpen {
			t.Fatalf("status %s", c.orderStatus())
		}
	})
}

func TestPaymentsCannotAddUpToMoreThanTheOrderTotal(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		c := readyCheckout(t, a, cart())
		total := c.total()
		c.pay(gwID, "tok_a", total+1).wantError(t, 422, "", "payment.exceeds_order_total")
		c.pay(gwID, "tok_a", total-500).wantStatus(t, 200)
		c.pay(gwID, "tok_b", 501).wantError(t, 422, "", "payment.exceeds_order_total")
		state := stateOf(t, c.pay(gwID, "tok_b", 0).wantStatus(t, 200))
		if state["order_balance"].(float64) != 0 || state["payments"].([]any)[1].(map[string]any)["amount"].(float64) != 500 {
			t.Fatalf("a payment without amount takes what is left: %v", state["payments"])
		}
		c.pay(gwID, "tok_c", 0).wantError(t, 422, "", "payment.nothing_to_pay")
	})
}

func TestPaymentWithUnknownGatewayOrWithoutTokenIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		c := readyCheckout(t, a, cart())
		c.pay("no-such-gateway", "tok", 0).wantError(t, 422, "", "payment.gateway_not_found")
		c.pay("no-such-gateway", "", 0).wantError(t, 422, "", "payment.invalid_payment")
		c.call("POST", "/payments", `{"gateway_public_id":"x","token":"t","amount":"ten"}`).wantError(t, 422, "", "request.invalid_field_type")
	})
}

func TestUpdateAndDeletePaymentNameItByGatewayAndToken(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		c := readyCheckout(t, a, cart())
		c.pay(gwID, "tok_a", 1000).wantStatus(t, 200)
		state := stateOf(t, c.call("PUT", "/payments", map[string]any{"gateway_public_id": gwID, "token": "tok_a", "amount": 1500}).wantStatus(t, 200))
		if state["payments"].([]any)[0].(map[string]any)["amount"].(float64) != 1500 {
			t.Fatalf("payments %v", state["payments"])
		}
		state = stateOf(t, c.call("DELETE", "/payments", map[string]any{"gateway_public_id": gwID, "token": "tok_a"}).wantStatus(t, 200))
		if len(state["payments"].([]any)) != 0 {
			t.Fatalf("payments after delete %v", state["payments"])
		}
		c.call("DELETE", "/payments", map[string]any{"gateway_public_id": gwID, "token": "tok_a"}).wantError(t, 422, "", "payment.not_found")
	})
}

// The spec's Authorize Payments rule: if one payment fails authorization, all payments on the
// order are voided.
func TestOneDeclinedPaymentVoidsTheOthersAndTheOrderStaysOpen(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		good := gatewaytest.New(t, gatewayAPIToken)
		bad := gatewaytest.New(t, gatewayAPIToken)
		goodID := addGateway(t, a, good, "Good")
		badID := addGateway(t, a, bad, "Bad")
		c := readyCheckout(t, a, cart())
		total := c.total()
		c.pay(goodID, gatewaytest.TokenOK, total-1000).wantStatus(t, 200)
		c.pay(badID, gatewaytest.TokenDecline, 1000).wantStatus(t, 200)
		e := c.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.declined")
		if d := e["details"].(map[string]any); d["gateway_public_id"] != badID || d["gateway_error_code"] != "card_declined" {
			t.Fatalf("the error does not name the declined tender: %v", d)
		}
		if len(good.Auths()) != 1 || len(good.OpenAuths()) != 0 || len(good.Calls("/void")) != 1 {
			t.Fatalf("the good gateway's authorization was not voided: auths %+v", good.Auths())
		}
		if c.orderStatus() != order.StatusOpen {
			t.Fatalf("status %s, want open", c.orderStatus())
		}
		state := c.state()
		if len(state["payments"].([]any)) != 0 || state["is_processed"] != false {
			t.Fatalf("payments of the failed attempt stay on the order: %v", state["payments"])
		}
		if got := c.topics(); strings.Join(got, ",") != "order/failed" {
			t.Fatalf("events %v", got)
		}
		// The shopper pays again and the order goes through.
		c.pay(goodID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
	})
}

// A gateway that authorized but whose answer was lost (a timeout, a 5xx after the fact) is asked
// again with the same Idempotency-Key: the order is processed on that one authorization.
func TestALostGatewayAnswerIsRecoveredByAskingAgainWithTheSameKey(t *testing.T) {
	for _, token := range []string{gatewaytest.TokenHang, gatewaytest.TokenErrorAfterOK} {
		t.Run(token, func(t *testing.T) {
			eachAPI(t, func(t *testing.T, a *api) {
				gw := gatewaytest.New(t, gatewayAPIToken)
				gwID := addGateway(t, a, gw, "Flaky")
				c := readyCheckout(t, a, cart())
				c.pay(gwID, token, 0).wantStatus(t, 200)
				c.call("POST", "/process_order", nil).wantStatus(t, 200)
				calls := gw.Calls("/auth")
				if len(gw.Auths()) != 1 || len(calls) != 2 || calls[0].IdempotencyKey != calls[1].IdempotencyKey {
					t.Fatalf("want one authorization asked twice under one key; auths %+v, calls %+v", gw.Auths(), calls)
				}
				payment := c.state()["payments"].([]any)[0].(map[string]any)
				if payment["status"] != "authorized" {
					t.Fatalf("payment %v", payment)
				}
			})
		})
	}
}

func TestAGatewayThatKeepsFailingLeavesNoAuthorizationBehind(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		first := gatewaytest.New(t, gatewayAPIToken)
		broken := gatewaytest.New(t, gatewayAPIToken)
		firstID := addGateway(t, a, first, "First")
		brokenID := addGateway(t, a, broken, "Broken")
		c := readyCheckout(t, a, cart())
		c.pay(firstID, gatewaytest.TokenOK, 1000).wantStatus(t, 200)
		c.pay(brokenID, gatewaytest.TokenError, 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.authorization_failed")
		if open := append(first.OpenAuths(), broken.OpenAuths()...); len(open) != 0 {
			t.Fatalf("authorizations left open: %+v", open)
		}
		if c.orderStatus() != order.StatusOpen {
			t.Fatalf("status %s, want open", c.orderStatus())
		}
	})
}

// lampsInStock adds a lamp (SKU LAMP, 5000) with stock tracked to the test shop's catalog.
func lampsInStock(t *testing.T, a *api, stock int) {
	t.Helper()
	sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.svc.Catalog.CreateProduct(context.Background(), sh, catalog.ProductInput{PlatformID: "lamp", Title: "Lamp",
		Variants: []catalog.VariantInput{{PlatformID: "lamp-1", SKU: "LAMP", Price: 5000, InventoryTracked: true, InventoryQuantity: stock}}}); err != nil {
		t.Fatal(err)
	}
}

func TestTwoShoppersBuyingTheLastUnitExactlyOneSucceeds(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		lampsInStock(t, a, 1)
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		lastUnit := map[string]any{"cart_items": []map[string]any{{"sku": "LAMP", "quantity": 1, "line_item_key": "lamp"}}}
		shoppers := []*checkout{readyCheckout(t, a, lastUnit), readyCheckout(t, a, lastUnit)}
		for _, c := range shoppers {
			c.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		}
		statuses := make([]int, len(shoppers))
		var wg sync.WaitGroup
		for i, c := range shoppers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses[i] = a.doAs(c.jwt, "POST", c.base+"/process_order", nil).Status
			}()
		}
		wg.Wait()
		if !(statuses[0] == 200 && statuses[1] == 422 || statuses[0] == 422 && statuses[1] == 200) {
			t.Fatalf("statuses %v, want one 200 and one 422", statuses)
		}
		v, err := a.svc.Client().Variant.Query().Only(context.Background())
		if err != nil || v.InventoryQuantity != 0 {
			t.Fatalf("stock %d (%v), want 0", v.InventoryQuantity, err)
		}
		if len(gw.Calls("/auth")) != 1 {
			t.Fatalf("the gateway saw %d authorizations, want only the winner's", len(gw.Calls("/auth")))
		}
	})
}

func TestAFailedAuthorizationGivesTheStockBack(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		lampsInStock(t, a, 3)
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		c := readyCheckout(t, a, map[string]any{"cart_items": []map[string]any{{"sku": "LAMP", "quantity": 2, "line_item_key": "lamp"}}})
		c.pay(gwID, gatewaytest.TokenDecline, 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.declined")
		v, _ := a.svc.Client().Variant.Query().Only(context.Background())
		if v.InventoryQuantity != 3 {
			t.Fatalf("stock %d after a declined order, want 3", v.InventoryQuantity)
		}
	})
}

func TestGiftCardTenderIsDebitedAtProcessingAndCreditedWhenTheOrderFails(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		card := issueCard(t, a) // 5000
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		balance := func() int64 {
			g, err := a.svc.Client().GiftCard.Get(context.Background(), card.GiftCard.ID)
			if err != nil {
				t.Fatal(err)
			}
			return g.Balance
		}
		c := readyCheckout(t, a, cart()) // 5500 with shipping
		c.call("POST", "/payments", map[string]any{"type": "gift_card", "token": card.GiftCard.CardToken, "pin": "0000"}).
			wantError(t, 422, "", "gift_card.invalid_card")
		state := stateOf(t, c.call("POST", "/payments", map[string]any{"type": "gift_card", "token": card.GiftCard.CardToken, "pin": card.Pin}).wantStatus(t, 200))
		if state["payments"].([]any)[0].(map[string]any)["amount"].(float64) != 5000 || state["order_balance"].(float64) != 500 {
			t.Fatalf("gift card covers what it holds: %v, balance %v", state["payments"], state["order_balance"])
		}
		c.pay(gwID, gatewaytest.TokenDecline, 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.declined")
		if balance() != 5000 {
			t.Fatalf("balance %d after the order failed, want 5000", balance())
		}
		c.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		c.call("POST", "/process_order", nil).wantStatus(t, 200)
		if balance() != 0 {
			t.Fatalf("balance %d after processing, want 0", balance())
		}
	})
}

func TestRequiresActionAnswers202AndKeepsThePaymentForTheNextTry(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "3DS cards")
		c := readyCheckout(t, a, cart())
		c.pay(gwID, gatewaytest.TokenAction, 0).wantStatus(t, 200)
		r := c.call("POST", "/process_order", nil).wantStatus(t, 202)
		if r.data(t)["requires_action"] == nil {
			t.Fatalf("202 without requires_action: %s", r.Raw)
		}
		if c.orderStatus() != order.StatusOpen || len(c.state()["payments"].([]any)) != 1 {
			t.Fatalf("after requires_action: status %s, payments %v", c.orderStatus(), c.state()["payments"])
		}
	})
}

func TestBackendAuthorizePaymentsAuthorizesAllOrNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		c := readyCheckout(t, a, cart())
		path := "/checkout/orders/" + a.shop + "/" + c.id + "/payments/auth/full"
		a.do("POST", path, nil).wantError(t, 422, "", "order.no_payments")
		c.pay(gwID, "tok_one", 1000).wantStatus(t, 200)
		c.pay(gwID, gatewaytest.TokenDecline, 1000).wantStatus(t, 200)
		a.do("POST", path, nil).wantError(t, 422, "", "payment.declined")
		if len(gw.OpenAuths()) != 0 {
			t.Fatalf("open authorizations after a decline: %+v", gw.OpenAuths())
		}
		c.pay(gwID, "tok_two", 2000).wantStatus(t, 200)
		d := a.do("POST", path, nil).wantStatus(t, 200).data(t)
		txs := d["transactions"].([]any)
		if len(txs) != 1 || txs[0].(map[string]any)["step"] != "preAuthed" || txs[0].(map[string]any)["transaction_id"] == "" {
			t.Fatalf("authorize result %v", d)
		}
		if c.orderStatus() != order.StatusOpen {
			t.Fatalf("authorizing does not process the order: %s", c.orderStatus())
		}
	})
}
