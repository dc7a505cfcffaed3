// Package gateway is the client of the external payment gateway protocol: signed JSON calls to
// {base_url}/retain, /auth, /capture, /refund and /void, with timeouts and typed errors.
package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/httpsig"
	"github.com/checkoutd/checkoutd/service/outbound"
)

// DefaultTimeout bounds one gateway call.
const DefaultTimeout = 10 * time.Second

// CodeOutboundRefused is the code of a call that was not sent because the outbound policy
// refuses the address of the gateway's base URL.
const CodeOutboundRefused = "outbound_refused"

// Gateway is where and how to call one configured gateway.
type Gateway struct {
	BaseURL    string
	APIToken   string
	Headers    []schema.HTTPHeader
	ProviderID string
}

// Client calls gateways.
type Client struct {
	http  *http.Client
	now   func() time.Time
	calls *outbound.CallMetrics
}

// New returns a client whose calls give up after timeout and reach only the addresses policy
// allows (package outbound). Redirects are not followed: a 3xx is an answer of unknown outcome.
func New(timeout time.Duration, now func() time.Time, policy outbound.Policy) *Client {
	return &Client{http: outbound.NewClient(timeout, policy), now: now}
}

// Measured makes c count and time its calls in m (kind gateway, call retain, auth, capture,
// refund or void), and returns it.
func (c *Client) Measured(m *outbound.CallMetrics) *Client {
	c.calls = m
	return c
}

// Error is a call that did not succeed. Declined means the gateway answered and refused (a 4xx),
// or the call was never sent (code outbound_refused: the base URL points to an address the
// outbound policy refuses): nothing happened. Otherwise the outcome is unknown (a timeout, a refused connection, a 5xx):
// the gateway may or may not have acted, and only asking again with the same idempotency key tells.
type Error struct {
	Declined bool
	Status   int
	Code     string
	Message  string
}

func (e *Error) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("gateway answered %d %s: %s", e.Status, e.Code, e.Message)
	}
	return "gateway unreachable: " + e.Message
}

// StatusOK is the status of a gateway's plain success.
const StatusOK = http.StatusOK

// RefusedCredentials reports whether the gateway refused the call's signature or token (401, 403).
func (e *Error) RefusedCredentials() bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
}

// IsDeclined reports whether err is a definite refusal by the gateway.
func IsDeclined(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Declined
}

// Address is a billing or shipping address in the protocol.
type Address = schema.OrderAddress

// RetainRequest asks the gateway to keep a payment method for later use.
type RetainRequest struct {
	ProviderID     string         `json:"provider_id"`
	Token          string         `json:"token"`
	CustomerData   map[string]any `json:"customer_data"`
	BillingAddress *Address       `json:"billing_address"`
}

// AuthRequest authorizes an amount.
type AuthRequest struct {
	ProviderID      string         `json:"provider_id"`
	Token           string         `json:"token"`
	Amount          int64          `json:"amount"`
	Currency        string         `json:"currency"`
	OrderID         string         `json:"order_id"`
	BillingAddress  *Address       `json:"billing_address"`
	ShippingAddress *Address       `json:"shipping_address"`
	OrderDetails    map[string]any `json:"order_details,omitempty"`
}

// AuthResponse is a granted authorization.
type AuthResponse struct {
	AuthorizationID string `json:"authorization_id"`
	RequiresAction  bool   `json:"requires_action"`
}

// CaptureRequest captures part or all of an authorization.
type CaptureRequest struct {
	ProviderID string `json:"provider_id"`
	AuthID     string `json:"auth_id"`
	Amount     int64  `json:"amount"`
	HoldOpen   bool   `json:"hold_open"`
}

// RefundRequest returns captured money.
type RefundRequest struct {
	ProviderID    string `json:"provider_id"`
	TransactionID string `json:"transaction_id"`
	Amount        int64  `json:"amount"`
	Reason        string `json:"reason"`
}

// VoidRequest releases an authorization.
type VoidRequest struct {
	ProviderID      string `json:"provider_id"`
	AuthorizationID string `json:"authorization_id"`
}

// TransactionResponse is the answer to a capture or refund.
type TransactionResponse struct {
	TransactionID string `json:"transaction_id"`
}

// Retain calls /retain; the answer's token replaces the one sent.
func (c *Client) Retain(ctx context.Context, g Gateway, key string, in RetainRequest) (string, error) {
	var out struct {
		Token string `json:"token"`
	}
	in.ProviderID = g.ProviderID
	err := c.call(ctx, g, "/retain", key, in, &out)
	return out.Token, err
}

// Authorize calls /auth.
func (c *Client) Authorize(ctx context.Context, g Gateway, key string, in AuthRequest) (AuthResponse, error) {
	var out AuthResponse
	in.ProviderID = g.ProviderID
	err := c.call(ctx, g, "/auth", key, in, &out)
	if err == nil && out.AuthorizationID == "" && !out.RequiresAction {
		err = &Error{Status: http.StatusOK, Code: "invalid_response", Message: "authorization_id missing from the answer"}
	}
	return out, err
}

// Capture calls /capture. accepted says the gateway took the capture without settling it yet
// (a 202): its outcome is asked again later under the same key.
func (c *Client) Capture(ctx context.Context, g Gateway, key string, in CaptureRequest) (out TransactionResponse, accepted bool, err error) {
	in.ProviderID = g.ProviderID
	status, err := c.callStatus(ctx, g, "/capture", key, in, &out)
	return out, err == nil && status == http.StatusAccepted, err
}

// Refund calls /refund. accepted says the gateway took the refund without settling it yet.
func (c *Client) Refund(ctx context.Context, g Gateway, key string, in RefundRequest) (out TransactionResponse, accepted bool, err error) {
	in.ProviderID = g.ProviderID
	status, err := c.callStatus(ctx, g, "/refund", key, in, &out)
	return out, err == nil && status == http.StatusAccepted, err
}

// Void calls /void.
func (c *Client) Void(ctx context.Context, g Gateway, key string, in VoidRequest) error {
	in.ProviderID = g.ProviderID
	return c.call(ctx, g, "/void", key, in, nil)
}

func (c *Client) call(ctx context.Context, g Gateway, path, key string, in, out any) error {
	_, err := c.callStatus(ctx, g, path, key, in, out)
	return err
}

// callStatus sends one signed call. key is sent as Idempotency-Key, so that a call whose answer
// was lost can be asked again without acting twice.
func (c *Client) callStatus(ctx context.Context, g Gateway, path, key string, in, out any) (int, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return 0, &Error{Declined: true, Message: "invalid gateway URL: " + err.Error()}
	}
	for _, h := range g.Headers {
		req.Header.Set(h.Key, h.Value)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "checkoutd")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	if g.APIToken != "" {
		httpsig.Sign(req, "Authorization", "api_token", []byte(g.APIToken), c.now())
	} else {
		req.Header.Set("Date", c.now().UTC().Format(http.TimeFormat))
	}
	began := time.Now()
	res, err := c.http.Do(req)
	if err != nil {
		c.calls.Observe(outbound.KindGateway, path[1:], began, nil, err)
	}
	if r, ok := outbound.AsRefused(err); ok {
		return 0, &Error{Declined: true, Code: CodeOutboundRefused, Message: "not sent: " + r.Error()}
	}
	if err != nil {
		return 0, &Error{Message: err.Error()}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		c.calls.Observe(outbound.KindGateway, path[1:], began, nil, err)
		return res.StatusCode, &Error{Message: "reading the answer: " + err.Error()}
	}
	c.calls.Observe(outbound.KindGateway, path[1:], began, res, nil)
	if res.StatusCode >= 300 {
		var e struct {
			ErrorCode string `json:"error_code"`
			Message   string `json:"message"`
		}
		_ = json.Unmarshal(raw, &e)
		return res.StatusCode, &Error{Declined: definiteRefusal(res.StatusCode), Status: res.StatusCode, Code: e.ErrorCode, Message: e.Message}
	}
	if out != nil && len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, out); err != nil {
			return res.StatusCode, &Error{Status: res.StatusCode, Code: "invalid_response", Message: "the answer is not the protocol's JSON"}
		}
	}
	return res.StatusCode, nil
}

// definiteRefusal tells a 4xx that means "no" from one that means "not now": a timeout, a
// conflict with a call still running or a rate limit leave the outcome open.
func definiteRefusal(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests:
		return false
	}
	return status >= 400 && status < 500
}
