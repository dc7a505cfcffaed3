package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/subscription"
)

// consoleSubscriptions gives the shop a product, a gateway and a weekly subscription of each
// customer's, its next order in two days.
func consoleSubscriptions(t *testing.T, svc *service.Service, sh *ent.Shop, now time.Time, customers ...subscription.CustomerInput) []*subscription.View {
	t.Helper()
	ctx := context.Background()
	if _, err := svc.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: "lamp", Title: "Lamp",
		Variants: []catalog.VariantInput{{PlatformID: "lamp-1", SKU: "LAMP", Price: 5000}}}); err != nil {
		t.Fatal(err)
	}
	gatewaytest.New(t, "tok").Register(svc.Shops, sh, "Cards")
	next := now.Add(48 * time.Hour)
	addr := &subscription.AddressInput{FirstName: "Ada", LastName: "L", Street1: "1 Main St", City: "Albany", ProvinceCode: "NY", CountryCode: "US", Zip: "12207"}
	var out []*subscription.View
	for _, cu := range customers {
		v, err := svc.Subscriptions.CreateSubscription(ctx, sh, subscription.CreateInput{
			Customer: cu,
			Subscription: subscription.SubscriptionInput{NextOrderDatetime: &next, OrderRRule: "FREQ=WEEKLY", BaseCurrency: sh.Currency, ChargedCurrency: sh.Currency,
				LineItems:      []subscription.LineItemInput{{PlatformVariantID: "lamp-1", Quantity: 1, Price: 5000}},
				BillingAddress: addr, ShippingAddress: addr,
				PaymentDetails: subscription.PaymentDetails{GatewayName: "Cards", GatewayPaymentID: gatewaytest.TokenOK}},
		})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// The console lists the shop's subscriptions and pauses, resumes, skips and places them.
func TestTheConsoleListsSubscriptionsAndPausesAndPlacesThem(t *testing.T) {
	eachAdmin(t, func(t *testing.T, a *adminClient) {
		ctx := context.Background()
		sh, err := a.svc.Shops.ShopByIdentifier(ctx, "shop-a")
		if err != nil {
			t.Fatal(err)
		}
		v := consoleSubscriptions(t, a.svc, sh, a.clock.Now(), subscription.CustomerInput{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"})[0]
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

// The list is filtered by status and searched by the customer's platform id (whole) as they are
// chosen and typed, through List Subscriptions; the filter is the page's address.
func TestSubscriptionsAreFilteredByStatusAndSearchedByTheCustomersPlatformID(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		sh := c.shopEntity()
		subs := consoleSubscriptions(t, c.svc, sh, c.clock.Now(),
			subscription.CustomerInput{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com", PlatformID: "cust-ada"},
			subscription.CustomerInput{FirstName: "Bob", LastName: "Hope", Email: "bob@example.com", PlatformID: "cust-bob"})
		if _, err := c.svc.Subscriptions.Pause(context.Background(), sh, subs[1].ID); err != nil {
			t.Fatal(err)
		}
		c.signIn()
		c.visit("/admin/subscriptions")
		c.wantText("#subscriptions-list", "2 in all")

		c.choose("#status", "paused")
		c.waitText("#subscriptions-list", "1 in all")
		c.wantText("#subscriptions", "Bob Hope")
		c.wantNoText("#subscriptions", "Ada")

		c.choose("#status", "")
		// Wait for the unfiltered list: the paused one also says "1 in all".
		c.waitText("#subscriptions-list", "2 in all")
		c.retype("#customer", "cust-ada")
		c.waitText("#subscriptions-list", "1 in all")
		c.wantText("#subscriptions", "Ada Lovelace")
		c.wantNoText("#subscriptions", "Bob")

		c.retype("#customer", "cust-a")
		c.waitText("#subscriptions-list", "No subscription has that status and customer.")

		c.visit("/admin/subscriptions?status=paused&customer=cust-bob")
		c.wantText("#subscriptions", "Bob Hope")
		if got := c.value("#customer"); got != "cust-bob" {
			t.Fatalf("the search box holds %q", got)
		}
		c.visit("/admin/subscriptions?status=deleted")
		c.wantText("#search-refused", "subscription_status must be")
	})
}
