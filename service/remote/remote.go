// Package remote makes the calls to the outside systems that take part in a checkout while the
// shopper waits: a shop's remote state authority (RSA) and its API overrides. Every call is
// signed like a platform connector call (X-HMAC-Timestamp, X-HMAC keyed by the remote's shared
// secret), bounded by the remote's timeout, sent through the outbound guard, and passes through
// the remote's circuit breaker: after TripAfter failures in a row (timeouts, 5xx, no connection)
// the remote is not called for a cool-down, then one trial call decides, so that shoppers do not
// each wait out a timeout of a remote that is down. Each call is reported as an Exchange, for the
// support log. No database transaction may be open around a call.
package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	json "github.com/segmentio/encoding/json"
	"github.com/sony/gobreaker/v2"
	"github.com/valyala/fasthttp"

	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/outbound"
)

const (
	// DefaultTimeout bounds a call of a remote that sets no timeout of its own.
	DefaultTimeout = 2 * time.Second
	// MaxTimeout is the longest timeout a remote may set: a shopper waits for it.
	MaxTimeout = 10 * time.Second
	// TripAfter is how many failures in a row open a remote's circuit.
	TripAfter = 5
	// DefaultCoolDown is how long an open circuit calls nothing before its trial call.
	DefaultCoolDown = 30 * time.Second
	// UserAgent is the fixed User-Agent of every call, by which a remote's firewall tells
	// checkoutd's traffic.
	UserAgent = "checkoutd-remote/1"
	// maxAnswer bounds what is read of an answer.
	maxAnswer = 1 << 20
	// maxBreakers bounds the circuits kept (one per remote called): past it they start afresh.
	maxBreakers = 10000
)

// Outcome is how a call ended, in the words of the exchange log and the metrics.
type Outcome string

const (
	// Answered: the remote answered 2xx.
	Answered Outcome = "answered"
	// Refused: the remote answered 4xx, a definite answer about the request (a 400 from an RSA's
	// validation is its "no").
	Refused Outcome = "refused"
	// Failed: the remote answered 5xx, or something that is not HTTP's.
	Failed Outcome = "failed"
	// TimedOut: no answer within the remote's timeout.
	TimedOut Outcome = "timeout"
	// Unreachable: no connection.
	Unreachable Outcome = "unreachable"
	// NotSent: the outbound guard refused the address; nothing left checkoutd.
	NotSent Outcome = "not_sent"
	// CircuitOpen: the remote failed TripAfter times in a row and is cooling down; not called.
	CircuitOpen Outcome = "circuit_open"
)

// The kinds of remote, as the exchange log and the metrics name them.
const (
	KindRSA      = "rsa"
	KindOverride = "override"
)

// Request is one call.
type Request struct {
	// Remote names the remote for its circuit: one circuit per name (the RSA or override
	// configuration's id and URL, so that a changed URL starts afresh).
	Remote string
	// Kind (KindRSA, KindOverride) and Call (the protocol's operation, e.g. "process_order_events"
	// or "tax") label the call in the metrics and the exchange log; ShopID and PublicOrderID say
	// whose it was (PublicOrderID empty for a call about no order).
	Kind, Call    string
	ShopID        int
	PublicOrderID string
	// URL is where the call goes (POST).
	URL     string
	Secret  []byte
	Timeout time.Duration
	Body    any
}

// Answer is a remote's answer: a 2xx or a 4xx (Refused).
type Answer struct {
	Status int
	Body   []byte
}

// RefusedCredentials says the remote refused the call's signature or credentials (401, 403):
// not a "no" about what was asked, a disagreement about the shared secret.
func (a *Answer) RefusedCredentials() bool {
	return a.Status == http.StatusUnauthorized || a.Status == http.StatusForbidden
}

// Exchange is one call as the support log keeps it.
type Exchange struct {
	Remote        string
	Kind, Call    string
	ShopID        int
	PublicOrderID string
	URL           string
	At            time.Time
	Request       []byte
	Status        int
	Answer        []byte
	Latency       time.Duration
	Outcome       Outcome
	// Error says why there is no answer (Failed without HTTP, TimedOut, Unreachable, NotSent,
	// CircuitOpen).
	Error string
}

// Error is a call that gave no usable answer: Outcome says how.
type Error struct {
	Outcome Outcome
	Err     error
}

func (e *Error) Error() string {
	switch e.Outcome {
	case TimedOut:
		return "the remote did not answer in time"
	case CircuitOpen:
		return "the remote failed repeatedly and is not called while it cools down"
	case NotSent:
		return "not sent: " + e.Err.Error()
	}
	return "the remote failed: " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Client makes remote calls. Its circuits live in this process: with several processes each
// finds a dead remote out by itself, after TripAfter calls.
type Client struct {
	httpClient *fasthttp.Client
	policy     outbound.Policy
	now        func() time.Time
	coolDown   time.Duration

	// recorder keeps each exchange (the support log); nil keeps none.
	recorder Recorder
	metrics  *outbound.CallMetrics

	mu       sync.Mutex
	breakers map[string]*gobreaker.CircuitBreaker[*Answer]
}

// Recorder keeps exchanges for support. Record is called after each call, never inside a
// database transaction of the caller's; it must not block the shopper for long (buffer or
// write one row), and its failures are its own to log.
type Recorder interface {
	Record(ctx context.Context, ex Exchange)
}

// WithRecorder makes the client hand every exchange to r.
func WithRecorder(r Recorder) Option { return func(c *Client) { c.recorder = r } }

// WithMetrics makes the client count and time its calls under the kind of each request.
func WithMetrics(m *outbound.CallMetrics) Option { return func(c *Client) { c.metrics = m } }

// Option configures a Client.
type Option func(*Client)

// WithCoolDown sets how long an open circuit waits before its trial call (tests shorten it).
func WithCoolDown(d time.Duration) Option { return func(c *Client) { c.coolDown = d } }

// New returns a client whose calls reach only what policy allows. now is the wall clock the
// signatures carry.
func New(policy outbound.Policy, now func() time.Time, opts ...Option) *Client {
	c := &Client{httpClient: outbound.NewFastClient(policy, maxAnswer), policy: policy, now: now, coolDown: DefaultCoolDown,
		breakers: map[string]*gobreaker.CircuitBreaker[*Answer]{}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Timeout is the timeout a remote configured, bounded: DefaultTimeout when unset, at most
// MaxTimeout.
func Timeout(configured time.Duration) time.Duration {
	switch {
	case configured <= 0:
		return DefaultTimeout
	case configured > MaxTimeout:
		return MaxTimeout
	}
	return configured
}

// errServer is a 5xx answer: a failure for the circuit, whose answer is still logged.
type errServer struct{ answer *Answer }

func (e *errServer) Error() string { return fmt.Sprintf("answered %d", e.answer.Status) }

// Do sends r, signed, through its remote's circuit, and returns a 2xx or 4xx answer, or an
// *Error. The exchange is returned either way.
func (c *Client) Do(ctx context.Context, r Request) (*Answer, Exchange, error) {
	a, ex, err := c.do(ctx, r)
	if c.recorder != nil {
		c.recorder.Record(ctx, ex)
	}
	return a, ex, err
}

func (c *Client) do(ctx context.Context, r Request) (*Answer, Exchange, error) {
	ex := Exchange{Remote: r.Remote, Kind: r.Kind, Call: r.Call, ShopID: r.ShopID, PublicOrderID: r.PublicOrderID, URL: r.URL, At: c.now()}
	raw, err := json.Marshal(r.Body)
	if err != nil {
		return nil, ex, err
	}
	ex.Request = raw
	start := time.Now()
	answer, err := c.breaker(r.Remote).Execute(func() (*Answer, error) { return c.send(ctx, r, raw) })
	ex.Latency = time.Since(start)
	var server *errServer
	switch {
	case err == nil:
		ex.Status, ex.Answer = answer.Status, answer.Body
		ex.Outcome = Answered
		if answer.Status >= 400 {
			ex.Outcome = Refused
		}
		return answer, ex, nil
	case errors.As(err, &server):
		ex.Status, ex.Answer, ex.Outcome = server.answer.Status, server.answer.Body, Failed
		err = &Error{Outcome: Failed, Err: err}
	case errors.Is(err, gobreaker.ErrOpenState), errors.Is(err, gobreaker.ErrTooManyRequests):
		// Too many requests: the trial call of a half-open circuit is in flight; this one waits
		// for nothing and is answered as the open circuit's.
		err = &Error{Outcome: CircuitOpen, Err: err}
	}
	var re *Error
	if !errors.As(err, &re) {
		re = &Error{Outcome: Failed, Err: err}
		err = re
	}
	ex.Outcome, ex.Error = re.Outcome, re.Error()
	return nil, ex, err
}

// send makes one call. A 5xx is an error (the circuit counts it); a 2xx or 4xx is an answer.
// The call ends at the remote's timeout or the deadline of ctx, whichever comes first. A ctx
// ended before the call is not sent (NotSent: it says nothing of the remote's health); a
// shopper who leaves mid-call does not cut it short, as its answer is the remote's word on the
// change.
func (c *Client) send(ctx context.Context, r Request, raw []byte) (*Answer, error) {
	if err := c.policy.CheckURL(r.URL); err != nil {
		return nil, &Error{Outcome: NotSent, Err: err}
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Outcome: NotSent, Err: err}
	}
	deadline := time.Now().Add(Timeout(r.Timeout))
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	req, res := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(res)
	req.SetRequestURI(r.URL)
	req.Header.SetMethod(http.MethodPost)
	req.Header.SetUserAgent(UserAgent)
	req.Header.Set("Accept", "application/json")
	req.Header.SetContentType("application/json")
	ts, mac, compatible := hmacsig.Values(r.Secret, c.now())
	req.Header.Set(hmacsig.HeaderTimestamp, ts)
	req.Header.Set(hmacsig.HeaderHMAC, mac)
	req.Header.Set(hmacsig.HeaderCompatible, compatible)
	req.SetBodyRaw(raw)
	began := time.Now()
	err := c.httpClient.DoDeadline(req, res, deadline)
	status := res.StatusCode()
	if err != nil {
		status = 0
	}
	c.metrics.ObserveStatus(r.Kind, r.Call, began, status, err)
	switch {
	case err == nil:
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		return nil, &Error{Outcome: Failed, Err: fmt.Errorf("its answer is over %d bytes", maxAnswer)}
	case isTimeout(err):
		return nil, &Error{Outcome: TimedOut, Err: err}
	default:
		if refused, ok := outbound.AsRefused(err); ok {
			return nil, &Error{Outcome: NotSent, Err: refused}
		}
		return nil, &Error{Outcome: Unreachable, Err: err}
	}
	// The response goes back to fasthttp's pool: the answer keeps a copy of its body.
	a := &Answer{Status: status, Body: append([]byte(nil), res.Body()...)}
	if status >= 500 || status < 200 || (status >= 300 && status < 400) {
		return nil, &errServer{answer: a}
	}
	return a, nil
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, fasthttp.ErrTimeout) ||
		errors.Is(err, fasthttp.ErrDialTimeout) || errors.As(err, &t) && t.Timeout()
}

// breaker is the circuit of a remote.
func (c *Client) breaker(remote string) *gobreaker.CircuitBreaker[*Answer] {
	c.mu.Lock()
	defer c.mu.Unlock()
	if b, ok := c.breakers[remote]; ok {
		return b
	}
	if len(c.breakers) >= maxBreakers {
		clear(c.breakers)
	}
	b := gobreaker.NewCircuitBreaker[*Answer](gobreaker.Settings{
		Name:        remote,
		MaxRequests: 1,
		Timeout:     c.coolDown,
		ReadyToTrip: func(counts gobreaker.Counts) bool { return counts.ConsecutiveFailures >= TripAfter },
		// A call the guard refused never reached the remote: it says nothing of its health.
		IsExcluded: func(err error) bool {
			var re *Error
			return errors.As(err, &re) && re.Outcome == NotSent
		},
	})
	c.breakers[remote] = b
	return b
}
