package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/web"
)

// One Chromium serves the whole test binary; each test gets a browser context of its own (its
// own cookies, so that sessions of parallel tests never meet) and a tab in it.
var (
	browser        context.Context
	browserMissing string
)

func TestMain(m *testing.M) {
	os.Exit(runWithBrowser(m))
}

func runWithBrowser(m *testing.M) int {
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "web: Chromium is not installed, and under CI=true the browser tests must run (.ci/run installs it: apt-get install -y chromium)")
			return 1
		}
		browserMissing = "Chromium is not installed (apt-get install -y chromium): browser tests skipped"
		return m.Run()
	}
	profile, err := os.MkdirTemp("", "checkoutd-chromium-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(profile)
	// The flags Chromium needs to start as root on a machine without network (DESIGN.md).
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "web: starting Chromium:", err)
		return 1
	}
	browser = ctx
	return m.Run()
}

// console is the admin console of one shop on one database, and a browser tab on it.
type console struct {
	t     *testing.T
	url   string
	svc   *service.Service
	shop  string
	token string
	tab   context.Context
	clock *fakeClock
}

// eachConsole runs fn on SQLite and on PostgreSQL, in a fresh browser context each time.
func eachConsole(t *testing.T, fn func(t *testing.T, c *console)) {
	if browserMissing != "" {
		t.Skip(browserMissing)
	}
	// Each test has its own server, database and browser context: they can share the browser.
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		fn(t, newConsole(t, db))
	})
}

// newConsole serves the console of a new shop-a on db; opts are the service's options beyond
// the tests' usual ones.
func newConsole(t *testing.T, db *platform.Database, opts ...service.Option) *console {
	clock := &fakeClock{now: time.Now()}
	svc := service.New(db, append([]service.Option{service.WithClock(clock.Now), service.WithGatewayTimeout(2 * time.Second),
		service.WithOutboundAllowPrivate(true)}, opts...)...)
	mux := http.NewServeMux()
	web.Register(mux, svc)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-a", Name: "Shop A"})
	if err != nil {
		t.Fatal(err)
	}
	tab, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTab)
	// The tab opens on this first call, which must not carry a timeout: its end would close the tab.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	c := &console{t: t, url: srv.URL, svc: svc, shop: "shop-a", token: created.AccessToken, tab: tab, clock: clock}
	// Registered after the tab's own cleanup, so it runs first, while the tab is still open.
	t.Cleanup(c.screenshotOnFailure)
	return c
}

func (c *console) screenshotOnFailure() {
	if !c.t.Failed() {
		return
	}
	ctx, cancel := context.WithTimeout(c.tab, 10*time.Second)
	defer cancel()
	location, _ := chromedp.Run(ctx, chromedp.Location())
	html, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main")))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		c.t.Logf("no screenshot: %v", err)
		return
	}
	file := filepath.Join(c.t.ArtifactDir(), "failure.png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		c.t.Logf("no screenshot: %v", err)
		return
	}
	if len(html) > 4000 {
		html = html[:4000] + "…"
	}
	c.t.Logf("screenshot of %s at failure: %s (go test -artifacts keeps it)\n%s", location, file, html)
}

// run performs browser actions with a bound, failing the test when they do not complete.
func (c *console) run(actions ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		c.t.Fatalf("browser: %v", err)
	}
}

func (c *console) visit(path string) {
	c.t.Helper()
	c.run(chromedp.Navigate(c.url+path), chromedp.WaitReady(chromedp.CSS("body")))
}

// fill sets form fields by id.
func (c *console) fill(fields map[string]string) {
	c.t.Helper()
	for id, v := range fields {
		js, _ := json.Marshal(map[string]string{"id": id, "v": v})
		ctx, cancel := context.WithTimeout(c.tab, 30*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(a => { const e = document.getElementById(a.id); if (!e) return false; e.value = a.v; return e.value === a.v })(%s)`, js)))
		cancel()
		if err != nil {
			c.t.Fatalf("browser: setting #%s to %q: %v", id, v, err)
		}
	}
}

// submitAndWait clicks a button or link that loads another page, and waits until that page
// shows want. The page it leaves is marked, so that an element it already showed (a flash
// message) is not taken for the next page's.
func (c *console) submitAndWait(button, want string) {
	c.t.Helper()
	c.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool]("window.checkoutdStale = true")(ctx, t)
		return err
	}), chromedp.Click(chromedp.CSS(button)))
	c.waitFor(want, true)
}

// swapAndWait clicks a button that makes htmx swap part of the page, and waits for want.
func (c *console) swapAndWait(button, want string) {
	c.t.Helper()
	c.run(chromedp.Click(chromedp.CSS(button)))
	c.waitFor(want, false)
}

// waitFor polls until the page shows sel (a new page, when fresh), across navigations.
func (c *console) waitFor(sel string, fresh bool) {
	c.t.Helper()
	js, _ := json.Marshal(sel)
	cond := fmt.Sprintf(`document.readyState === "complete" && !!document.querySelector(%s)`, js)
	if fresh {
		cond = "!window.checkoutdStale && " + cond
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(c.tab, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(30 * time.Millisecond)
	}
	c.t.Fatalf("browser: %s did not show up", sel)
}

func (c *console) text(sel string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, 30*time.Second)
	defer cancel()
	// Found and read in one evaluation in the page, once the element is there: an element found
	// first and read after could be swapped out by htmx in between (a search typed key by key
	// is answered more than once).
	js, _ := json.Marshal(sel)
	type read struct {
		Text string `json:"t"`
	}
	r, err := chromedp.Run(ctx, chromedp.PollFunction[*read](`s => { const e = document.querySelector(s); return e ? {t: e.innerText} : null }`,
		chromedp.WithPollingArgs(json.RawMessage(js)), chromedp.WithPollingTimeout(25*time.Second)))
	if err != nil {
		c.t.Fatalf("browser: reading %s: %v", sel, err)
	}
	return strings.TrimSpace(r.Text)
}

// waitText waits until sel holds want: for what htmx swaps in after a delay.
func (c *console) waitText(sel, want string) {
	c.t.Helper()
	js, _ := json.Marshal(map[string]string{"sel": sel, "want": want})
	c.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.PollFunction[bool](`a => { const e = document.querySelector(a.sel); return !!e && e.innerText.includes(a.want) }`,
			chromedp.WithPollingArgs(json.RawMessage(js)), chromedp.WithPollingTimeout(10*time.Second))(ctx, t)
		return err
	}))
}

// retype empties a field and types text into it key by key, as a user does (each key fires
// the input events htmx listens to).
func (c *console) retype(sel, text string) {
	c.t.Helper()
	c.run(typeInto(sel, text, true))
}

// typeIn types text into a field after what it holds, key by key, as a user does.
func (c *console) typeIn(sel, text string) {
	c.t.Helper()
	c.run(typeInto(sel, text, false))
}

// typeInto focuses the field (emptied first when empty is true) and sends text's keys to the
// page. chromedp's SendKeys is not used: it reads the node's attributes without their lock,
// a data race with the DOM events htmx's swaps cause.
func typeInto(sel, text string, empty bool) chromedp.Action[chromedp.Void] {
	js, _ := json.Marshal(map[string]any{"sel": sel, "empty": empty})
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		// As SendKeys did, wait for the field to be there.
		if _, err := chromedp.PollFunction[bool](`a => { const e = document.querySelector(a.sel); if (!e) return false; if (a.empty) e.value = ""; e.focus(); return true }`,
			chromedp.WithPollingArgs(json.RawMessage(js)), chromedp.WithPollingTimeout(10*time.Second))(ctx, t); err != nil {
			return fmt.Errorf("typing into %s: %w", sel, err)
		}
		_, err := chromedp.KeyEvent(text)(ctx, t)
		return err
	})
}

// choose picks a select's option by value, as a user does (the select fires change).
func (c *console) choose(sel, value string) {
	c.t.Helper()
	js, _ := json.Marshal(map[string]string{"sel": sel, "v": value})
	c.run(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](fmt.Sprintf(`(a => { const e = document.querySelector(a.sel); e.value = a.v; e.dispatchEvent(new Event("change", {bubbles: true})); return true })(%s)`, js))(ctx, t)
		return err
	}))
}

// clickAndWait clicks an element that changes only the page it is on (a checkbox).
func clickAndWait(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(sel))
}

// value reads a form field's current value.
func (c *console) value(sel string) string {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(sel)))
	if err != nil {
		c.t.Fatalf("browser: reading %s: %v", sel, err)
	}
	return v
}

func (c *console) wantNoText(sel, unwanted string) {
	c.t.Helper()
	if got := c.text(sel); strings.Contains(got, unwanted) {
		c.t.Fatalf("%s shows %q", sel, unwanted)
	}
}

func (c *console) wantText(sel, want string) {
	c.t.Helper()
	if got := c.text(sel); !strings.Contains(got, want) {
		c.t.Fatalf("%s reads %q, want it to contain %q", sel, got, want)
	}
}

// signIn signs in as the shop's admin and lands on the dashboard.
func (c *console) signIn() {
	c.t.Helper()
	c.visit("/admin/signin")
	c.fill(map[string]string{"shop_identifier": c.shop, "access_token": c.token})
	c.submitAndWait("#submit", "#shop-name")
}

// shopEntity reads the console's shop, for checking what the service stored.
func (c *console) shopEntity() *ent.Shop {
	c.t.Helper()
	sh, err := c.svc.Shops.ShopByIdentifier(context.Background(), c.shop)
	if err != nil {
		c.t.Fatal(err)
	}
	return sh
}

// fakeClock is the clock of the service and of session expiry, moved by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
