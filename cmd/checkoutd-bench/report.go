package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Report is everything one benchmark run measured.
type Report struct {
	Date      string           `json:"date"`
	Commit    string           `json:"commit"`
	Machine   Machine          `json:"machine"`
	Quick     bool             `json:"quick"`
	Runs      int              `json:"runs_per_figure"`
	Duration  string           `json:"duration_per_run"`
	Databases []DatabaseReport `json:"databases"`
	// Only names the figures measured when not all were (checkoutd-bench -only).
	Only []string `json:"only,omitempty"`
}

// has reports whether the run measured figure.
func (r *Report) has(figure string) bool { return len(r.Only) == 0 || slices.Contains(r.Only, figure) }

// Machine is what the figures were measured on.
type Machine struct {
	Cores     int    `json:"cores"`
	MemoryGiB string `json:"memory_gib"`
	CPU       string `json:"cpu"`
	Go        string `json:"go"`
}

// DatabaseReport is the figures of one database.
type DatabaseReport struct {
	Database      string           `json:"database"`
	Startup       []float64        `json:"startup_ms"`
	RSSAfterStart []int64          `json:"rss_after_start_bytes"`
	Checkout      []LevelSummary   `json:"guest_checkout"`
	Reads         ReadsReport      `json:"reads"`
	Contention    ContentionReport `json:"hot_order_contention"`
	Webhooks      WebhooksReport   `json:"webhooks"`
	Remote        RemoteReport     `json:"remote"`
	Connector     ConnectorReport  `json:"platform_connector"`
	Customers     CustomersReport  `json:"customers"`
	PeakRSS       int64            `json:"peak_rss_bytes"`

	Subscriptions SubscriptionsReport `json:"subscriptions"`
}

// LevelSummary is one concurrency level: the median run, with the spread over runs.
type LevelSummary struct {
	Concurrency int                `json:"concurrency"`
	PerSecond   float64            `json:"per_second_median"`
	PerSecondLo float64            `json:"per_second_min"`
	PerSecondHi float64            `json:"per_second_max"`
	P50         float64            `json:"p50_ms"`
	P95         float64            `json:"p95_ms"`
	P99         float64            `json:"p99_ms"`
	Steps       map[string]Latency `json:"steps,omitempty"`
	Errors      int                `json:"errors"`
	FirstError  string             `json:"first_error,omitempty"`
	CPUPercent  float64            `json:"server_cpu_percent"`
	// WriteTxOpen is how many write transactions were open on average: on SQLite, the share of
	// the time its one writer was busy.
	WriteTxOpen float64 `json:"write_transactions_open_average"`
}

// Latency is one step's percentiles, in milliseconds.
type Latency struct {
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	P99 float64 `json:"p99_ms"`
}

// ReadsReport is the state-read figures at 32 clients.
type ReadsReport struct {
	Refresh LevelSummary `json:"refresh"`
	GraphQL LevelSummary `json:"graphql_order"`
}

// ContentionReport is the hot order's figures.
type ContentionReport struct {
	Workers         int     `json:"workers"`
	OrderTotal      int64   `json:"order_total"`
	Operations      int     `json:"operations"`
	OpsPerSecond    float64 `json:"operations_per_second"`
	GatewayCaptured int64   `json:"gateway_captured"`
	GatewayRefunded int64   `json:"gateway_refunded"`
	Exact           bool    `json:"exact"`
}

func newReport(c config) *Report {
	commit, _ := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	r := &Report{Date: time.Now().UTC().Format("2006-01-02 15:04 UTC"), Commit: strings.TrimSpace(string(commit)),
		Quick: c.quick, Runs: c.runs, Duration: c.duration.String()}
	for _, f := range figures {
		if len(c.only) > 0 && c.measures(f) {
			r.Only = append(r.Only, f)
		}
	}
	r.Machine = Machine{Cores: runtime.NumCPU(), Go: runtime.Version(), MemoryGiB: memoryGiB(), CPU: cpuModel()}
	return r
}

func memoryGiB() string {
	raw, _ := os.ReadFile("/proc/meminfo")
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			return fmt.Sprintf("%.1f", kb/1024/1024)
		}
	}
	return "?"
}

func cpuModel() string {
	raw, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return "?"
}

func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return ms(s[min(len(s)-1, int(float64(len(s))*p))])
}

// summarize keeps the median run (by throughput) and the spread of all runs.
func summarize(runs []loadResult) LevelSummary {
	slices.SortFunc(runs, func(a, b loadResult) int {
		switch {
		case a.perSecond() < b.perSecond():
			return -1
		case a.perSecond() > b.perSecond():
			return 1
		}
		return 0
	})
	m := runs[len(runs)/2]
	out := LevelSummary{Concurrency: m.Concurrency, PerSecond: m.perSecond(), PerSecondLo: runs[0].perSecond(),
		PerSecondHi: runs[len(runs)-1].perSecond(), P50: percentile(m.Flow, .5), P95: percentile(m.Flow, .95), P99: percentile(m.Flow, .99),
		CPUPercent: 100 * m.ServerCPU.Seconds() / m.Elapsed.Seconds(), WriteTxOpen: m.WriteTxSeconds / m.Elapsed.Seconds()}
	for _, r := range runs {
		out.Errors += r.Errors
		if out.FirstError == "" {
			out.FirstError = r.FirstError
		}
	}
	if len(m.Steps) > 1 {
		out.Steps = map[string]Latency{}
		for name, ds := range m.Steps {
			out.Steps[name] = Latency{P50: percentile(ds, .5), P95: percentile(ds, .95), P99: percentile(ds, .99)}
		}
	}
	return out
}

// target is one of the targets, checked against the figures.
type target struct {
	name string
	pass bool
	got  string
	// info is a figure reported beside the targets, with none of its own.
	info bool
}

func (t target) result() string {
	switch {
	case t.info:
		return "no target"
	case t.pass:
		return "pass"
	}
	return "**fail**"
}

func (r *Report) targets() []target {
	var out []target
	for _, db := range r.Databases {
		want := map[string]float64{"sqlite": 300, "postgres": 200}[db.Database]
		for _, l := range db.Checkout {
			if l.Concurrency == 32 {
				out = append(out, target{fmt.Sprintf("%s: ≥ %.0f guest checkouts/s at 32 shoppers, p99 < 250 ms, 0 errors", db.Database, want),
					l.PerSecond >= want && l.P99 < 250 && l.Errors == 0, fmt.Sprintf("%.0f/s, p99 %.0f ms, %d errors", l.PerSecond, l.P99, l.Errors), false})
			}
		}
		if r.has("reads") {
			out = append(out, target{db.Database + ": ≥ 5,000 state reads/s (GET /refresh, 32 clients)", db.Reads.Refresh.PerSecond >= 5000,
				fmt.Sprintf("%.0f/s", db.Reads.Refresh.PerSecond), false})
		}
		out = append(out, target{db.Database + ": start-up under 1 s", median(db.Startup) < 1000, fmt.Sprintf("%.0f ms", median(db.Startup)), false})
		if r.has("webhooks") {
			wh := db.Webhooks
			capacity := wh.Backlog.DrainPerSecond
			out = append(out, target{db.Database + ": ≥ 500 webhook deliveries/s (a backlog draining), p99 commit to receipt < 1 s (8 shoppers' checkouts), every one delivered",
				capacity >= 500 && wh.Steady.P99 < 1000 && wh.Steady.MissingAtTimeout+wh.Backlog.MissingAtTimeout == 0 &&
					wh.Steady.BadSignatures+wh.Backlog.BadSignatures == 0,
				fmt.Sprintf("%.0f/s, p99 %.0f ms, %d of %d delivered", capacity, wh.Steady.P99,
					wh.Steady.Delivered+wh.Backlog.Delivered, wh.Steady.Expected+wh.Backlog.Expected), false})
		}
		if r.has("remote") {
			out = append(out, db.Remote.target(db.Database))
		}
		if r.has("contention") {
			out = append(out, target{db.Database + ": hot order money exact", db.Contention.Exact,
				fmt.Sprintf("captured %d, refunded %d of %d", db.Contention.GatewayCaptured, db.Contention.GatewayRefunded, db.Contention.OrderTotal), false})
		}
		if r.has("subscriptions") {
			out = append(out, db.Subscriptions.target(db.Database))
		}
		if r.has("connector") {
			for _, t := range db.Connector.targets(db.Database) {
				if r.has(t.figure) {
					out = append(out, t.target)
				}
			}
		}
		if r.has("customers") {
			out = append(out, db.Customers.targets(db.Database)...)
		}
	}
	return out
}

// connectorTarget is one of the connector's targets, with the part of the run it belongs to.
type connectorTarget struct {
	target
	figure string
}

// targets are the platform connector's targets on database db.
func (c ConnectorReport) targets(db string) []connectorTarget {
	n, l, s, o := c.Notifications, c.Latency, c.Sync, c.Orders
	want := map[string]float64{"sqlite": 2000, "postgres": 1000}[db]
	syncTarget := fmt.Sprintf("%s: customer sync of 100,000 platform customers (400 pages of 250) under 60 s, every one stored", db)
	if s.Customers != 100_000 {
		syncTarget = fmt.Sprintf("%s: customer sync of %s platform customers under %.0f s (quick run: the target scaled down from 100,000 in 60 s), every one stored", db, thousands(float64(s.Customers)), s.TargetSecs)
	}
	// The sync's target is SQLite's; PostgreSQL's figure is reported beside it.
	syncInfo := db != "sqlite"
	if syncInfo {
		syncTarget = fmt.Sprintf("%s: customer sync of %s platform customers (SQLite's target: %.0f s), every one stored", db, thousands(float64(s.Customers)), s.TargetSecs)
	}
	out := []target{
		{fmt.Sprintf("%s: ≥ %s Customer Saved notifications/s accepted (202) at 32 senders, every one applied", db, thousands(want)),
			n.PerSecond >= want && n.AppliedAll,
			fmt.Sprintf("%.0f/s, %d of %d applied (all %.1f s after the last was sent)", n.PerSecond, n.Applied, n.Accepted, n.DrainAfter), false},
		{db + ": notification p99 from 202 to applied < 2 s, at a steady 500/s",
			l.P99 < 2000 && l.Applied == l.Accepted && l.Errors == 0 && l.Accepted > 0,
			fmt.Sprintf("p99 %.0f ms (p50 %.0f) at %.0f/s, %d of %d applied", l.P99, l.P50, l.SentRate, l.Applied, l.Accepted), false},
		{syncTarget,
			s.Status == "succeeded" && s.Seconds < s.TargetSecs && s.Stored == s.Customers && s.BadSigs == 0,
			fmt.Sprintf("%.1f s (%s), %d stored, %.0f customers/s", s.Seconds, s.Status, s.Stored, s.PerSecond), false},
		{db + ": processed order to the platform's create order, p99 < 1 s (8 shoppers' checkouts), every one created",
			o.P99 < 1000 && o.MissingAtTimeout == 0 && o.Orders > 0 && o.BadSigs == 0 && o.Errors == 0,
			fmt.Sprintf("p99 %.0f ms (p50 %.0f), %d of %d on the platform", o.P99, o.P50, o.OnPlatform, o.Orders), false},
	}
	out[2].info = syncInfo
	var parts []connectorTarget
	for i, t := range out {
		parts = append(parts, connectorTarget{t, []string{"notifications", "notifications", "sync", "orders"}[i]})
	}
	return parts
}

func thousands(f float64) string {
	s := fmt.Sprintf("%.0f", f)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func (r *Report) summary() string {
	var b strings.Builder
	for _, t := range r.targets() {
		mark := "PASS"
		switch {
		case t.info:
			mark = "INFO"
		case !t.pass:
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "%s  %s (%s)\n", mark, t.name, t.got)
	}
	return b.String()
}

func mib(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

func (r *Report) markdown() string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	w("# Benchmarks\n\n")
	w("Written by `make bench` (`cmd/checkoutd-bench`); do not edit by hand. Each figure is the median of %d run(s) of %s, ", r.Runs, r.Duration)
	w("with the spread (min–max) over runs. The harness starts `checkoutd serve` itself on a fresh database, on loopback, with an in-process ")
	w("payment gateway that answers at once and checks every signature. The load generator, on the same machine, ")
	w("speaks HTTP through fasthttp's client, so as to take little of the CPU it shares with the server.\n\n")
	w("- Date: %s, commit `%s`%s\n", r.Date, r.Commit, map[bool]string{true: " (quick run)", false: ""}[r.Quick])
	w("- Machine: %d cores (%s), %s GiB memory, %s\n\n", r.Machine.Cores, r.Machine.CPU, r.Machine.MemoryGiB, r.Machine.Go)
	w("## Targets\n\n| Target | Result | Measured |\n|---|---|---|\n")
	for _, t := range r.targets() {
		w("| %s | %s | %s |\n", t.name, t.result(), t.got)
	}
	w("\nFor scale: a well-known open-source commerce server (Vendure 3.7, Node.js) completes a comparable 7-step guest checkout on this machine at about 16 flows/s on SQLite and about 6 on PostgreSQL.\n\n")
	w("![Guest checkouts per second by concurrency](bench/flows.svg)\n\n")
	w("%s", analysis)
	for _, db := range r.Databases {
		w("## %s\n\n### Guest checkout (8 steps: init, customer, shipping address, billing address, shipping line, taxes, payment, process order)\n\n", db.Database)
		w("| Shoppers | Flows/s (spread) | p50 | p95 | p99 | Errors | Server CPU | Write transactions open (avg) |\n|---|---|---|---|---|---|---|---|\n")
		for _, l := range db.Checkout {
			w("| %d | %.0f (%.0f–%.0f) | %.1f ms | %.1f ms | %.1f ms | %d | %.0f%% | %.2f |\n", l.Concurrency, l.PerSecond, l.PerSecondLo, l.PerSecondHi, l.P50, l.P95, l.P99, l.Errors, l.CPUPercent, l.WriteTxOpen)
		}
		if db.Database == "sqlite" {
			w("\nOn SQLite the last column is the share of the time its one writer was busy (checkoutd's write transactions; the job queue's few are not counted).\n")
		}
		for _, l := range db.Checkout {
			if l.FirstError != "" {
				w("\nFirst error at %d shoppers: `%s`\n", l.Concurrency, l.FirstError)
			}
		}
		if n := len(db.Checkout); n > 0 {
			l := db.Checkout[n-1]
			if l.Concurrency < 32 && n > 1 {
				l = db.Checkout[n-2]
			}
			for _, c := range db.Checkout {
				if c.Concurrency == 32 {
					l = c
				}
			}
			w("\nSteps at %d shoppers:\n\n| Step | p50 | p95 | p99 |\n|---|---|---|---|\n", l.Concurrency)
			for _, s := range flowSteps {
				if lat, ok := l.Steps[s]; ok {
					w("| %s | %.1f ms | %.1f ms | %.1f ms |\n", s, lat.P50, lat.P95, lat.P99)
				}
			}
		}
		if r.has("reads") {
			w("\n### Reads at 32 clients\n\n| Read | Requests/s (spread) | p50 | p99 | Errors |\n|---|---|---|---|---|\n")
			for _, x := range []struct {
				name string
				l    LevelSummary
			}{{"GET /refresh (application state)", db.Reads.Refresh}, {"GraphQL order query", db.Reads.GraphQL}} {
				w("| %s | %.0f (%.0f–%.0f) | %.2f ms | %.2f ms | %d |\n", x.name, x.l.PerSecond, x.l.PerSecondLo, x.l.PerSecondHi, x.l.P50, x.l.P99, x.l.Errors)
			}
		}
		if r.has("contention") {
			c := db.Contention
			w("\n### Hot order: %d workers capturing, then refunding, one order 100 at a time\n\n", c.Workers)
			w("%d money-moving calls at %.0f/s. Order total %d; the gateway captured %d and refunded %d: %s.\n\n", c.Operations, c.OpsPerSecond,
				c.OrderTotal, c.GatewayCaptured, c.GatewayRefunded, map[bool]string{true: "exact", false: "**not exact**"}[c.Exact])
		}
		if r.has("webhooks") {
			wh := db.Webhooks
			w("### Webhooks: guest checkouts, %d subscribers on each of %d topics (6 deliveries per order)\n\n", wh.Subscribers, wh.Topics)
			w("| Run | Orders | Deliveries | Checkouts/s meanwhile | Delivered/s during checkouts | Then drained in | Delivered/s draining | p50 | p99 |\n|---|---|---|---|---|---|---|---|---|\n")
			for _, run := range []WebhookRun{wh.Steady, wh.Backlog} {
				name := fmt.Sprintf("%d shoppers", run.Shoppers)
				if run.Held {
					name += ", receiver held until the checkouts end"
				}
				w("| %s | %d | %d of %d | %.0f | %.0f | %.1f s | %.0f | %.0f ms | %.0f ms |\n", name, run.Orders, run.Delivered, run.Expected,
					run.CheckoutsPerSec, run.DuringLoad, run.DrainSeconds, run.DrainPerSecond, run.P50, run.P99)
			}
			w("\nLatency runs from process_order's answer (its transaction, with the events, had committed) to the receiver's arrival; every callback's signature is checked. ")
			w("In the second run the receiver holds every callback until the checkouts end, so the deliveries pile up in the queue; the rate at which that backlog then drains is the delivery capacity (its latency is the hold, not a delivery figure).\n\n")
		}
		if r.has("remote") {
			db.Remote.markdown(w)
		}
		if r.has("subscriptions") {
			db.Subscriptions.markdown(w)
		}
		if r.has("connector") {
			db.Connector.markdown(w)
		}
		if r.has("customers") {
			db.Customers.markdown(w)
		}
		w("### Start-up and memory\n\nExec to `/readyz` 200: %.0f ms (runs: %v). RSS after start: %s. Peak RSS over the whole run: %s.\n\n",
			median(db.Startup), db.Startup, mib(db.RSSAfterStart[0]), mib(db.PeakRSS))
	}
	return b.String()
}

// chart draws guest checkouts per second against concurrency, one line per database.
func (r *Report) chart() string {
	const w, h, pad = 640, 320, 50
	maxY := 1.0
	for _, db := range r.Databases {
		for _, l := range db.Checkout {
			maxY = max(maxY, l.PerSecond)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/><text x="%d" y="20" font-size="14">Guest checkouts per second by concurrent shoppers</text>`, w, h, pad)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/><line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`, pad, h-pad, w-pad, h-pad, pad, pad, pad, h-pad)
	colors := []string{"#1f77b4", "#d62728"}
	for i, db := range r.Databases {
		var pts []string
		for j, l := range db.Checkout {
			x := pad + float64(j)*float64(w-2*pad)/float64(max(1, len(db.Checkout)-1))
			y := float64(h-pad) - l.PerSecond/maxY*float64(h-2*pad)
			pts = append(pts, fmt.Sprintf("%.0f,%.0f", x, y))
			fmt.Fprintf(&b, `<circle cx="%.0f" cy="%.0f" r="3" fill="%s"/><text x="%.0f" y="%.0f">%.0f</text>`, x, y, colors[i%2], x+4, y-6, l.PerSecond)
			if i == 0 {
				fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="middle">%d</text>`, x, h-pad+16, l.Concurrency)
			}
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`, colors[i%2], strings.Join(pts, " "))
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%s</text>`, w-pad-80, pad+16*i, colors[i%2], db.Database)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">concurrent shoppers</text></svg>`, w/2, h-10)
	return b.String()
}
