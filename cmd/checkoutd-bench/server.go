package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/lib/pq" // PostgreSQL driver, to create the benchmark's database
)

// running is every checkoutd the harness started and has not stopped, by pid: killed when the
// harness runs out of time, so that none outlives it.
var running sync.Map

func killRunning() {
	running.Range(func(_, p any) bool {
		_ = p.(*os.Process).Kill()
		return true
	})
}

// databasesToDrop are the benchmark's PostgreSQL databases, dropped when the harness runs out
// of time (the deferred drops do not run on that exit).
var (
	dropMu          sync.Mutex
	databasesToDrop []func()
)

func dropOnBudget(drop func()) {
	dropMu.Lock()
	defer dropMu.Unlock()
	databasesToDrop = append(databasesToDrop, drop)
}

func dropDatabases() {
	dropMu.Lock()
	defer dropMu.Unlock()
	for _, drop := range databasesToDrop {
		drop()
	}
}

// server is one `checkoutd serve` the harness started, on a loopback port.
type server struct {
	bin   string
	dbURL string
	// secretKey seals the fresh database's secrets (CHECKOUT_SECRET_KEY, which PostgreSQL requires).
	secretKey string
	cmd       *exec.Cmd
	URL       string
	// metricsURL is where its metrics are served, on a listener of their own.
	metricsURL string
	Startup    time.Duration
	// RSSAfterStart is the resident set in bytes right after /readyz first answered.
	RSSAfterStart int64
}

func (s *server) env(addr, metricsAddr string) []string {
	// The bench's gateway and webhook receivers listen on loopback. The subscriptions figure
	// times the placing of due subscriptions, not the wait for the sweep's next tick.
	return append(os.Environ(), "CHECKOUT_DATABASE_URL="+s.dbURL, "CHECKOUT_SECRET_KEY="+s.secretKey, "CHECKOUT_ADDR="+addr,
		"CHECKOUT_METRICS_ADDR="+metricsAddr, "CHECKOUT_LOG_LEVEL=warn", "CHECKOUT_OUTBOUND_ALLOW_PRIVATE=true",
		"CHECKOUT_SUBSCRIPTION_SWEEP_INTERVAL="+subscriptionSweepEvery.String())
}

// run runs one checkoutd command to completion and returns its standard output.
func (s *server) run(args ...string) ([]byte, error) {
	cmd := exec.Command(s.bin, args...)
	cmd.Env = s.env("127.0.0.1:0", "")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("checkoutd %s: %v: %s", strings.Join(args, " "), err, errOut.String())
	}
	return out.Bytes(), nil
}

func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// start execs `checkoutd serve` and waits for /readyz, timing it.
func (s *server) start() error {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return err
	}
	metricsAddr, err := freeLoopbackAddr()
	if err != nil {
		return err
	}
	s.cmd = exec.Command(s.bin, "serve", "--no-migrate")
	s.cmd.Env = s.env(addr, metricsAddr)
	s.cmd.Stderr = os.Stderr
	began := time.Now()
	if err := s.cmd.Start(); err != nil {
		return err
	}
	running.Store(s.cmd.Process.Pid, s.cmd.Process)
	s.URL, s.metricsURL = "http://"+addr, "http://"+metricsAddr
	client := &http.Client{Timeout: time.Second}
	for deadline := began.Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		res, err := client.Get(s.URL + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				s.Startup = time.Since(began)
				s.RSSAfterStart = procStatus(s.cmd.Process.Pid, "VmRSS")
				return nil
			}
		}
	}
	s.stop()
	return fmt.Errorf("checkoutd did not become ready in 30s")
}

func (s *server) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	running.Delete(s.cmd.Process.Pid)
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
	s.cmd = nil
}

// cpu is the CPU time the server process has used so far (user + system).
func (s *server) cpu() time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the parenthesised command name; utime and stime are the 14th and 15th.
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ is 100 on Linux
}

// writeSeconds is the server's checkoutd_db_write_transaction_seconds_total: how long its write
// transactions have held a connection, in all.
func (s *server) writeSeconds() float64 {
	res, err := http.Get(s.metricsURL + "/metrics")
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "checkoutd_db_write_transaction_seconds_total "); ok {
			f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f
		}
	}
	return 0
}

// peakRSS is the most memory the server has held resident, in bytes.
func (s *server) peakRSS() int64 { return procStatus(s.cmd.Process.Pid, "VmHWM") }

func procStatus(pid int, key string) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// createShop makes the benchmark shop with the checkoutd CLI and returns its access token.
func (s *server) createShop(identifier string) (string, error) {
	out, err := s.run("shop", "create", "--identifier", identifier, "--name", "Bench shop")
	if err != nil {
		return "", err
	}
	var created struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(out, &created); err != nil {
		return "", fmt.Errorf("shop create answered %q", out)
	}
	return created.AccessToken, nil
}

// requireLoopback refuses any target that is not this machine: the harness loads what it
// points at and must never be aimed at someone else's server.
func requireLoopback(rawURL string) error {
	u, err := url.Parse(rawURL)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("refusing to benchmark %s: only loopback addresses are allowed", rawURL)
}

// freshPostgres creates an empty database next to base and returns its URL and a drop function.
func freshPostgres(ctx context.Context, base string) (string, func(), error) {
	if err := requireLoopback(base); err != nil {
		return "", nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("checkoutd_bench_%d", time.Now().UnixNano())
	admin, err := sql.Open("postgres", base)
	if err != nil {
		return "", nil, err
	}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	u.Path = "/" + name
	drop := func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	}
	return u.String(), drop, nil
}
