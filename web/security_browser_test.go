package web_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/shops"
)

func TestAPostWithoutTheCSRFTokenIsRefusedInTheBrowser(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		c.visit("/admin/cors")
		// The session cookie goes along (same origin), the CSRF token does not.
		ctx, cancel := context.WithTimeout(c.tab, 10*time.Second)
		defer cancel()
		status, err := chromedp.Run(ctx, chromedp.Evaluate[int](`fetch("/admin/cors", {method: "POST", body: new URLSearchParams({domain: "https://evil.example.com"})}).then(r => r.status)`,
			chromedp.EvalAwaitPromise))
		if err != nil || status != 403 {
			t.Fatalf("a POST without the CSRF token answered %d (%v), want 403", status, err)
		}
		domains, err := c.svc.Shops.CorsDomains(context.Background(), c.shopEntity())
		if err != nil || len(domains) != 0 {
			t.Fatalf("the refused POST added %v (%v)", domains, err)
		}
	})
}

// Another shop's configuration and orders never appear in the console, and its objects cannot
// be reached by their ids.
func TestAnotherShopsObjectsNeverAppear(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		ctx := context.Background()
		other, err := c.svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-b", Name: "Shop B"})
		if err != nil {
			t.Fatal(err)
		}
		b := other.Shop
		el, err := c.svc.Shops.CreateLifeElement(ctx, b, shops.LifeElementInput{Location: input.Of("shipping"), InputType: input.Of("text"),
			MetaDataField: input.Of("shop_b_secret_field"), OrderAsc: input.Of(1), InputRequired: input.Of(false)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.svc.Shops.AddCorsDomain(ctx, b, "https://shop-b.example.com"); err != nil {
			t.Fatal(err)
		}
		dc, err := c.svc.Shops.CreateDiscountCode(ctx, b, shops.DiscountCodeInput{Code: "SHOPBONLY", Kind: discountcode.KindPercentage, Value: 500})
		if err != nil {
			t.Fatal(err)
		}
		orderID := processedOrder(t, c.svc, b, gatewaytest.New(t, "gw-token"), "b@example.com")

		c.signIn()
		for path, secret := range map[string]string{"/admin/life-elements": "shop_b_secret_field", "/admin/cors": "shop-b.example.com",
			"/admin/discount-codes": "SHOPBONLY", "/admin/orders": orderID, "/admin/payment-gateways": "Test Pay", "/admin/gift-cards": "SHOPB"} {
			c.visit(path)
			c.wantNoText("main", secret)
		}
		for _, path := range []string{"/admin/life-elements/" + el.PublicID, "/admin/orders/" + orderID, "/admin/discount-codes/" + strconv.Itoa(dc.ID)} {
			c.visit(path)
			c.wantText("#page-error", "no ")
		}
		c.visit("/admin/life-elements/" + el.PublicID + "/delete")
		c.wantText("#page-error", "no ")
		if els, err := c.svc.Shops.LifeElements(ctx, b); err != nil || len(els) != 1 {
			t.Fatalf("shop B's elements: %v %v", els, err)
		}
		c.visit("/admin")
		c.wantText("#orders-today", "0")
	})
}

func TestTheConsoleIsReadableOnAPhoneWidthScreen(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		// Lists with rows: their tables scroll inside the page, the page itself does not.
		id := processedOrder(t, c.svc, c.shopEntity(), gatewaytest.New(t, "gw-token"), "ada@example.com")
		c.run(chromedp.EmulateViewport(375, 740))
		c.signIn()
		for _, path := range []string{"/admin", "/admin/life-elements/new", "/admin/payment-gateways", "/admin/payment-gateways/new", "/admin/orders",
			"/admin/orders/" + id, "/admin/gift-cards", "/admin/shipping-zones"} {
			c.visit(path)
			ctx, cancel := context.WithTimeout(c.tab, 10*time.Second)
			overflow, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`))
			cancel()
			if err != nil || overflow {
				t.Fatalf("%s scrolls sideways at 375px (%v)", path, err)
			}
		}
	})
}

func TestEveryFieldHasALabelAndTheSkipLinkComesFirst(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		c.signIn()
		for _, path := range []string{"/admin/life-elements/new", "/admin/payment-gateways/new", "/admin/api-overrides/new", "/admin/webhooks",
			"/admin/gift-cards", "/admin/orders", "/admin/products", "/admin/shipping-zones", "/admin/tax-zones", "/admin/discount-codes", "/admin/integration",
			"/admin/platform-connector", "/admin/remote-state-authority", "/admin/remote-exchanges", "/admin/subscriptions"} {
			c.visit(path)
			ctx, cancel := context.WithTimeout(c.tab, 10*time.Second)
			unlabelled, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("input:not([type=hidden]), select, textarea")]
				.filter(e => !e.closest("label") && !(e.id && document.querySelector("label[for='" + e.id + "']"))).map(e => e.name)`))
			cancel()
			if err != nil || len(unlabelled) > 0 {
				t.Fatalf("%s has fields without a label: %v (%v)", path, unlabelled, err)
			}
		}
		c.visit("/admin")
		c.run(chromedp.KeyEvent("\t"))
		ctx, cancel := context.WithTimeout(c.tab, 10*time.Second)
		defer cancel()
		focused, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.textContent`))
		if err != nil || focused != "Skip to content" {
			t.Fatalf("the first Tab focuses %q (%v), want the skip link", focused, err)
		}
	})
}
