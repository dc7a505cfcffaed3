package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/outbound"
)

// These tests drive the example with checkoutd's own gateway client (service/gateway), which
// signs calls exactly as checkoutd does: whatever passes here is what checkoutd sends.

const apiToken = "example-api-token"

// started runs the example gateway and returns it, its base_url and checkoutd's client.
func started(t *testing.T) (*paymentGateway, gateway.Gateway, *gateway.Client) {
	t.Helper()
	g := newGateway(apiToken, slog.New(slog.NewTextHandler(io.Discard, nil)))
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	return g, gateway.Gateway{BaseURL: srv.URL, APIToken: apiToken, ProviderID: "example"}, clientAt(time.Now)
}

// locked runs fn holding the gateway's lock, so that a test reads its state as the handlers
// left it.
func (g *paymentGateway) locked(fn func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	fn()
}

// clientAt is checkoutd's gateway client signing with the clock now. The example listens on
// loopback, which checkoutd reaches only when told to (CHECKOUT_OUTBOUND_ALLOW_PRIVATE).
func clientAt(now func() time.Time) *gateway.Client {
	return gateway.New(5*time.Second, now, outbound.Policy{AllowPrivate: true})
}

func authorizeOK(t *testing.T, c *gateway.Client, gw gateway.Gateway, key, token string, amount int64) string {
	t.Helper()
	res, err := c.Authorize(context.Background(), gw, key, gateway.AuthRequest{Token: token, Amount: amount, Currency: "USD", OrderID: "order-1"})
	if err != nil || res.AuthorizationID == "" || res.RequiresAction {
		t.Fatalf("authorize %s: %+v, %v", key, res, err)
	}
	return res.AuthorizationID
}

func captureOK(t *testing.T, c *gateway.Client, gw gateway.Gateway, key, authID string, amount int64, holdOpen bool) string {
	t.Helper()
	res, accepted, err := c.Capture(context.Background(), gw, key, gateway.CaptureRequest{AuthID: authID, Amount: amount, HoldOpen: holdOpen})
	if err != nil || accepted || res.TransactionID == "" {
		t.Fatalf("capture %s: %+v accepted %v, %v", key, res, accepted, err)
	}
	return res.TransactionID
}

func refund(c *gateway.Client, gw gateway.Gateway, key, captureID string, amount int64) (string, error) {
	res, _, err := c.Refund(context.Background(), gw, key, gateway.RefundRequest{TransactionID: captureID, Amount: amount, Reason: "returned"})
	return res.TransactionID, err
}

// wantDeclined checks err is the gateway's definite refusal with code.
func wantDeclined(t *testing.T, err error, status int, code string) {
	t.Helper()
	ge, ok := err.(*gateway.Error)
	if !ok || !ge.Declined || ge.Status != status || ge.Code != code {
		t.Fatalf("got %v, want a declined %d %s", err, status, code)
	}
}

func TestAuthorizeCaptureInPartsRefundAndVoid(t *testing.T) {
	g, gw, c := started(t)
	ctx := context.Background()
	auth := authorizeOK(t, c, gw, "k-auth", "tok_visa", 1000)
	first := captureOK(t, c, gw, "k-cap-1", auth, 600, true)
	second := captureOK(t, c, gw, "k-cap-2", auth, 400, true)
	_, _, err := c.Capture(ctx, gw, "k-cap-3", gateway.CaptureRequest{AuthID: auth, Amount: 1, HoldOpen: true})
	wantDeclined(t, err, http.StatusPaymentRequired, "amount_too_large")

	if id, err := refund(c, gw, "k-ref-1", first, 250); err != nil || id == "" {
		t.Fatalf("refund: %q, %v", id, err)
	}
	_, err = refund(c, gw, "k-ref-2", first, 351)
	wantDeclined(t, err, http.StatusPaymentRequired, "amount_too_large")
	if _, err := refund(c, gw, "k-ref-3", second, 400); err != nil {
		t.Fatalf("refunding the second capture whole: %v", err)
	}
	_, err = refund(c, gw, "k-ref-4", "cap_unknown", 1)
	wantDeclined(t, err, http.StatusPaymentRequired, "invalid_transaction")

	// A void releases an authorization nothing was captured from; it can then not be captured.
	other := authorizeOK(t, c, gw, "k-auth-2", "tok_visa", 500)
	if err := c.Void(ctx, gw, "k-void", gateway.VoidRequest{AuthorizationID: other}); err != nil {
		t.Fatalf("void: %v", err)
	}
	_, _, err = c.Capture(ctx, gw, "k-cap-4", gateway.CaptureRequest{AuthID: other, Amount: 100, HoldOpen: true})
	wantDeclined(t, err, http.StatusPaymentRequired, "invalid_authorization")
	err = c.Void(ctx, gw, "k-void-again", gateway.VoidRequest{AuthorizationID: auth})
	wantDeclined(t, err, http.StatusPaymentRequired, "authorization_used")

	g.locked(func() {
		if a := g.auths[auth]; a.captured != 1000 || g.captures[first].refunded != 250 || g.captures[second].refunded != 400 || !g.auths[other].voided {
			t.Fatalf("gateway state: auth %+v, captures %+v %+v", a, g.captures[first], g.captures[second])
		}
	})
}

// Without hold_open (a gateway registered with partial_capture false) one capture closes the
// authorization; checkoutd then authorizes again when the capture request allows it (reauth),
// which it recognises by the code authorization_used.
func TestACaptureWithoutHoldOpenClosesTheAuthorization(t *testing.T) {
	_, gw, c := started(t)
	auth := authorizeOK(t, c, gw, "k-auth", "tok_visa", 1000)
	captureOK(t, c, gw, "k-cap-1", auth, 300, false)
	_, _, err := c.Capture(context.Background(), gw, "k-cap-2", gateway.CaptureRequest{AuthID: auth, Amount: 300, HoldOpen: false})
	wantDeclined(t, err, http.StatusPaymentRequired, "authorization_used")
}

func TestARepeatUnderTheSameIdempotencyKeyAnswersTheSameAndMovesNothing(t *testing.T) {
	g, gw, c := started(t)
	ctx := context.Background()
	auth := authorizeOK(t, c, gw, "k-auth", "tok_visa", 1000)
	if again := authorizeOK(t, c, gw, "k-auth", "tok_visa", 1000); again != auth {
		t.Fatalf("the repeat answered %s, the first %s", again, auth)
	}
	cap1 := captureOK(t, c, gw, "k-cap", auth, 700, true)
	if again := captureOK(t, c, gw, "k-cap", auth, 700, true); again != cap1 {
		t.Fatalf("the repeated capture answered %s, the first %s", again, cap1)
	}
	ref1, err := refund(c, gw, "k-ref", cap1, 700)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := refund(c, gw, "k-ref", cap1, 700); err != nil || again != ref1 {
		t.Fatalf("the repeated refund answered %s, %v; the first %s", again, err, ref1)
	}
	g.locked(func() {
		if len(g.auths) != 1 || g.auths[auth].captured != 700 || g.captures[cap1].refunded != 700 {
			t.Fatalf("after the repeats: %d authorizations, captured %d, refunded %d", len(g.auths), g.auths[auth].captured, g.captures[cap1].refunded)
		}
	})
	// A refusal is an answer too: the same key gets it again, even once the call would succeed.
	_, _, err = c.Capture(ctx, gw, "k-cap-big", gateway.CaptureRequest{AuthID: auth, Amount: 301, HoldOpen: true})
	wantDeclined(t, err, http.StatusPaymentRequired, "amount_too_large")
	_, _, err = c.Capture(ctx, gw, "k-cap-big", gateway.CaptureRequest{AuthID: auth, Amount: 300, HoldOpen: true})
	wantDeclined(t, err, http.StatusPaymentRequired, "amount_too_large")
	// Keys are per call: the same key on another path is another call.
	if err := c.Void(ctx, gw, "k-cap", gateway.VoidRequest{AuthorizationID: auth}); err != nil {
		t.Fatalf("void under a key used by a capture: %v", err)
	}
}

func TestTheDeclineTokenIsDeclinedAndAuthorizesNothing(t *testing.T) {
	g, gw, c := started(t)
	_, err := c.Authorize(context.Background(), gw, "k-auth", gateway.AuthRequest{Token: DeclineToken, Amount: 1000, Currency: "USD"})
	wantDeclined(t, err, http.StatusPaymentRequired, "card_declined")
	g.locked(func() {
		if len(g.auths) != 0 {
			t.Fatalf("a declined card was authorized: %v", g.auths)
		}
	})
}

func TestARetainedTokenStandsForItsCard(t *testing.T) {
	_, gw, c := started(t)
	ctx := context.Background()
	kept, err := c.Retain(ctx, gw, "k-retain", gateway.RetainRequest{Token: "tok_visa", CustomerData: map[string]any{"email_address": "ada@example.com"}})
	if err != nil || kept == "" || kept == "tok_visa" {
		t.Fatalf("retain: %q, %v", kept, err)
	}
	authorizeOK(t, c, gw, "k-auth", kept, 1000)
	declining, err := c.Retain(ctx, gw, "k-retain-2", gateway.RetainRequest{Token: DeclineToken})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Authorize(ctx, gw, "k-auth-2", gateway.AuthRequest{Token: declining, Amount: 1000, Currency: "USD"})
	wantDeclined(t, err, http.StatusPaymentRequired, "card_declined")
}

func TestACallNotSignedWithTheAPITokenIsRefused401(t *testing.T) {
	g, gw, c := started(t)
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"another api_token": func() error {
			wrong := gw
			wrong.APIToken = "not-the-token"
			_, err := c.Authorize(ctx, wrong, "k1", gateway.AuthRequest{Token: "tok_visa", Amount: 1000, Currency: "USD"})
			return err
		},
		"no api_token (unsigned)": func() error {
			unsigned := gw
			unsigned.APIToken = ""
			_, err := c.Authorize(ctx, unsigned, "k2", gateway.AuthRequest{Token: "tok_visa", Amount: 1000, Currency: "USD"})
			return err
		},
		"a Date ten minutes old": func() error {
			late := clientAt(func() time.Time { return time.Now().Add(-10 * time.Minute) })
			_, err := late.Authorize(ctx, gw, "k3", gateway.AuthRequest{Token: "tok_visa", Amount: 1000, Currency: "USD"})
			return err
		},
	} {
		err := call()
		ge, ok := err.(*gateway.Error)
		if !ok || !ge.RefusedCredentials() || ge.Code != "unauthorized" {
			t.Errorf("%s: got %v, want 401 unauthorized", name, err)
		}
	}
	g.locked(func() {
		if len(g.auths) != 0 {
			t.Fatalf("refused calls authorized %d payments", len(g.auths))
		}
	})
}

// The console's "Test connection" voids an authorization nobody granted: a 4xx other than
// 401/403 tells checkoutd the gateway is there and trusts the api_token.
func TestVoidingAnUnknownAuthorizationIsADefiniteRefusal(t *testing.T) {
	_, gw, c := started(t)
	err := c.Void(context.Background(), gw, "", gateway.VoidRequest{AuthorizationID: "checkoutd-connection-test"})
	wantDeclined(t, err, http.StatusPaymentRequired, "invalid_authorization")
}
