package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/remote"
	"github.com/checkoutd/checkoutd/service/shops"
)

const remoteSecret = "remote-secret-9876"

// signedRemote is a remote that verifies each call's signature and answers the body back, or
// refuses a discount code with an answer holding markup.
func signedRemote(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := hmacsig.Verify(r.Header, []byte(remoteSecret), time.Now()); err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/discount") {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"message":"<script>document.title='pwned'</script> expired"}`))
			return
		}
		_, _ = fmt.Fprintf(w, `{"echo":%s}`, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestTheExchangeLogShowsEachCallToTheRemotesEscapedAndNarrowedByKindAndOrder(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		ctx := context.Background()
		srv := signedRemote(t)
		sh := c.shopEntity()
		for _, x := range []struct{ kind, call, order string }{
			{remote.KindRSA, "process_order_events", "o-1"}, {remote.KindOverride, "discount", "o-2"},
		} {
			_, _, _ = c.svc.Remote.Do(ctx, remote.Request{Remote: x.kind + x.call, Kind: x.kind, Call: x.call, ShopID: sh.ID,
				PublicOrderID: x.order, URL: srv.URL + "/" + x.call, Secret: []byte(remoteSecret), Body: map[string]any{"order": x.order}})
		}
		c.svc.RemoteLog.Flush(ctx)
		c.signIn()

		c.visit("/admin/remote-state-authority")
		c.wantText("#rsa-intro", "process_order_events")
		c.wantText("#rsa-intro", "validate_inventory")
		c.wantText("#rsa-intro", "wins over the API overrides")
		c.submitAndWait("#rsa-exchanges", "#exchanges")
		c.wantText("nav.sections [aria-current=page]", "Remote exchanges")
		c.wantText("#exchanges", "process_order_events")
		c.wantText("#exchanges", "answered 200")
		c.wantNoText("#exchanges", "discount")

		c.visit("/admin/api-overrides")
		c.wantText("#overrides-intro", "fall back to the built-in function")
		c.wantText("#overrides-intro", "remote state authority")
		c.submitAndWait("#override-exchanges", "#exchanges")
		c.wantText("#exchanges", "refused 400")
		c.wantNoText("#exchanges", "process_order_events")
		// The answer is shown as text, once opened: its markup is not the page's.
		c.run(chromedp.Click(chromedp.CSS("#exchanges details:has(pre.answer) summary")), chromedp.Click(chromedp.CSS("#exchanges details:has(pre.request) summary")))
		c.wantText("#exchanges pre.answer", "<script>document.title='pwned'</script> expired")
		c.wantText("#exchanges pre.request", `{"order":"o-2"}`)
		ctxB, cancel := context.WithTimeout(c.tab, 30*time.Second)
		defer cancel()
		injected, err := chromedp.Run(ctxB, chromedp.Evaluate[bool](`!!document.querySelector("#exchanges script") || document.title === "pwned"`))
		if err != nil || injected {
			t.Fatalf("the answer's markup ran: %v %v", injected, err)
		}

		// At a phone's width the log's table scrolls inside the page, the page itself does not.
		c.run(chromedp.EmulateViewport(375, 740))
		c.visit("/admin/remote-exchanges")
		overflow, err := chromedp.Run(ctxB, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`))
		if err != nil || overflow {
			t.Fatalf("the exchange log scrolls sideways at 375px (%v)", err)
		}
		c.fill(map[string]string{"public_order_id": "o-1"})
		c.submitAndWait("#filter", "#exchange-filter")
		c.wantText("#exchanges", "o-1")
		c.wantNoText("#exchanges", "o-2")
	})
}

func TestAnOrderPageSaysWhoDecidesItsCheckoutAndLinksToItsExchanges(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		id := processedOrder(t, c.svc, c.shopEntity(), gatewaytest.New(t, "gw-token"), "ada@example.com")
		c.signIn()
		c.visit("/admin/orders/" + id)
		c.wantText("#order-remote-control", "checkoutd alone")
		srv := signedRemote(t)
		typ, u, secret := "tax", srv.URL+"/tax", remoteSecret
		if _, err := c.svc.Shops.CreateAPIOverride(context.Background(), c.shopEntity(),
			shops.APIOverrideInput{OverrideType: &typ, URL: &u, SharedSecret: &secret}); err != nil {
			t.Fatal(err)
		}
		c.visit("/admin/orders/" + id)
		c.wantText("#order-remote-control", "API overrides: tax")
		c.submitAndWait("#order-exchanges", "#exchange-filter")
		if v := c.value("#public_order_id"); v != id {
			t.Fatalf("the exchange log is filtered by %q, want %q", v, id)
		}
	})
}
