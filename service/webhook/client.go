// Package webhook sends event callbacks to subscribers: one signed POST per call, with a
// timeout, and an outcome that says what the receiver answered. It keeps no state: retrying,
// ordering and logging belong to the service.
package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/checkoutd/checkoutd/service/httpsig"
	"github.com/checkoutd/checkoutd/service/outbound"
)

// DefaultTimeout bounds one callback, from connecting to reading the answer.
const DefaultTimeout = 10 * time.Second

// MaxLoggedBody is how much of a receiver's answer is kept.
const MaxLoggedBody = 1024

// KeyID names the shared secret in the Signature header.
const KeyID = "shared_secret"

// Headers of a callback besides Date and Signature.
const (
	HeaderTopic   = "X-Webhook-Topic"
	HeaderEventID = "X-Webhook-Event-Id"
)

// Callback is one POST to make.
type Callback struct {
	URL     string
	Topic   string
	EventID string
	Body    []byte
	Secret  []byte
}

// Outcome kinds of an unsuccessful callback.
const (
	KindStatus     = "status"     // the receiver answered, not with a 2xx
	KindTimeout    = "timeout"    // no complete answer in time
	KindConnection = "connection" // no connection, or it broke, or the outbound policy refused the address
)

// Error is a callback that did not succeed.
type Error struct {
	Kind    string
	Status  int
	Message string
}

func (e *Error) Error() string {
	if e.Kind == KindStatus {
		return fmt.Sprintf("receiver answered %d", e.Status)
	}
	return e.Kind + ": " + e.Message
}

// Result is what came of one callback. Err is nil exactly when the receiver answered 2xx.
type Result struct {
	StatusCode int // 0 when no answer came
	Latency    time.Duration
	Body       string // the start of the answer, at most MaxLoggedBody bytes of valid UTF-8
	Err        *Error
}

// Client sends callbacks.
type Client struct {
	http *http.Client
	now  func() time.Time
}

// New returns a client whose callbacks give up after timeout and reach only the addresses
// policy allows (package outbound). Signatures carry now's Date. A redirect is not followed: it
// is not a 2xx, and the subscription should name the URL that answers.
func New(timeout time.Duration, now func() time.Time, policy outbound.Policy) *Client {
	return &Client{now: now, http: outbound.NewClient(timeout, policy)}
}

// Send posts one callback, signed with its secret.
func (c *Client) Send(ctx context.Context, cb Callback) Result {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cb.URL, bytes.NewReader(cb.Body))
	if err != nil {
		return Result{Err: &Error{Kind: KindConnection, Message: "invalid callback URL: " + err.Error()}}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "checkoutd-webhooks/1")
	req.Header.Set(HeaderTopic, cb.Topic)
	req.Header.Set(HeaderEventID, cb.EventID)
	httpsig.Sign(req, "Signature", KeyID, cb.Secret, c.now())
	start := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		return Result{Latency: time.Since(start), Err: transportError(err)}
	}
	defer res.Body.Close()
	// A body cut short after a 2xx does not undo the 2xx, so a read error is not an outcome.
	head, _ := io.ReadAll(io.LimitReader(res.Body, MaxLoggedBody))
	// Reading a little past what is kept lets the connection be reused for the next callback.
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	out := Result{StatusCode: res.StatusCode, Latency: time.Since(start), Body: loggable(head)}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		out.Err = &Error{Kind: KindStatus, Status: res.StatusCode, Message: http.StatusText(res.StatusCode)}
	}
	return out
}

func transportError(err error) *Error {
	if r, ok := outbound.AsRefused(err); ok {
		return &Error{Kind: KindConnection, Message: "not sent: " + r.Error()}
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &Error{Kind: KindTimeout, Message: err.Error()}
	}
	return &Error{Kind: KindConnection, Message: err.Error()}
}

// loggable makes the start of an answer storable as text on both databases: valid UTF-8 (the
// cut may split a character), without NUL bytes (PostgreSQL text refuses them), and still
// within MaxLoggedBody bytes after the replacements.
func loggable(b []byte) string {
	return Clip(strings.ReplaceAll(strings.ToValidUTF8(string(b), "\uFFFD"), "\x00", "\uFFFD"), MaxLoggedBody)
}

// Clip cuts valid UTF-8 text to at most max bytes, at a character boundary.
func Clip(s string, max int) string {
	for len(s) > max {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
