package main

import (
	"database/sql"
	"fmt"
	"log"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // SQLite driver, to read the benchmark's database as checkoutd writes it

	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
)

// The platform connector's figures: event notifications in (accepted, then applied), a
// customer sync from the example platform, and processed orders out to the platform. The
// platform is examples/platform/platformserver, served in this process on loopback; it checks
// every call's signature with the shop's shared secret.

// ConnectorReport is the platform connector's figures on one database.
type ConnectorReport struct {
	Notifications NotificationsRun `json:"notifications"`
	Latency       NotifyLatencyRun `json:"notification_latency"`
	Sync          SyncRun          `json:"customer_sync"`
	Orders        OrdersRun        `json:"orders_to_platform"`
}

// NotificationsRun is Customer Saved notifications sent as fast as Senders allow for a while,
// then every one awaited in the customer store.
type NotificationsRun struct {
	Senders     int     `json:"senders"`
	Seconds     float64 `json:"seconds"`
	Sent        int     `json:"sent"`
	Accepted    int     `json:"accepted_202"`
	Errors      int     `json:"errors"`
	FirstError  string  `json:"first_error,omitempty"`
	PerSecond   float64 `json:"accepted_per_second"`
	P99         float64 `json:"p99_202_ms"`
	Applied     int     `json:"applied"`
	AppliedAll  bool    `json:"all_applied"`
	DrainAfter  float64 `json:"applied_all_seconds_after_sending"`
	ApplyPerSec float64 `json:"applied_per_second"`
	ServerCPU   float64 `json:"server_cpu_percent_while_sending"`
}

// NotifyLatencyRun is notifications paced at Rate a second, each timed from its 202 to the
// moment its customer row was written.
type NotifyLatencyRun struct {
	Rate       int     `json:"rate_asked_per_second"`
	Seconds    float64 `json:"seconds"`
	Accepted   int     `json:"accepted_202"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
	SentRate   float64 `json:"accepted_per_second"`
	Applied    int     `json:"applied"`
	P50        float64 `json:"p50_ms"`
	P99        float64 `json:"p99_ms"`
	Max        float64 `json:"max_ms"`
	// Seen* are the same delays to the moment the harness's poll saw the row (every
	// PollMs): an upper bound, coarser by the poll.
	SeenP50 float64 `json:"seen_p50_ms"`
	SeenP99 float64 `json:"seen_p99_ms"`
	PollMs  float64 `json:"poll_ms"`
}

// SyncRun is one customer sync of the whole example platform.
type SyncRun struct {
	Customers  int     `json:"platform_customers"`
	Seconds    float64 `json:"seconds"`
	Status     string  `json:"status"`
	Pages      int     `json:"pages"`
	Rows       int     `json:"rows"`
	Stored     int     `json:"customers_stored"`
	Addresses  int     `json:"addresses_stored"`
	PerSecond  float64 `json:"customers_per_second"`
	LastError  string  `json:"last_error,omitempty"`
	PageCalls  int     `json:"page_calls"`
	BadSigs    int     `json:"bad_signatures"`
	TargetSecs float64 `json:"target_seconds"`
}

// OrdersRun is guest checkouts with an orders destination, each processed order timed from
// process_order's answer to the platform's create.
type OrdersRun struct {
	Shoppers         int     `json:"shoppers"`
	Orders           int     `json:"orders"`
	OnPlatform       int     `json:"on_platform"`
	CheckoutsPerSec  float64 `json:"checkouts_per_second_meanwhile"`
	P50              float64 `json:"p50_ms"`
	P99              float64 `json:"p99_ms"`
	Max              float64 `json:"max_ms"`
	CreateCalls      int     `json:"create_calls"`
	MissingAtTimeout int     `json:"missing_at_timeout"`
	BadSigs          int     `json:"bad_signatures"`
	Errors           int     `json:"checkout_errors"`
	FirstError       string  `json:"first_error,omitempty"`
}

// store reads checkoutd's database directly, as checkoutd wrote it: customers and syncs.
type store struct {
	db     *sql.DB
	pg     bool
	shopID int
}

func openStore(dbURL, shop string) (*store, error) {
	s := &store{pg: strings.HasPrefix(dbURL, "postgres")}
	var err error
	if s.pg {
		s.db, err = sql.Open("postgres", dbURL)
	} else {
		// A read-only connection beside checkoutd's: in WAL mode it neither waits for the
		// writer nor blocks it.
		s.db, err = sql.Open("sqlite", dbURL+"?_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	}
	if err != nil {
		return nil, err
	}
	s.db.SetMaxOpenConns(2)
	if err := s.db.QueryRow(s.q("SELECT id FROM shops WHERE identifier = $1"), shop).Scan(&s.shopID); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("reading the shop's id: %w", err)
	}
	return s, nil
}

// q writes PostgreSQL's $n placeholders as SQLite's.
func (s *store) q(query string) string {
	if s.pg {
		return query
	}
	for i := 9; i >= 1; i-- {
		query = strings.ReplaceAll(query, fmt.Sprintf("$%d", i), "?")
	}
	return query
}

func (s *store) count(query string, args ...any) (int, error) {
	var n int
	err := s.db.QueryRow(s.q(query), append([]any{s.shopID}, args...)...).Scan(&n)
	return n, err
}

// customers counts the shop's customers whose platform id starts with prefix.
func (s *store) customers(prefix string) (int, error) {
	return s.count("SELECT count(*) FROM customers WHERE shop_id = $1 AND platform_id LIKE $2", prefix+"%")
}

// createdSince answers the shop's customers with a row id above after: their platform id and
// created_at (stamped by the worker in the transaction that wrote the row).
func (s *store) createdSince(after int, prefix string, each func(id int, platformID string, created time.Time)) (int, error) {
	rows, err := s.db.Query(s.q("SELECT id, platform_id, created_at FROM customers WHERE shop_id = $1 AND id > $2 AND platform_id LIKE $3 ORDER BY id"),
		s.shopID, after, prefix+"%")
	if err != nil {
		return after, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int
		var pid string
		var created any
		if err := rows.Scan(&id, &pid, &created); err != nil {
			return after, err
		}
		t, err := asTime(created)
		if err != nil {
			return after, err
		}
		each(id, pid, t)
		after = id
	}
	return after, rows.Err()
}

// asTime reads a timestamp column: a time from lib/pq, and from SQLite a time or the text
// checkoutd writes (_time_format=sqlite, UTC).
func asTime(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t, nil
	case string:
		return parseSQLiteTime(t)
	case []byte:
		return parseSQLiteTime(string(t))
	}
	return time.Time{}, fmt.Errorf("created_at: unexpected %T", v)
}

func parseSQLiteTime(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("created_at: unreadable time %q", s)
}

// platform is the example platform served on loopback, checking signatures with secret.
type platform struct {
	srv  *platformserver.Server
	http *httptest.Server
}

func startPlatform(secret string) *platform {
	p := &platform{srv: platformserver.New(map[string][]byte{platformserver.AnyShop: []byte(secret)})}
	p.http = httptest.NewServer(p.srv)
	return p
}

func (p *platform) badSignatures() int {
	n := 0
	for _, c := range p.srv.Calls() {
		if !c.SignatureValid {
			n++
		}
	}
	return n
}

// benchmarkConnector measures the platform connector: notifications, a sync, orders out.
func benchmarkConnector(c config, srv *server, cl *client, gatewayID string) (ConnectorReport, error) {
	var r ConnectorReport
	if _, err := cl.call("POST", "/checkout/shop/"+cl.shop+"/integration/config", cl.token, map[string]string{"shared_secret": webhookSecret}, nil); err != nil {
		return r, err
	}
	st, err := openStore(srv.dbURL, cl.shop)
	if err != nil {
		return r, err
	}
	defer st.db.Close()
	plat := startPlatform(webhookSecret)
	defer plat.http.Close()

	if c.measures("notifications") {
		if r.Notifications, err = notificationThroughput(c, srv, cl, st); err != nil {
			return r, err
		}
		log.Printf("  notifications: %.0f accepted/s at %d senders, %d of %d applied, %.1f s after sending",
			r.Notifications.PerSecond, r.Notifications.Senders, r.Notifications.Applied, r.Notifications.Accepted, r.Notifications.DrainAfter)
		if r.Latency, err = notificationLatency(c, cl, st); err != nil {
			return r, err
		}
		log.Printf("  notification latency at %d/s: p50 %.0f ms, p99 %.0f ms (seen by the poll: p99 %.0f ms), %d of %d applied",
			r.Latency.Rate, r.Latency.P50, r.Latency.P99, r.Latency.SeenP99, r.Latency.Applied, r.Latency.Accepted)
	}
	if c.measures("sync") {
		if r.Sync, err = customerSync(c, cl, st, plat); err != nil {
			return r, err
		}
		log.Printf("  customer sync: %d customers in %.1f s (%s), %d stored", r.Sync.Customers, r.Sync.Seconds, r.Sync.Status, r.Sync.Stored)
	}
	if c.measures("orders") {
		if r.Orders, err = ordersToPlatform(c, srv, cl, plat, gatewayID); err != nil {
			return r, err
		}
		log.Printf("  orders to the platform: %d orders, p50 %.0f ms, p99 %.0f ms", r.Orders.Orders, r.Orders.P50, r.Orders.P99)
	}
	return r, nil
}

const notificationPath = "/customers/v1/shops/%s/platforms/custom/webhooks/customers/saved"

func savedBody(platformID string) map[string]any {
	return map[string]any{"data": map[string]any{"customer": map[string]any{
		"platform_id": platformID, "platform_updated_at": time.Now().UTC().Format(time.RFC3339Nano),
		"first_name": "Grace", "last_name": "Hopper", "email": platformID + "@example.com", "addresses": []any{}}}}
}

// notificationThroughput sends Customer Saved notifications from 32 senders for the run's
// duration, each for a new customer, then waits for every accepted one in the store.
func notificationThroughput(c config, srv *server, cl *client, st *store) (NotificationsRun, error) {
	const senders = 32
	r := NotificationsRun{Senders: senders}
	path := fmt.Sprintf(notificationPath, cl.shop)
	var seq atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	cpu0 := srv.cpu()
	start := time.Now()
	deadline := start.Add(c.duration)
	var wg sync.WaitGroup
	for range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				id := fmt.Sprintf("ntf_%09d", seq.Add(1))
				began := time.Now()
				a, err := cl.call("POST", path, cl.token, savedBody(id), nil)
				took := time.Since(began)
				mu.Lock()
				r.Sent++
				switch {
				case err == nil && a.status == 202:
					r.Accepted++
					lat = append(lat, took)
				default:
					r.Errors++
					if r.FirstError == "" {
						r.FirstError = fmt.Sprintf("%d %v %s", a.status, err, truncate(string(a.raw), 200))
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sent := time.Since(start)
	r.Seconds = sent.Seconds()
	r.ServerCPU = 100 * (srv.cpu() - cpu0).Seconds() / sent.Seconds()
	r.PerSecond = float64(r.Accepted) / sent.Seconds()
	r.P99 = percentile(lat, .99)
	// Every accepted notification is a new customer: wait until the store holds them all.
	bound := 180 * time.Second
	if c.quick {
		bound = 60 * time.Second
	}
	for end := time.Now().Add(bound); ; time.Sleep(20 * time.Millisecond) {
		n, err := st.customers("ntf_")
		if err != nil {
			return r, err
		}
		r.Applied = n
		if n >= r.Accepted || time.Now().After(end) {
			break
		}
	}
	done := time.Since(start)
	r.AppliedAll = r.Applied == r.Accepted && r.Errors == 0
	r.DrainAfter = max(0, (done - sent).Seconds())
	r.ApplyPerSec = float64(r.Applied) / done.Seconds()
	return r, nil
}

// notificationLatency paces notifications at 500 a second for a few seconds, each for a new
// customer, and times each from its 202 to its row's created_at (the worker stamps it in the
// transaction that writes the row, just before the commit), and to the poll that first saw it.
func notificationLatency(c config, cl *client, st *store) (NotifyLatencyRun, error) {
	const rate, workers, poll = 500, 32, 20 * time.Millisecond
	d := 5 * time.Second
	if c.quick {
		d = 3 * time.Second
	}
	r := NotifyLatencyRun{Rate: rate, PollMs: ms(poll)}
	path := fmt.Sprintf(notificationPath, cl.shop)
	var mu sync.Mutex
	accepted := map[string]time.Time{}
	created := map[string]time.Time{}
	seen := map[string]time.Time{}
	// The poller records each new row as it appears, from the last row id before the run. Ids
	// are taken as rows are inserted, not as they commit: a row can become visible after one
	// with a higher id (on PostgreSQL, 16 workers commit in any order), so each poll reads
	// again a window of ids below the highest seen.
	const window = 500
	base := 0
	if err := st.db.QueryRow(st.q("SELECT coalesce(max(id), 0) FROM customers WHERE shop_id = $1"), st.shopID).Scan(&base); err != nil {
		return r, err
	}
	highest := base
	stopPoll := make(chan struct{})
	pollDone := make(chan error, 1)
	go func() {
		for {
			at := time.Now()
			last, err := st.createdSince(max(base, highest-window), "lat_", func(_ int, pid string, t time.Time) {
				mu.Lock()
				if _, ok := created[pid]; !ok {
					created[pid], seen[pid] = t, at
				}
				mu.Unlock()
			})
			if err != nil {
				pollDone <- err
				return
			}
			highest = max(highest, last)
			select {
			case <-stopPoll:
				pollDone <- nil
				return
			case <-time.After(poll):
			}
		}
	}()
	jobs := make(chan string, workers*4)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range jobs {
				a, err := cl.call("POST", path, cl.token, savedBody(id), nil)
				at := time.Now()
				mu.Lock()
				if err == nil && a.status == 202 {
					accepted[id] = at
				} else {
					r.Errors++
					if r.FirstError == "" {
						r.FirstError = fmt.Sprintf("%d %v", a.status, err)
					}
				}
				mu.Unlock()
			}
		}()
	}
	start := time.Now()
	tick := time.NewTicker(time.Second / rate)
	for i := 1; time.Since(start) < d; i++ {
		<-tick.C
		jobs <- fmt.Sprintf("lat_%09d", i)
	}
	tick.Stop()
	close(jobs)
	wg.Wait()
	r.Seconds = time.Since(start).Seconds()
	r.Accepted = len(accepted)
	r.SentRate = float64(r.Accepted) / r.Seconds
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(poll) {
		mu.Lock()
		n := len(created)
		mu.Unlock()
		if n >= r.Accepted {
			break
		}
	}
	close(stopPoll)
	if err := <-pollDone; err != nil {
		return r, err
	}
	var lat, seenLat []time.Duration
	for id, at := range accepted {
		t, ok := created[id]
		if !ok {
			continue
		}
		r.Applied++
		// A worker can write the row before the 202 reaches the sender: no delay at all.
		lat = append(lat, max(0, t.Sub(at)))
		seenLat = append(seenLat, max(0, seen[id].Sub(at)))
	}
	r.P50, r.P99, r.Max = percentile(lat, .5), percentile(lat, .99), percentile(lat, 1)
	r.SeenP50, r.SeenP99 = percentile(seenLat, .5), percentile(seenLat, .99)
	return r, nil
}

// customerSync seeds the example platform with customers (100,000; 10,000 in a quick run),
// creates the shop's customers destination there, triggers a sync and times it to its end.
func customerSync(c config, cl *client, st *store, plat *platform) (SyncRun, error) {
	r := SyncRun{Customers: 100_000, TargetSecs: 60}
	if c.quick {
		r.Customers, r.TargetSecs = 10_000, 6
	}
	plat.srv.SeedCustomers(cl.shop, r.Customers)
	if _, err := cl.call("POST", "/integrations/v1/shops/"+cl.shop+"/platform_connector_destinations", cl.token, map[string]any{
		"data": map[string]any{"destination": map[string]any{"topic": "customers", "destination": plat.http.URL, "timeout_ms": 5000}}}, nil); err != nil {
		return r, err
	}
	start := time.Now()
	if _, err := cl.call("POST", "/customers/v2/shops/"+cl.shop+"/sync", cl.token, map[string]any{}, nil); err != nil {
		return r, err
	}
	bound := 300 * time.Second
	if c.quick {
		bound = 60 * time.Second
	}
	for end := start.Add(bound); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		var lastError sql.NullString
		err := st.db.QueryRow(st.q("SELECT status, pages, rows, last_error FROM platform_syncs WHERE shop_id = $1 ORDER BY id DESC LIMIT 1"),
			st.shopID).Scan(&r.Status, &r.Pages, &r.Rows, &lastError)
		if err != nil {
			return r, err
		}
		r.LastError = lastError.String
		if r.Status != "running" {
			break
		}
	}
	r.Seconds = time.Since(start).Seconds()
	var err error
	if r.Stored, err = st.customers("cus_"); err != nil {
		return r, err
	}
	if r.Addresses, err = st.count(`SELECT count(*) FROM customer_addresses a JOIN customers c ON c.id = a.customer_id
		WHERE c.shop_id = $1 AND c.platform_id LIKE 'cus_%'`); err != nil {
		return r, err
	}
	r.PerSecond = float64(r.Stored) / r.Seconds
	for _, call := range plat.srv.Calls() {
		if call.Method == "GET" && strings.HasSuffix(call.Path, "/customers") {
			r.PageCalls++
		}
	}
	r.BadSigs = plat.badSignatures()
	return r, nil
}

// ordersToPlatform creates the shop's orders destination on the example platform (which
// answers at once), runs guest checkouts at 8 shoppers, and times each processed order from
// process_order's answer to the platform's create (the platform_updated_at the platform
// stamps as it stores the order; a retry under the same key keeps the first).
func ordersToPlatform(c config, srv *server, cl *client, plat *platform, gatewayID string) (OrdersRun, error) {
	r := OrdersRun{Shoppers: 8}
	if _, err := cl.call("POST", "/integrations/v1/shops/"+cl.shop+"/platform_connector_destinations", cl.token, map[string]any{
		"data": map[string]any{"destination": map[string]any{"topic": "orders", "destination": plat.http.URL, "timeout_ms": 5000}}}, nil); err != nil {
		return r, err
	}
	var mu sync.Mutex
	answered := map[string]time.Time{}
	checkout := func() ([]time.Duration, error) {
		lat, id, err := cl.guestCheckout(gatewayID)
		if err == nil {
			at := time.Now()
			mu.Lock()
			answered[id] = at
			mu.Unlock()
		}
		return lat, err
	}
	load := runLoad(r.Shoppers, c.duration, srv, checkout)
	r.CheckoutsPerSec, r.Errors, r.FirstError = load.perSecond(), load.Errors, load.FirstError
	r.Orders = len(answered)
	placed := map[string]time.Time{}
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		for _, o := range plat.srv.Orders(cl.shop) {
			if _, ok := answered[o.OrderNumber]; ok {
				placed[o.OrderNumber] = o.PlatformUpdatedAt
			}
		}
		if len(placed) >= r.Orders || time.Now().After(end) {
			break
		}
	}
	r.OnPlatform = len(placed)
	r.MissingAtTimeout = r.Orders - r.OnPlatform
	var lat []time.Duration
	for id, at := range answered {
		if t, ok := placed[id]; ok {
			lat = append(lat, max(0, t.Sub(at)))
		}
	}
	r.P50, r.P99, r.Max = percentile(lat, .5), percentile(lat, .99), percentile(lat, 1)
	for _, call := range plat.srv.Calls() {
		if call.Method == "POST" && strings.HasSuffix(call.Path, "/orders") {
			r.CreateCalls++
		}
	}
	r.BadSigs = plat.badSignatures()
	return r, nil
}

// markdown writes the connector's section of the report.
func (c ConnectorReport) markdown(w func(string, ...any)) {
	n, l, s, o := c.Notifications, c.Latency, c.Sync, c.Orders
	w("### Platform connector (the example platform, examples/platform/platformserver, in the harness on loopback)\n\n")
	w("| Figure | Measured | How |\n|---|---|---|\n")
	w("| Customer Saved notifications accepted | %.0f/s (%d in %.1f s, %d errors), p99 %.0f ms to the 202; server CPU %.0f%% of a core | %d senders, each notification a new customer |\n",
		n.PerSecond, n.Accepted, n.Seconds, n.Errors, n.P99, n.ServerCPU, n.Senders)
	w("| ... of them applied | %d of %d, all %.1f s after the last was sent (%.0f applied/s from the first send) | the shop's customers counted in the database every 20 ms |\n",
		n.Applied, n.Accepted, n.DrainAfter, n.ApplyPerSec)
	w("| Notification, 202 to applied, at %d/s asked (%.0f/s accepted, %.0f s) | p50 %.0f ms, p99 %.0f ms, max %.0f ms; %d of %d applied | the row's created_at (below) |\n",
		l.Rate, l.SentRate, l.Seconds, l.P50, l.P99, l.Max, l.Applied, l.Accepted)
	w("| ... as the harness's poll saw it | p50 %.0f ms, p99 %.0f ms | poll every %.0f ms |\n", l.SeenP50, l.SeenP99, l.PollMs)
	w("| Customer sync, %d platform customers (%d pages of %d) | %.1f s, %s, %d stored (%d addresses), %.0f customers/s | trigger to `platform_syncs.status` no longer running, polled every 50 ms |\n",
		s.Customers, (s.Customers+249)/250, 250, s.Seconds, s.Status, s.Stored, s.Addresses, s.PerSecond)
	w("| Processed order to the platform's create order, %d shoppers' checkouts (%.0f/s meanwhile) | p50 %.0f ms, p99 %.0f ms, max %.0f ms; %d of %d orders on the platform, %d create calls | process_order's answer to the platform's stamp |\n\n",
		o.Shoppers, o.CheckoutsPerSec, o.P50, o.P99, o.Max, o.OnPlatform, o.Orders, o.CreateCalls)
	if s.LastError != "" {
		w("The sync's last error: `%s`\n\n", s.LastError)
	}
	for _, e := range []struct{ what, err string }{{"notifications", n.FirstError}, {"paced notifications", l.FirstError}, {"checkouts with an orders destination", o.FirstError}} {
		if e.err != "" {
			w("First error (%s): `%s`\n\n", e.what, e.err)
		}
	}
	w("How each delay is timed. A notification's delay runs from the moment its 202 reached the sender to the `created_at` of the customer row it wrote: ")
	w("the worker stamps it (time.Now, microseconds) in the transaction that writes the row, so the commit after it is not counted. ")
	w("Every paced notification is a new customer with its own platform_id, so each row is one notification. The harness also polls the new rows every %.0f ms and notes when it first saw each, committed: that upper bound, coarser by the poll, is shown beside it. ", l.PollMs)
	w("An order's delay runs from process_order's answer (its transaction, with the create order's job, had committed) to the `platform_updated_at` the platform stamps as it stores the order (microseconds; a retry under the same Idempotency-Key keeps the first), matched by `order_number`, which is the public order id. ")
	w("The platform checks every call's signature (%d bad during the sync, %d during the orders). All clocks are this machine's.\n\n", s.BadSigs, o.BadSigs)
}
