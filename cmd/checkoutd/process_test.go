package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/servicetest"
)

// These tests run checkoutd as the operator does: the binary, built once from this package,
// started and killed as processes.

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	// The processes the tests start seal secrets with the tests' key (PostgreSQL requires one).
	os.Setenv("CHECKOUT_SECRET_KEY", servicetest.SecretKey)
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// binary builds checkoutd once for the test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "checkoutd-bin")
		if buildErr != nil {
			return
		}
		binPath = filepath.Join(buildDir, "checkoutd")
		out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// process is one running checkoutd serve.
type process struct {
	t    *testing.T
	cmd  *exec.Cmd
	url  string
	logs *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// runBinary runs a checkoutd command to its end with env and returns its standard output.
func runBinary(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("checkoutd %v: %v\n%s", args, err, stderr.String())
	}
	return string(out)
}

// serveProcess starts checkoutd serve with env and waits until it is ready.
func serveProcess(t *testing.T, env []string) *process {
	t.Helper()
	addr := freeAddr(t)
	p := &process{t: t, url: "http://" + addr, logs: &syncBuffer{}}
	p.cmd = exec.Command(binary(t), "serve")
	// The metrics listener is off unless env opens it: the processes of the tests run side by side.
	env = append([]string{"CHECKOUT_METRICS_ADDR="}, env...)
	p.cmd.Env = append(os.Environ(), append(env, "CHECKOUT_ADDR="+addr, "CHECKOUT_LOG_LEVEL=warn", "CHECKOUT_OUTBOUND_ALLOW_PRIVATE=true")...)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = p.cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = p.cmd.Process.Kill()
				<-done
			}
		}
		if t.Failed() {
			t.Logf("checkoutd %s logs:\n%s", addr, p.logs.String())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(p.url + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return p
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("checkoutd serve on %s not ready: %v\n%s", addr, err, p.logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill ends the process at once, as kill -9 does: nothing of it gets to run.
func (p *process) kill() {
	p.t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		p.t.Fatal(err)
	}
	_ = p.cmd.Wait()
}

// call makes a REST call with the shop's access token and decodes the answer.
func (p *process) call(token, method, path string, body any, wantStatus int) map[string]any {
	p.t.Helper()
	var rdr io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rdr = bytes.NewReader(b)
	}
	req, _ := http.NewRequestWithContext(context.Background(), method, p.url+path, rdr)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != wantStatus {
		p.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, wantStatus, raw)
	}
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return out
}

// try makes a REST call with token and answers its status and decoded body, whatever they are.
func (p *process) try(token, method, path string, body any) (int, map[string]any) {
	p.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(context.Background(), method, p.url+path, bytes.NewReader(b))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// createShop creates a shop through the CLI and returns its access token.
func createShop(t *testing.T, env []string, id string) string {
	t.Helper()
	var out map[string]string
	if err := json.Unmarshal([]byte(strings.TrimSpace(runBinary(t, env, "shop", "create", "--identifier", id))), &out); err != nil {
		t.Fatal(err)
	}
	return out["access_token"]
}

// cancelledOrder records an order/failed event through the REST API of p.
func (p *process) cancelledOrder(token, shop string) string {
	p.t.Helper()
	d := p.call(token, "POST", "/checkout/orders/"+shop+"/init", map[string]any{"cart_items": []map[string]any{
		{"sku": "MUG-1", "quantity": 1, "line_item_key": "k1", "title": "Mug", "price": 1250}}}, 200)["data"].(map[string]any)
	id := d["public_order_id"].(string)
	p.call(token, "POST", "/checkout/orders/"+shop+"/"+id+"/cancel", map[string]any{"reason": "test"}, 200)
	return id
}
