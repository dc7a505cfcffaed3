package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/shops"
)

// processedOrder is an order of sh paid through a test gateway and processed (authorized, not
// captured): a mug at 12.50 times two and 10.00 of shipping, 35.00 in all.
func processedOrder(t *testing.T, svc *service.Service, sh *ent.Shop, gw *gatewaytest.Server, email string) string {
	t.Helper()
	ctx := context.Background()
	str := func(s string) *string { return &s }
	yes, no := true, false
	g, err := svc.Shops.CreateExternalPaymentGateway(ctx, sh, shops.ExternalPaymentGatewayInput{Name: str("Test Pay"), BaseURL: &gw.URL,
		APIToken: input.Of("gw-token"), PartialCapture: &yes, AdditionalOrderDetails: &no, ProviderID: str(gatewaytest.ProviderID), Currency: str("USD")})
	if err != nil {
		t.Fatal(err)
	}
	price := int64(1250)
	v, err := svc.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{SKU: "MUG-1", Quantity: 2, LineItemKey: "k1", Title: str("Mug"), Price: &price}}})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := svc.Orders.BackendOrderSession(ctx, sh, v.Order.PublicOrderID)
	if err != nil {
		t.Fatal(err)
	}
	addr := orders.AddressInput{FirstName: "Ada", LastName: "Lovelace", AddressLine1: "1 Main St", City: "Albany", Country: "United States",
		CountryCode: "US", Province: "New York", ProvinceCode: "NY", PostalCode: "12207"}
	steps := []func() (*orders.OrderView, error){
		func() (*orders.OrderView, error) {
			return svc.Orders.CreateCustomer(ctx, sess, orders.CustomerInput{FirstName: "Ada", LastName: "Lovelace", EmailAddress: email}, false)
		},
		func() (*orders.OrderView, error) {
			return svc.Orders.SetAddress(ctx, sess, orders.ShippingAddress, addr)
		},
		func() (*orders.OrderView, error) {
			return svc.Orders.SetAddress(ctx, sess, orders.BillingAddress, addr)
		},
		func() (*orders.OrderView, error) { return svc.Orders.SelectShippingLine(ctx, sess, "0", "") },
		func() (*orders.OrderView, error) {
			return svc.Orders.AddPayment(ctx, sess, orders.PaymentInput{GatewayPublicID: g.PublicID, Token: gatewaytest.TokenOK, Currency: "USD",
				Type: "credit_card", DisplayString: "Visa ending 4242"})
		},
	}
	for _, step := range steps {
		if _, err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Checkout.ProcessOrder(ctx, sess); err != nil {
		t.Fatal(err)
	}
	return v.Order.PublicOrderID
}

func TestOrdersAreFoundAndCapturedRefundedAndCancelledBehindAConfirmation(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		gw := gatewaytest.New(t, "gw-token")
		id := processedOrder(t, c.svc, c.shopEntity(), gw, "ada@example.com")
		c.signIn()
		c.visit("/admin/orders")
		c.wantText("#orders", id)
		c.wantText("#orders", "$35.00")
		c.fill(map[string]string{"q": "nobody@example.com"})
		c.submitAndWait("#filter", ".empty")
		c.fill(map[string]string{"q": "ada@", "status": "processed"})
		c.submitAndWait("#filter", "#orders")
		c.wantText("#orders", id)

		c.submitAndWait("#orders a.order-link", "#order-summary")
		c.wantText("#order-state", "processed")
		c.wantText("#lines", "Mug")
		c.wantText("#order-total", "$35.00")
		c.wantText("#ledger", "authorize")

		c.fill(map[string]string{"capture_amount": "50.00"})
		c.submitAndWait("#capture", "#confirm-question")
		c.wantText("#confirm-question", "$50.00")
		c.submitAndWait("#confirm", "#capture_amount-error")
		c.fill(map[string]string{"capture_amount": "20.00"})
		c.submitAndWait("#capture", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("#money-captured", "$20.00")
		if captured, _ := gw.Totals(); captured != 2000 {
			t.Fatalf("the gateway captured %d, want 2000", captured)
		}

		c.fill(map[string]string{"refund_amount": "5.00", "refund_reason": "scratched"})
		c.submitAndWait("#refund", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("#money-refunded", "$5.00")

		c.fill(map[string]string{"cancel_reason": "customer asked"})
		c.submitAndWait("#cancel", "#confirm-question")
		c.submitAndWait("#cancel", "#order-summary")
		c.wantText("#order-state", "processed")
		c.fill(map[string]string{"cancel_reason": "customer asked"})
		c.submitAndWait("#cancel", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("#order-state", "cancelled")
		c.wantText("#ledger", "void")
		c.wantText("#events", "order/failed")

		c.visit("/admin")
		c.wantText("#orders-today", "1")
		c.wantText("#revenue-today", "$15.00")
	})
}

// A confirmation submitted twice moves money once: the second submission replays the first
// outcome, even after the order has moved on, and a confirmation changed after it was shown is
// refused rather than run under the same key.
func TestADoubleSubmittedConfirmationReplaysTheFirstOutcome(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		ctx := context.Background()
		sh, err := a.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		gw := gatewaytest.New(t, "gw-token")
		id := processedOrder(t, a.svc, sh, gw, "ada@example.com")
		a.signIn("shop-a", a.token)
		confirm := func(action string, fields url.Values) (*http.Response, string) {
			a.t.Helper()
			form := url.Values{"csrf_token": {a.csrf}, "confirmed": {"1"}}
			for k, v := range fields {
				form[k] = v
			}
			res, _ := a.post("/admin/orders/"+id+"/"+action, form)
			_, page := a.get("/admin/orders/" + id)
			return res, page
		}
		capture := url.Values{"operation_key": {"capture-key"}, "capture_amount": {"20.00"}}
		res, page := confirm("capture", capture)
		wantStatus(t, res, http.StatusSeeOther)
		if !strings.Contains(page, "paid so far $20.00") {
			t.Fatalf("the first capture says:\n%s", page)
		}
		res, _ = confirm("cancel", url.Values{"operation_key": {"cancel-key"}, "cancel_reason": {"customer asked"}})
		wantStatus(t, res, http.StatusSeeOther)

		res, page = confirm("capture", capture)
		wantStatus(t, res, http.StatusSeeOther)
		if !strings.Contains(page, "paid so far $20.00") {
			t.Fatalf("the resubmitted capture says:\n%s", page)
		}
		if n := len(gw.Calls("/capture")); n != 1 {
			t.Fatalf("%d captures reached the gateway, want 1", n)
		}
		res, _ = confirm("capture", url.Values{"operation_key": {"capture-key"}, "capture_amount": {"30.00"}})
		wantStatus(t, res, http.StatusUnprocessableEntity)
		if n := len(gw.Calls("/capture")); n != 1 {
			t.Fatalf("%d captures reached the gateway, want 1", n)
		}
	})
}

func TestAVerifiedPaymentIsChargedFromItsOrdersPage(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/payment-gateways")
		c.run(clickAndWait("#verify_payments_only"))
		c.submitAndWait("#save-payment-settings", "#flash")
		if !c.shopEntity().VerifyPaymentsOnly {
			t.Fatal("verify payments only was not saved")
		}
		gw := gatewaytest.New(t, "gw-token")
		id := processedOrder(t, c.svc, c.shopEntity(), gw, "ada@example.com")
		if len(gw.Calls("/auth")) != 0 {
			t.Fatal("a verified order was authorized")
		}
		c.visit("/admin/orders/" + id)
		c.fill(map[string]string{"charge_amount": "40.00"})
		c.submitAndWait("#charge", "#confirm-question")
		c.wantText("#confirm-question", "$40.00")
		c.submitAndWait("#confirm", "#charge_amount-error")
		c.fill(map[string]string{"charge_amount": "35.00"})
		c.submitAndWait("#charge", "#confirm-question")
		c.submitAndWait("#confirm", "#flash")
		c.wantText("#money-captured", "$35.00")
		if captured, _ := gw.Totals(); captured != 3500 {
			t.Fatalf("the gateway captured %d, want 3500", captured)
		}
	})
}
