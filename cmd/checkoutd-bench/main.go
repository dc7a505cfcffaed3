// Command checkoutd-bench is checkoutd's load harness: it starts `checkoutd serve` itself on a
// fresh database (SQLite, then PostgreSQL), drives guest checkouts, state reads, a hot order's
// captures and refunds, and start-ups against it over loopback, and writes docs/benchmarks.md
// and docs/bench/results.json. `make bench` runs it; `make bench-quick` runs a short version.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/service/secrets"
)

type config struct {
	bin       string
	quick     bool
	out       string
	jsonOut   string
	databases []string
	postgres  string
	runs      int
	duration  time.Duration
	levels    []int
	markOne   bool
	// markUnder, with markOne, is "rsa" or "overrides": the marked checkout runs under them.
	markUnder string
	// customers is how many customers the customers figure loads (0: its default).
	customers int
	// only, when not empty, names the figures to run (the others are left out of the report).
	only map[string]bool
	// keep leaves each database as the run left it (its address is logged), to explore it.
	keep bool
}

// figures are the parts of a run -only can name; the connector's three parts can be named alone.
var figures = []string{"checkout", "reads", "contention", "webhooks", "remote", "subscriptions", "connector", "notifications", "sync", "orders", "customers"}

var connectorParts = []string{"notifications", "sync", "orders"}

func (c config) measures(figure string) bool {
	switch {
	case len(c.only) == 0 || c.only[figure]:
		return true
	case figure == "connector":
		return slices.ContainsFunc(connectorParts, func(p string) bool { return c.only[p] })
	case slices.Contains(connectorParts, figure):
		return c.only["connector"]
	}
	return false
}

func main() {
	var c config
	var dbs string
	flag.StringVar(&c.bin, "bin", "bin/checkoutd", "the checkoutd binary to benchmark")
	flag.BoolVar(&c.quick, "quick", false, "one short run per figure (under 3 minutes in all)")
	flag.StringVar(&c.out, "out", "docs/benchmarks.md", "where to write the report")
	flag.StringVar(&c.jsonOut, "json", "docs/bench/results.json", "where to write the figures as JSON")
	flag.StringVar(&dbs, "databases", "sqlite,postgres", "databases to run on")
	flag.StringVar(&c.postgres, "postgres", envOr("CHECKOUT_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "PostgreSQL server (loopback only)")
	flag.BoolVar(&c.markOne, "mark-one-checkout", false, "PostgreSQL only: after the warm-up, run one guest checkout between two marker statements and stop (count its statements in PostgreSQL's statement log: docs/benchmarks.md)")
	flag.IntVar(&c.customers, "customers", 0, "customers loaded for the customers figure (default 1,000,000; quick 100,000)")
	levels := flag.String("levels", "", "concurrency levels, comma separated (default 1,8,32,128; quick 1,32)")
	duration := flag.Duration("duration", 0, "length of each run (default 5s; quick 2s)")
	flag.StringVar(&c.markUnder, "mark-under", "", "with -mark-one-checkout: rsa or overrides, to count the statements of a checkout under the remote figure's RSA or its five overrides")
	only := flag.String("only", "", "run only these figures, comma separated, while working on them: "+strings.Join(figures, ","))
	flag.BoolVar(&c.keep, "keep", false, "leave each database as the run left it and log where it is (to EXPLAIN a figure's queries in its state); drop it by hand")
	flag.Parse()
	if *only != "" {
		c.only = map[string]bool{}
		for _, f := range strings.Split(*only, ",") {
			if !slices.Contains(figures, f) {
				log.Fatalf("checkoutd-bench: -only: unknown figure %q (%s)", f, strings.Join(figures, ","))
			}
			c.only[f] = true
		}
	}
	c.databases = strings.Split(dbs, ",")
	c.runs, c.duration, c.levels = 3, 5*time.Second, []int{1, 8, 32, 128}
	limit := 30 * time.Minute
	if c.quick {
		c.runs, c.duration, c.levels, limit = 1, 2*time.Second, []int{1, 32}, 3*time.Minute
	}
	if *levels != "" {
		c.levels = nil
		for _, l := range strings.Split(*levels, ",") {
			n, err := strconv.Atoi(l)
			if err != nil || n < 1 {
				log.Fatalf("checkoutd-bench: bad level %q", l)
			}
			c.levels = append(c.levels, n)
		}
	}
	if *duration > 0 {
		c.duration = *duration
	}
	// The harness stops by itself, whatever happens to the server it drives.
	time.AfterFunc(limit, func() {
		log.Printf("checkoutd-bench: over its %s budget, stopping", limit)
		killRunning()
		dropDatabases()
		os.Exit(2)
	})
	report, err := benchmark(context.Background(), c)
	if err != nil {
		log.Fatalf("checkoutd-bench: %v", err)
	}
	if c.markOne {
		return
	}
	if err := os.MkdirAll(filepath.Dir(c.jsonOut), 0o755); err != nil {
		log.Fatal(err)
	}
	raw, _ := json.MarshalIndent(report, "", "  ")
	if err := os.WriteFile(c.jsonOut, raw, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(c.out, []byte(report.markdown()), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(c.jsonOut), "flows.svg"), []byte(report.chart()), 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Println(report.summary())
}

func envOr(k, fallback string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return fallback
}

func benchmark(ctx context.Context, c config) (*Report, error) {
	report := newReport(c)
	for _, db := range c.databases {
		log.Printf("benchmarking on %s", db)
		r, err := benchmarkOn(ctx, c, db)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", db, err)
		}
		if c.markOne {
			continue
		}
		report.Databases = append(report.Databases, *r)
	}
	return report, nil
}

func benchmarkOn(ctx context.Context, c config, db string) (*DatabaseReport, error) {
	var dbURL string
	switch db {
	case "sqlite":
		dir, err := os.MkdirTemp("", "checkoutd-bench")
		if err != nil {
			return nil, err
		}
		dbURL = "file:" + filepath.Join(dir, "bench.db")
		if c.keep {
			log.Printf("kept: the SQLite database is %s", dbURL)
		} else {
			defer os.RemoveAll(dir)
		}
	case "postgres":
		u, drop, err := freshPostgres(ctx, c.postgres)
		if err != nil {
			return nil, err
		}
		if c.keep {
			log.Printf("kept: the PostgreSQL database is %s", u)
		} else {
			defer drop()
			dropOnBudget(drop)
		}
		dbURL = u
	default:
		return nil, fmt.Errorf("unknown database %q", db)
	}
	srv := &server{bin: c.bin, dbURL: dbURL, secretKey: secrets.GenerateKey()}
	if c.keep {
		log.Printf("kept: serve it with CHECKOUT_SECRET_KEY=%s", srv.secretKey)
	}
	if _, err := srv.run("migrate"); err != nil {
		return nil, err
	}
	token, err := srv.createShop("bench")
	if err != nil {
		return nil, err
	}
	out := &DatabaseReport{Database: db}
	for i := range c.runs {
		if err := srv.start(); err != nil {
			return nil, err
		}
		out.Startup = append(out.Startup, ms(srv.Startup))
		out.RSSAfterStart = append(out.RSSAfterStart, srv.RSSAfterStart)
		if i < c.runs-1 {
			srv.stop()
		}
	}
	defer srv.stop()
	if err := requireLoopback(srv.URL); err != nil {
		return nil, err
	}
	gw, err := startGateway()
	if err != nil {
		return nil, err
	}
	defer gw.stop()
	cl := newClient(srv.URL, "bench", token, 128)
	gatewayID, err := configureShop(cl, gw)
	if err != nil {
		return nil, err
	}
	checkout := func() ([]time.Duration, error) {
		lat, _, err := cl.guestCheckout(gatewayID)
		return lat, err
	}
	if c.markOne && c.markUnder != "" {
		rm := startRemotes()
		defer rm.close()
		switch c.markUnder {
		case "rsa":
			err = rm.configureRSA(cl)
		case "overrides":
			_, err = rm.configureOverrides(cl)
		default:
			err = fmt.Errorf("-mark-under: %q is neither rsa nor overrides", c.markUnder)
		}
		if err != nil {
			return nil, err
		}
	}
	for range 20 { // warm up connections and caches
		if _, err := checkout(); err != nil {
			return nil, fmt.Errorf("warm-up checkout: %w", err)
		}
	}
	if c.markOne {
		return nil, markOneCheckout(ctx, dbURL, checkout)
	}
	for _, level := range c.levels {
		if !c.measures("checkout") {
			break
		}
		var runs []loadResult
		for range c.runs {
			runs = append(runs, runLoad(level, c.duration, srv, checkout))
		}
		out.Checkout = append(out.Checkout, summarize(runs))
		log.Printf("  %s, %d shoppers: %.0f flows/s", db, level, out.Checkout[len(out.Checkout)-1].PerSecond)
	}
	_, orderID, err := cl.guestCheckout(gatewayID)
	if err != nil {
		return nil, err
	}
	if c.measures("reads") {
		if out.Reads, err = benchmarkReads(c, srv, cl, orderID); err != nil {
			return nil, err
		}
	}
	if c.measures("contention") {
		if out.Contention, err = benchmarkContention(cl, gw, gatewayID); err != nil {
			return nil, err
		}
	}
	if c.measures("webhooks") {
		if out.Webhooks, err = benchmarkWebhooks(cl, srv, gatewayID, c.duration*2); err != nil {
			return nil, err
		}
	}
	if c.measures("remote") {
		if out.Remote, err = benchmarkRemote(c, srv, cl, gatewayID); err != nil {
			return nil, err
		}
	}
	if c.measures("subscriptions") {
		if out.Subscriptions, err = benchmarkSubscriptions(c, srv, cl, gw, gatewayID); err != nil {
			return nil, err
		}
	}
	// Last: once the shop has an orders destination, every processed order is also a call to
	// the platform, which the figures before must not pay for.
	if c.measures("connector") {
		if out.Connector, err = benchmarkConnector(c, srv, cl, gatewayID); err != nil {
			return nil, err
		}
	}
	if c.measures("customers") {
		if out.Customers, err = benchmarkCustomers(c, srv); err != nil {
			return nil, err
		}
	}
	out.PeakRSS = srv.peakRSS()
	if n := gw.badSigs.Load(); n > 0 {
		return nil, fmt.Errorf("the gateway refused %d badly signed calls", n)
	}
	return out, nil
}

// configureShop registers the benchmark gateway and a New York tax zone, and returns the gateway's id.
func configureShop(cl *client, gw *gateway) (string, error) {
	a, err := cl.call("POST", "/checkout/shop/bench/external_payment_gateways", cl.token, map[string]any{
		"name": "Bench gateway", "base_url": gw.URL, "api_token": gatewayToken, "partial_capture": true,
		"additional_order_details": false, "provider_id": gatewayProvider, "currency": "USD"}, nil)
	if err != nil {
		return "", err
	}
	g, _ := dataOf(a)["external_payment_gateway"].(map[string]any)
	id, _ := g["public_id"].(string)
	_, err = cl.call("POST", "/graphql", cl.token, map[string]any{
		"query": `mutation { createTaxZone(input: {name: "NY sales tax", countryCode: "US", provinceCode: "NY", ratePpm: 40000}) { id } }`}, nil)
	return id, err
}

func benchmarkReads(c config, srv *server, cl *client, orderID string) (ReadsReport, error) {
	a, err := cl.call("POST", "/checkout/orders/bench/resume", cl.token, map[string]any{"public_order_id": orderID}, nil)
	if err != nil {
		// A processed order cannot be resumed: read a fresh open one instead.
		a, err = cl.call("POST", "/checkout/orders/bench/init", cl.token, map[string]any{"cart_items": []map[string]any{
			{"sku": "BENCH-1", "title": "Bench mug", "price": 1500, "quantity": 2, "line_item_key": "mug"}}}, nil)
		if err != nil {
			return ReadsReport{}, err
		}
	}
	jwt, _ := dataOf(a)["jwt_token"].(string)
	id, _ := dataOf(a)["public_order_id"].(string)
	refresh := func() ([]time.Duration, error) {
		start := time.Now()
		_, err := cl.call("GET", "/checkout/storefront/bench/"+id+"/refresh", jwt, nil, nil)
		return []time.Duration{time.Since(start)}, err
	}
	graphql := func() ([]time.Duration, error) {
		start := time.Now()
		a, err := cl.call("POST", "/graphql", cl.token, map[string]any{"query": orderQuery, "variables": map[string]any{"id": id}}, nil)
		if err == nil && bytes.Contains(a.raw, []byte(`"errors"`)) {
			err = fmt.Errorf("graphql: %s", truncate(string(a.raw), 300))
		}
		return []time.Duration{time.Since(start)}, err
	}
	var r ReadsReport
	var runs []loadResult
	for range c.runs {
		runs = append(runs, runLoad(32, c.duration, srv, refresh))
	}
	r.Refresh = summarize(runs)
	runs = nil
	for range c.runs {
		runs = append(runs, runLoad(32, c.duration, srv, graphql))
	}
	r.GraphQL = summarize(runs)
	return r, nil
}

// benchmarkContention has 64 workers capture a hot order 100 at a time until nothing is left,
// then refund it the same way, and checks that checkoutd and the gateway agree to the unit.
func benchmarkContention(cl *client, gw *gateway, gatewayID string) (ContentionReport, error) {
	a, err := cl.call("POST", "/checkout/orders/bench/init", cl.token, map[string]any{"cart_items": []map[string]any{
		{"sku": "HOT-1", "title": "Hot item", "price": 1000, "quantity": 32, "line_item_key": "hot"}}}, nil)
	if err != nil {
		return ContentionReport{}, err
	}
	d := dataOf(a)
	jwt, _ := d["jwt_token"].(string)
	id, _ := d["public_order_id"].(string)
	sf := "/checkout/storefront/bench/" + id
	for _, step := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/customer/guest", map[string]any{"first_name": "Hot", "last_name": "Order", "email_address": "hot@example.com"}},
		{"POST", "/addresses/shipping", benchAddress}, {"POST", "/addresses/billing", benchAddress},
		{"POST", "/shipping_lines", map[string]any{"index": "0"}}, {"POST", "/taxes", nil},
		{"POST", "/payments", map[string]any{"gateway_public_id": gatewayID, "token": "tok_hot"}},
		{"POST", "/process_order", nil},
	} {
		if a, err = cl.call(step.method, sf+step.path, jwt, step.body, nil); err != nil {
			return ContentionReport{}, err
		}
	}
	state, _ := dataOf(a)["application_state"].(map[string]any)
	total := int64(state["order_total"].(float64))
	capturedBefore, refundedBefore := gw.totals()
	backend := "/checkout/orders/bench/" + id
	start := time.Now()
	ops := hammer(cl, backend+"/payments/capture", backend+"/payments/capture/full")
	ops += hammer(cl, backend+"/refunds", backend+"/refunds/full")
	elapsed := time.Since(start)
	captured, refunded := gw.totals()
	r := ContentionReport{Workers: 64, OrderTotal: total, Operations: ops, OpsPerSecond: float64(ops) / elapsed.Seconds(),
		GatewayCaptured: captured - capturedBefore, GatewayRefunded: refunded - refundedBefore}
	r.Exact = r.GatewayCaptured == total && r.GatewayRefunded == total
	return r, nil
}

// hammer runs 64 workers sending amount-100 calls to path until checkoutd refuses (nothing
// left), then one call to full for the remainder; it returns how many calls moved money.
func hammer(cl *client, path, full string) int {
	results := make(chan int, 64)
	for range 64 {
		go func() {
			n := 0
			for {
				_, err := cl.call("POST", path, cl.token, map[string]any{"amount": 100}, nil)
				if err != nil {
					break
				}
				n++
			}
			results <- n
		}()
	}
	ops := 0
	for range 64 {
		ops += <-results
	}
	if _, err := cl.call("POST", full, cl.token, map[string]any{}, nil); err == nil {
		ops++
	}
	return ops
}

const orderQuery = `query Order($id: String!) { order(publicOrderId: $id) { publicOrderID order { status } applicationState { orderTotal orderBalance lineItems { productData { title quantity } } payments { amount } } } }`

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
