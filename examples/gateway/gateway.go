package main

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/checkoutd/checkoutd/service/httpsig"
)

// DeclineToken is the test card token this gateway declines (402 card_declined). Every other
// non-empty token is authorized.
const DeclineToken = "tok_decline"

// maxSkew is how far a request's signed Date may be from this gateway's clock: a captured
// request cannot be replayed later than that.
const maxSkew = 5 * time.Minute

// The request bodies checkoutd sends (amounts in the currency's minor units). Fields a gateway
// does not need are still listed, so that the protocol can be read here.
type (
	retainRequest struct {
		ProviderID     string         `json:"provider_id"`
		Token          string         `json:"token"`
		CustomerData   map[string]any `json:"customer_data"`
		BillingAddress map[string]any `json:"billing_address"`
	}
	authRequest struct {
		ProviderID      string         `json:"provider_id"`
		Token           string         `json:"token"`
		Amount          int64          `json:"amount"`
		Currency        string         `json:"currency"`
		OrderID         string         `json:"order_id"`
		BillingAddress  map[string]any `json:"billing_address"`
		ShippingAddress map[string]any `json:"shipping_address"`
		OrderDetails    map[string]any `json:"order_details"`
	}
	captureRequest struct {
		ProviderID string `json:"provider_id"`
		AuthID     string `json:"auth_id"`
		Amount     int64  `json:"amount"`
		// HoldOpen is true when the gateway is registered with partial_capture: the
		// authorization stays open for more captures. Otherwise this capture closes it.
		HoldOpen bool `json:"hold_open"`
	}
	refundRequest struct {
		ProviderID string `json:"provider_id"`
		// TransactionID is the capture the refund returns money from.
		TransactionID string `json:"transaction_id"`
		Amount        int64  `json:"amount"`
		Reason        string `json:"reason"`
	}
	voidRequest struct {
		ProviderID      string `json:"provider_id"`
		AuthorizationID string `json:"authorization_id"`
	}
)

type authorization struct {
	id       string
	amount   int64
	currency string
	orderID  string
	captured int64
	voided   bool
	closed   bool // captured without hold_open: nothing more can be captured
}

type capture struct {
	id       string
	authID   string
	amount   int64
	refunded int64
}

// answer is one response: its status and JSON body.
type answer struct {
	status int
	body   any
}

func ok(body any) answer { return answer{http.StatusOK, body} }

// refuse is the protocol's error answer, {error_code, message}. checkoutd reads any 4xx but
// 408, 409, 425 and 429 as "no, and nothing happened".
func refuse(status int, code, message string) answer {
	return answer{status, map[string]string{"error_code": code, "message": message}}
}

// paymentGateway is the whole payment gateway: its state lives in memory and is lost on restart.
type paymentGateway struct {
	apiToken []byte
	log      *slog.Logger
	mux      *http.ServeMux

	// mu serializes every call: a repeat of a call that is still running waits for it, and
	// then finds its answer.
	mu       sync.Mutex
	retained map[string]string // retained token → the card token it stands for
	auths    map[string]*authorization
	captures map[string]*capture
	answers  map[string]answer // path + Idempotency-Key → the first answer
}

// newGateway returns the gateway's HTTP handler, which accepts only calls signed with apiToken.
func newGateway(apiToken string, log *slog.Logger) *paymentGateway {
	g := &paymentGateway{apiToken: []byte(apiToken), log: log, mux: http.NewServeMux(),
		retained: map[string]string{}, auths: map[string]*authorization{}, captures: map[string]*capture{}, answers: map[string]answer{}}
	g.mux.Handle("POST /retain", endpoint(g, g.retain))
	g.mux.Handle("POST /auth", endpoint(g, g.authorize))
	g.mux.Handle("POST /capture", endpoint(g, g.capture))
	g.mux.Handle("POST /refund", endpoint(g, g.refund))
	g.mux.Handle("POST /void", endpoint(g, g.void))
	return g
}

func (g *paymentGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) { g.mux.ServeHTTP(w, r) }

// endpoint does what every call has in common: check the signature, decode the body, replay the
// answer of an Idempotency-Key already seen, run the operation once, and log it.
func endpoint[T any](g *paymentGateway, op func(T) answer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Idempotency-Key")
		logged := g.log.With("call", r.URL.Path, "idempotency_key", key)
		if err := g.verify(r); err != nil {
			logged.Warn("refused: bad signature", "error", err)
			write(w, refuse(http.StatusUnauthorized, "unauthorized", err.Error()))
			return
		}
		var in T
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&in); err != nil {
			write(w, refuse(http.StatusBadRequest, "invalid_request", "the body is not the protocol's JSON: "+err.Error()))
			return
		}
		g.mu.Lock()
		stored := r.URL.Path + " " + key
		a, replay := g.answers[stored]
		if !replay {
			a = op(in)
			// Every answer this gateway gives is final, refusals included: asked again under
			// the same key, it answers the same, without acting again. The body of a repeat is
			// not compared: checkoutd asks again under a key to learn what became of the call.
			if key != "" {
				g.answers[stored] = a
			}
		}
		g.mu.Unlock()
		logged.Info("answered", "status", a.status, "replay", replay, "answer", a.body)
		write(w, a)
	})
}

// verify checks the Authorization header as checkoutd signs it: HMAC-SHA256 keyed by the
// api_token over "(request-target): post <path>" and "date: <Date header>", keyId "api_token".
func (g *paymentGateway) verify(r *http.Request) error {
	if httpsig.Params(r.Header.Get("Authorization"))["keyId"] != "api_token" {
		return errors.New(`the Authorization header is not a signature with keyId="api_token"`)
	}
	return httpsig.Verify(r, "Authorization", g.apiToken, maxSkew, time.Now())
}

func write(w http.ResponseWriter, a answer) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	_ = json.NewEncoder(w).Encode(a.body)
}

func newID(prefix string) string { return prefix + "_" + rand.Text() }

// retain keeps a card for later use and answers a token that stands for it.
func (g *paymentGateway) retain(in retainRequest) answer {
	if in.Token == "" {
		return refuse(http.StatusBadRequest, "invalid_request", "token is required")
	}
	token := newID("rt")
	g.retained[token] = g.card(in.Token)
	return ok(map[string]string{"token": token})
}

// card is the card token a payment token stands for.
func (g *paymentGateway) card(token string) string {
	if card, ok := g.retained[token]; ok {
		return card
	}
	return token
}

func (g *paymentGateway) authorize(in authRequest) answer {
	switch {
	case in.Token == "":
		return refuse(http.StatusBadRequest, "invalid_request", "token is required")
	case in.Amount <= 0:
		return refuse(http.StatusBadRequest, "invalid_amount", "amount must be positive")
	case len(in.Currency) != 3:
		return refuse(http.StatusBadRequest, "invalid_currency", "currency must be an ISO 4217 code")
	case g.card(in.Token) == DeclineToken:
		return refuse(http.StatusPaymentRequired, "card_declined", "the card was declined")
	}
	a := &authorization{id: newID("auth"), amount: in.Amount, currency: in.Currency, orderID: in.OrderID}
	g.auths[a.id] = a
	return ok(map[string]any{"authorization_id": a.id})
}

func (g *paymentGateway) capture(in captureRequest) answer {
	a, found := g.auths[in.AuthID]
	switch {
	case !found || a.voided:
		return refuse(http.StatusPaymentRequired, "invalid_authorization", "no open authorization "+in.AuthID)
	case a.closed:
		return refuse(http.StatusPaymentRequired, "authorization_used", "the authorization was captured and closed")
	case in.Amount <= 0 || a.captured+in.Amount > a.amount:
		return refuse(http.StatusPaymentRequired, "amount_too_large", "the capture exceeds what is left of the authorization")
	}
	a.captured += in.Amount
	a.closed = !in.HoldOpen
	c := &capture{id: newID("cap"), authID: a.id, amount: in.Amount}
	g.captures[c.id] = c
	return ok(map[string]string{"transaction_id": c.id})
}

func (g *paymentGateway) refund(in refundRequest) answer {
	c, found := g.captures[in.TransactionID]
	switch {
	case !found:
		return refuse(http.StatusPaymentRequired, "invalid_transaction", "no capture "+in.TransactionID)
	case in.Amount <= 0 || c.refunded+in.Amount > c.amount:
		return refuse(http.StatusPaymentRequired, "amount_too_large", "the refund exceeds what is left of the capture")
	}
	c.refunded += in.Amount
	return ok(map[string]string{"transaction_id": newID("ref")})
}

// void releases what an authorization holds and was not captured.
func (g *paymentGateway) void(in voidRequest) answer {
	a, found := g.auths[in.AuthorizationID]
	switch {
	case !found || a.voided:
		return refuse(http.StatusPaymentRequired, "invalid_authorization", "no open authorization "+in.AuthorizationID)
	case a.closed || a.captured == a.amount:
		return refuse(http.StatusPaymentRequired, "authorization_used", "nothing is left to void")
	}
	a.voided = true
	return ok(map[string]any{})
}
