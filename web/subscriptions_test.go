package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/subscription"
)

// The console lists the shop's subscriptions and pauses, resumes, skips and places them.
func TestTheConsoleListsSubscriptionsAndPausesAndPlacesThem(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		ctx := context.Background()
		sh, err := a.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.svc.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "lamp", Title: "Lamp",
			Variants: []catalog.VariantInput{{PlatformID: "lamp-1", SKU: "LAMP", Price: 5000}}}); err != nil {
			t.Fatal(err)
		}
		gatewaytest.New(t, "tok").Register(a.svc.Shops, sh, "Cards")
		next := a.clock.Now().Add(48 * time.Hour)
		addr := &subscription.AddressInput{FirstName: "Ada", LastName: "L", Street1: "1 Main St", City: "Albany", ProvinceCode: "NY", CountryCode: "US", Zip: "12207"}
		v, err := a.svc.Subscriptions.CreateSubscription(ctx, sh, subscription.CreateInput{
			Customer: subscription.CustomerInput{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"},
			Subscription: subscription.SubscriptionInput{NextOrderDatetime: &next, OrderRRule: "FREQ=WEEKLY", BaseCurrency: sh.Currency, ChargedCurrency: sh.Currency,
				LineItems:      []subscription.LineItemInput{{PlatformVariantID: "lamp-1", Quantity: 1, Price: 5000}},
				BillingAddress: addr, ShippingAddress: addr,
				PaymentDetails: subscription.PaymentDetails{GatewayName: "Cards", GatewayPaymentID: gatewaytest.TokenOK}},
		})
		if err != nil {
			t.Fatal(err)
		}
		wantStatus(t, a.signIn("shop-a", a.token), http.StatusSeeOther)
		res, page := a.get("/admin/subscriptions")
		wantStatus(t, res, http.StatusOK)
		if !strings.Contains(page, "Ada Lovelace") || !strings.Contains(page, "every week") {
			t.Fatalf("page lacks the subscription: %s", page)
		}
		id := strconv.Itoa(v.ID)
		res, _ = a.post("/admin/subscriptions/"+id+"/place", url.Values{"csrf_token": {a.csrf}})
		wantStatus(t, res, http.StatusSeeOther)
		res, _ = a.post("/admin/subscriptions/"+id+"/pause", url.Values{"csrf_token": {a.csrf}})
		wantStatus(t, res, http.StatusSeeOther)
		got, err := a.svc.Subscriptions.Subscription(ctx, sh, v.ID, false)
		if err != nil || got.SubscriptionStatus != "paused" || got.OrdersProcessed != 1 {
			t.Fatalf("after place now and pause: %+v %v", got, err)
		}
		_, page = a.get("/admin/subscriptions?status=paused")
		if !strings.Contains(page, `id="resume-`+id+`"`) {
			t.Fatalf("a paused subscription offers no resume: %s", page)
		}
		res, _ = a.post("/admin/subscriptions/"+id+"/nope", url.Values{"csrf_token": {a.csrf}})
		wantStatus(t, res, http.StatusNotFound)
	})
}
