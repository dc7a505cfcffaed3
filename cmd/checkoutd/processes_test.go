package main

import (
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

// balancer hands each call to the next process in turn, as a load balancer without sticky
// sessions does.
type balancer struct {
	procs []*process
	next  atomic.Uint64
}

func (b *balancer) pick() *process { return b.procs[(b.next.Add(1)-1)%uint64(len(b.procs))] }

func (b *balancer) call(token, method, path string, body any, wantStatus int) map[string]any {
	return b.pick().call(token, method, path, body, wantStatus)
}

// stop ends the process as an operator does (SIGTERM) and waits for it.
func (p *process) stop() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.t.Fatal(err)
	}
	_ = p.cmd.Wait()
}

// Three checkoutd processes on one PostgreSQL serve one shop as one, whichever gets each call:
// they start together on an empty database (one migrates, the others wait for it); checkouts
// whose every call goes to the next process complete; concurrent partial captures of one order,
// spread over the three under shared and distinct idempotency keys, move exactly the money they
// answer at the gateway; every webhook event is delivered once; and a console session signed in
// through one process works on the others, outlives a restart of the first, and ends
// everywhere when it signs out on the third.
func TestThreeProcessesOnOnePostgreSQLServeOneShopAsOne(t *testing.T) {
	dbURL := servicetest.PostgresURL(t)
	binary(t) // built before the clock starts
	started := time.Now()
	// Each process opens at most 10 connections (pool_max_conns), and none listens for metrics
	// (CHECKOUT_METRICS_ADDR emptied) so that they do not contend for its port.
	env := []string{"CHECKOUT_DATABASE_URL=" + dbURL + "&pool_max_conns=10", "CHECKOUT_JOB_POLL_INTERVAL=50ms", "CHECKOUT_METRICS_ADDR="}
	lb := &balancer{procs: make([]*process, 3)}
	var wg sync.WaitGroup
	for i := range lb.procs {
		wg.Add(1)
		go func() { defer wg.Done(); lb.procs[i] = serveProcess(t, env) }()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("three processes started together in %s", time.Since(started).Round(time.Millisecond))
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var applied int
	if err := db.QueryRow(`SELECT count(*) FROM goose_db_version WHERE version_id > 0`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	var distinct int
	if err := db.QueryRow(`SELECT count(DISTINCT version_id) FROM goose_db_version WHERE version_id > 0`).Scan(&distinct); err != nil {
		t.Fatal(err)
	}
	if applied != distinct {
		t.Fatalf("%d migrations recorded for %d versions: some ran twice", applied, distinct)
	}

	token := createShop(t, env, "acme")
	gw := gatewaytest.New(t, gatewayToken)
	rcv := webhooktest.New(t, secret)
	lb.call(token, "POST", "/checkout/shop/acme/integration/config", map[string]string{"shared_secret": secret}, 200)
	g := lb.call(token, "POST", "/checkout/shop/acme/external_payment_gateways", map[string]any{
		"name": "Test gateway", "base_url": gw.URL, "api_token": gatewayToken, "partial_capture": true,
		"additional_order_details": false, "provider_id": gatewaytest.ProviderID, "currency": "USD"}, 200)
	gatewayID := g["data"].(map[string]any)["external_payment_gateway"].(map[string]any)["public_id"].(string)
	for _, topic := range []int{1, 2, 5} { // order/processed, order/created, order/failed
		lb.call(token, "POST", "/checkout/shop/acme/webhooks", map[string]any{"webhook_topic_id": topic, "callback_url": rcv.URL}, 200)
	}

	// Guest checkouts and cancelled orders, every call to the next process.
	const checkouts, cancels = 4, 2
	for range checkouts {
		checkoutThrough(lb, token, "acme", gatewayID)
	}
	for range cancels {
		d := lb.call(token, "POST", "/checkout/orders/acme/init", map[string]any{"cart_items": []map[string]any{
			{"sku": "MUG-1", "quantity": 1, "line_item_key": "k1", "title": "Mug", "price": 1250}}}, 200)["data"].(map[string]any)
		lb.call(token, "POST", "/checkout/orders/acme/"+d["public_order_id"].(string)+"/cancel", map[string]any{"reason": "test"}, 200)
	}

	// One authorized order, captured in parts at once through all three processes: nine calls
	// under six keys (three keys sent twice, each pair to two processes), each of a little more
	// than a fifth of the total, so that four keys at most can capture and the others find too
	// little left.
	id, jwt := checkoutThrough(lb, token, "acme", gatewayID)
	refreshed := lb.call(jwt, "GET", "/checkout/storefront/acme/"+id+"/refresh", nil, 200)
	total := int64(refreshed["data"].(map[string]any)["application_state"].(map[string]any)["order_total"].(float64))
	part := total/5 + 1
	keys := []string{"cap-0", "cap-1", "cap-2", "cap-3", "cap-4", "cap-5", "cap-0", "cap-1", "cap-2"}
	statuses := make([]int, len(keys))
	capture := "/checkout/orders/acme/" + id + "/payments/capture"
	for i, key := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i], _ = lb.procs[i%3].try(token, "POST", capture, map[string]any{"amount": part, "idempotent_key": key})
		}()
	}
	wg.Wait()
	// A key refused as in progress is asked again until it answers its outcome.
	succeeded := map[string]bool{}
	for i, key := range keys {
		for deadline := time.Now().Add(20 * time.Second); statuses[i] == http.StatusConflict; time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("capture %s is still in progress", key)
			}
			statuses[i], _ = lb.pick().try(token, "POST", capture, map[string]any{"amount": part, "idempotent_key": key})
		}
		switch statuses[i] {
		case http.StatusOK:
			succeeded[key] = true
		case http.StatusUnprocessableEntity: // more than the authorization has left
		default:
			t.Fatalf("capture under %s answered %d (all: %v)", key, statuses[i], statuses)
		}
	}
	for i, key := range keys {
		if (statuses[i] == http.StatusOK) != succeeded[key] {
			t.Fatalf("the calls under %s answered differently: %v", key, statuses)
		}
	}
	t.Logf("concurrent captures answered %v under keys %v", statuses, keys)
	if captured, _ := gw.Totals(); captured != int64(len(succeeded))*part || len(succeeded) != 4 {
		t.Fatalf("the gateway captured %d for %d keys that succeeded, parts of %d of an order of %d", captured, len(succeeded), part, total)
	}
	// What is left is captured in full through another process, once.
	lb.call(token, "POST", capture+"/full", map[string]any{"idempotent_key": "cap-rest"}, 200)
	if captured, _ := gw.Totals(); captured != total {
		t.Fatalf("the gateway captured %d of an order of %d", captured, total)
	}

	// Every event reaches the receiver once, whichever process recorded and delivered it.
	events := 2*(checkouts+1) + cancels
	rcv.WaitAccepted(events, 30*time.Second)
	time.Sleep(500 * time.Millisecond) // room for a second delivery of any event to arrive
	seen := map[string]int{}
	for _, c := range rcv.Calls() {
		seen[c.EventID]++
	}
	for event, n := range seen {
		if n != 1 {
			t.Errorf("event %s delivered %d times", event, n)
		}
	}
	if len(seen) != events || len(rcv.Calls()) != events {
		t.Fatalf("%d callbacks of %d events, want %d of %d", len(rcv.Calls()), len(seen), events, events)
	}

	// A console session is the database's: signed in through the first process, it serves
	// pages and forms on the others, and survives the first's restart.
	console := newConsole(t)
	console.signIn(lb.procs[0], "acme", token)
	console.get(lb.procs[1], "/admin/cors", http.StatusOK)
	if res := console.post(lb.procs[2], "/admin/cors", url.Values{"domain": {"https://shop.example.com"}}, false); res != http.StatusForbidden {
		t.Fatalf("a form without the CSRF token answered %d", res)
	}
	if res := console.post(lb.procs[2], "/admin/cors", url.Values{"domain": {"https://shop.example.com"}}, true); res != http.StatusSeeOther {
		t.Fatalf("a form with the CSRF token answered %d", res)
	}
	// The flash message set by the third process is shown once, by the first.
	if page := console.get(lb.procs[0], "/admin/cors", http.StatusOK); !strings.Contains(page, "Domain allowed.") || !strings.Contains(page, "shop.example.com") {
		t.Fatalf("the CORS page after the form lacks its message or its domain:\n%s", page)
	}
	if page := console.get(lb.procs[1], "/admin/cors", http.StatusOK); strings.Contains(page, "Domain allowed.") {
		t.Fatal("the flash message was shown twice")
	}
	lb.procs[0].stop()
	lb.procs[0] = serveProcess(t, env)
	console.get(lb.procs[0], "/admin", http.StatusOK)
	// Signed out through the third process, the session's cookie opens no page anywhere.
	cookies := console.jar.Cookies(&url.URL{Scheme: "http", Host: "127.0.0.1", Path: "/admin"})
	if res := console.post(lb.procs[2], "/admin/signout", nil, true); res != http.StatusSeeOther {
		t.Fatalf("sign-out answered %d", res)
	}
	for _, p := range lb.procs {
		console.jar.SetCookies(&url.URL{Scheme: "http", Host: "127.0.0.1", Path: "/admin"}, cookies)
		console.get(p, "/admin", http.StatusSeeOther)
	}
	t.Logf("three processes: %d checkouts, %d captures, %d events and a console session in %s", checkouts+1, len(keys)+1, events,
		time.Since(started).Round(time.Millisecond))
}

// console is a browser of the admin console without the browser: cookies (shared by every
// process on the host, as a balancer's single address would have them) and the CSRF token of
// the last page.
type console struct {
	t    *testing.T
	jar  *cookiejar.Jar
	http *http.Client
	csrf string
}

var consoleCSRF = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

func newConsole(t *testing.T) *console {
	jar, _ := cookiejar.New(nil)
	return &console{t: t, jar: jar, http: &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (c *console) get(p *process, path string, want int) string {
	c.t.Helper()
	res, err := c.http.Get(p.url + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		c.t.Fatalf("GET %s on %s: %d, want %d", path, p.url, res.StatusCode, want)
	}
	if m := consoleCSRF.FindSubmatch(body); m != nil {
		c.csrf = string(m[1])
	}
	return string(body)
}

func (c *console) post(p *process, path string, form url.Values, withCSRF bool) int {
	c.t.Helper()
	if form == nil {
		form = url.Values{}
	}
	if withCSRF {
		form.Set("csrf_token", c.csrf)
	}
	res, err := c.http.PostForm(p.url+path, form)
	if err != nil {
		c.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

func (c *console) signIn(p *process, shop, token string) {
	c.t.Helper()
	c.get(p, "/admin/signin", http.StatusOK)
	if res := c.post(p, "/admin/signin", url.Values{"shop_identifier": {shop}, "access_token": {token}}, true); res != http.StatusSeeOther {
		c.t.Fatal(fmt.Sprintf("sign-in answered %d", res))
	}
}
