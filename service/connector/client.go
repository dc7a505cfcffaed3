package connector

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/service/hmacsig"
	"github.com/checkoutd/checkoutd/service/outbound"
)

// UserAgent is the fixed User-Agent of every connector call, by which a platform's firewall
// tells checkoutd's traffic (the spec's rule).
const UserAgent = "checkoutd-platform-connector/1"

// maxAnswer bounds what is read of a connector's answer.
const maxAnswer = 4 << 20

// Client makes the signed calls to a platform's connector server. It keeps no state.
type Client struct {
	http  *http.Client
	now   func() time.Time
	calls *outbound.CallMetrics
}

// NewClient returns a client whose calls reach only what policy allows; each call's timeout is
// its destination's. Its calls are counted and timed in calls (nil: not).
func NewClient(policy outbound.Policy, now func() time.Time, calls *outbound.CallMetrics) *Client {
	return &Client{http: outbound.NewClient(MaxTimeout, policy), now: now, calls: calls}
}

// Call is one call to a connector server.
type Call struct {
	// Operation names the call in the metrics (create_order, verification, list_products, ...):
	// one of a few names, never its path, which carries ids.
	Operation string
	// Base is {destination}/{version}/shops/{shop}; Path follows it ("/verification").
	Base, Path string
	Method     string
	Secret     []byte
	Timeout    time.Duration
	// IdempotencyKey is sent with order creates, so that a retry creates nothing twice.
	IdempotencyKey string
	Body           any
}

// Answer is what the connector server answered.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// The methods of the connector operations: the rest of the package names calls by them and
// reads answers through Answer's methods, so that HTTP stays in this file.
const (
	methodGet   = http.MethodGet
	methodPost  = http.MethodPost
	methodPatch = http.MethodPatch
)

// OK reports a 200.
func (a *Answer) OK() bool { return a.Status == http.StatusOK }

// Succeeded reports a 2xx.
func (a *Answer) Succeeded() bool { return a.Status >= 200 && a.Status < 300 }

// NotFound reports a 404: the platform does not have what the call names.
func (a *Answer) NotFound() bool { return a.Status == http.StatusNotFound }

// Definite reports a refusal a retry cannot change: a 4xx other than 408, 409, 425 and 429,
// which say "not now".
func (a *Answer) Definite() bool {
	switch a.Status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests:
		return false
	}
	return a.Status >= 400 && a.Status < 500
}

// Said is the answer's status in words, for logs and refusals.
func (a *Answer) Said() string {
	if a == nil {
		return "the platform did not answer"
	}
	return fmt.Sprintf("the platform answered %d %s", a.Status, http.StatusText(a.Status))
}

// CallError is a call without an answer: never sent (the outbound policy refused the address),
// timed out, or the connection failed.
type CallError struct {
	Refused bool
	Timeout bool
	Err     error
}

func (e *CallError) Error() string {
	switch {
	case e.Refused:
		return "not sent: " + e.Err.Error()
	case e.Timeout:
		return "no answer in time"
	}
	return "no answer: " + e.Err.Error()
}

func (e *CallError) Unwrap() error { return e.Err }

// BaseURL is where a destination's calls for a shop go.
func BaseURL(destination, version, shop string) string {
	return strings.TrimRight(destination, "/") + "/" + url.PathEscape(version) + "/shops/" + url.PathEscape(shop)
}

// Do sends c, signed, and reads the answer. No database transaction may be open around it.
func (cl *Client) Do(ctx context.Context, c Call) (*Answer, error) {
	var body io.Reader
	if c.Body != nil {
		raw, err := json.Marshal(c.Body)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(raw)
	}
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, c.Method, c.Base+c.Path, body)
	if err != nil {
		return nil, &CallError{Refused: true, Err: err}
	}
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("Accept", "application/json")
	if c.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.IdempotencyKey != "" {
		req.Header.Set("Idempotency-Key", c.IdempotencyKey)
	}
	hmacsig.Sign(req.Header, c.Secret, cl.now())
	began := time.Now()
	res, err := cl.http.Do(req)
	if err != nil {
		cl.calls.Observe(outbound.KindConnector, c.Operation, began, nil, err)
	}
	if r, ok := outbound.AsRefused(err); ok {
		return nil, &CallError{Refused: true, Err: r}
	}
	if err != nil {
		return nil, &CallError{Timeout: errors.Is(err, context.DeadlineExceeded) || isTimeout(err), Err: err}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		cl.calls.Observe(outbound.KindConnector, c.Operation, began, nil, err)
		return nil, &CallError{Timeout: errors.Is(err, context.DeadlineExceeded), Err: fmt.Errorf("reading the answer: %w", err)}
	}
	cl.calls.Observe(outbound.KindConnector, c.Operation, began, res, nil)
	return &Answer{Status: res.StatusCode, Header: res.Header, Body: raw}, nil
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// OperationVerification is the connector's verification of a destination.
const OperationVerification = "verification"

// Verify is the connector's verification: GET {base}/verification must answer 200 and carry an
// X-HMAC of its own, made with the same secret, so that checkoutd knows the server it reached
// holds the shop's secret. It returns why not, or nil.
func (cl *Client) Verify(ctx context.Context, base string, secret []byte, timeout time.Duration) error {
	a, err := cl.Do(ctx, Call{Operation: OperationVerification, Base: base, Path: "/verification", Method: http.MethodGet, Secret: secret, Timeout: timeout})
	if err != nil {
		return err
	}
	if a.Status != http.StatusOK {
		return fmt.Errorf("the verification answered %d, not 200", a.Status)
	}
	if err := hmacsig.Verify(a.Header, secret, cl.now()); err != nil {
		return fmt.Errorf("the verification's answer is not signed with the shop's shared secret: %w", err)
	}
	return nil
}
