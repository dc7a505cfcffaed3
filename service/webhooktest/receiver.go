// Package webhooktest is a real webhook receiver for tests: an HTTP server that checks the
// signature of every callback as a subscriber would (401 when it does not match the shared
// secret), keeps what it accepted, and answers errors on demand.
package webhooktest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/httpsig"
)

// Callback is one request the receiver got.
type Callback struct {
	EventID string
	Topic   string
	Body    map[string]any
	Raw     []byte
	Header  http.Header
	// Status is what the receiver answered: 401 for a bad signature, a scripted error, or 200;
	// 0 when the sender hung up before the answer (a HangNext outlasting its timeout).
	Status int
	At     time.Time
}

// Receiver is a running test receiver.
type Receiver struct {
	// URL is the callback URL to subscribe.
	URL string

	t   testing.TB
	srv *httptest.Server

	mu      sync.Mutex
	secret  []byte
	script  []answer
	hang    time.Duration
	calls   []Callback
	changed chan struct{}
}

// New starts a receiver that accepts callbacks signed with secret.
func New(t testing.TB, secret string) *Receiver {
	r := &Receiver{t: t, secret: []byte(secret), changed: make(chan struct{})}
	r.srv = httptest.NewServer(http.HandlerFunc(r.handle))
	t.Cleanup(r.srv.Close)
	r.URL = r.srv.URL + "/hooks/checkout"
	return r
}

type answer struct {
	status int
	body   string
}

// FailNext makes the next callbacks with a good signature answer these statuses, in order;
// after them the receiver answers 200 again.
func (r *Receiver) FailNext(statuses ...int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range statuses {
		r.script = append(r.script, answer{status: s, body: `{"error":"scripted"}`})
	}
}

// AnswerNext makes the next callback with a good signature answer status with body.
func (r *Receiver) AnswerNext(status int, body string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.script = append(r.script, answer{status: status, body: body})
}

// HangNext makes the next callback wait d before it is answered.
func (r *Receiver) HangNext(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hang = d
}

// SetSecret changes the secret the receiver checks signatures with.
func (r *Receiver) SetSecret(secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secret = []byte(secret)
}

func (r *Receiver) handle(w http.ResponseWriter, req *http.Request) {
	raw, _ := io.ReadAll(req.Body)
	c := Callback{EventID: req.Header.Get("X-Webhook-Event-Id"), Topic: req.Header.Get("X-Webhook-Topic"), Raw: raw,
		Header: req.Header.Clone(), At: time.Now()}
	_ = json.Unmarshal(raw, &c.Body)
	r.mu.Lock()
	secret, hang := r.secret, r.hang
	r.hang = 0
	r.mu.Unlock()
	if hang > 0 {
		select {
		case <-time.After(hang):
		case <-req.Context().Done():
		}
	}
	c.Status = http.StatusOK
	if req.Context().Err() != nil {
		c.Status = 0
	} else if err := httpsig.Verify(req, "Signature", secret, 5*time.Minute, time.Now()); err != nil {
		c.Status = http.StatusUnauthorized
	} else if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" ||
		c.Body["event_id"] != c.EventID || c.Body["topic"] != c.Topic {
		r.t.Errorf("webhooktest: malformed callback: %s %s headers %v body %s", req.Method, req.URL, req.Header, raw)
		c.Status = http.StatusBadRequest
	}
	body := `{"received":true}`
	r.mu.Lock()
	if c.Status == http.StatusOK && len(r.script) > 0 {
		c.Status, body, r.script = r.script[0].status, r.script[0].body, r.script[1:]
	}
	r.calls = append(r.calls, c)
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
	if c.Status == 0 {
		return // the sender gave up while the receiver hung: nobody reads an answer
	}
	w.WriteHeader(c.Status)
	_, _ = w.Write([]byte(body))
}

// Calls is every callback received so far, in arrival order.
func (r *Receiver) Calls() []Callback {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Callback(nil), r.calls...)
}

// Accepted is the callbacks answered 200, in arrival order.
func (r *Receiver) Accepted() []Callback {
	var out []Callback
	for _, c := range r.Calls() {
		if c.Status == http.StatusOK {
			out = append(out, c)
		}
	}
	return out
}

// WaitFor waits until cond holds for the callbacks received, or fails the test after timeout.
func (r *Receiver) WaitFor(timeout time.Duration, what string, cond func(calls []Callback) bool) []Callback {
	r.t.Helper()
	deadline := time.After(timeout)
	for {
		r.mu.Lock()
		calls, changed := append([]Callback(nil), r.calls...), r.changed
		r.mu.Unlock()
		if cond(calls) {
			return calls
		}
		select {
		case <-changed:
		case <-deadline:
			r.t.Fatalf("webhooktest: waited %s for %s; received %d callbacks: %s", timeout, what, len(calls), summary(calls))
			return nil
		}
	}
}

// WaitAccepted waits until n callbacks were accepted and returns the accepted ones.
func (r *Receiver) WaitAccepted(n int, timeout time.Duration) []Callback {
	r.t.Helper()
	r.WaitFor(timeout, "accepted callbacks", func(calls []Callback) bool {
		k := 0
		for _, c := range calls {
			if c.Status == http.StatusOK {
				k++
			}
		}
		return k >= n
	})
	return r.Accepted()
}

func summary(calls []Callback) string {
	out := ""
	for _, c := range calls {
		out += "\n  " + c.Topic + " " + c.EventID + " → " + http.StatusText(c.Status)
	}
	return out
}
