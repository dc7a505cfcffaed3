// Package gatewaytest is a real external payment gateway for tests: an HTTP server speaking the
// gateway protocol, which checks the signature of every call, keeps authorizations, captures
// and refunds, honours Idempotency-Key, and misbehaves on demand by payment token.
package gatewaytest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/httpsig"
)

// Payment tokens that make the gateway misbehave on /auth; any other token is authorized.
const (
	TokenOK           = "tok_ok"
	TokenDecline      = "tok_decline"        // 402 card_declined
	TokenError        = "tok_error"          // 500, nothing authorized
	TokenErrorAfterOK = "tok_error_after_ok" // authorized, then 500: only a replay tells
	TokenHang         = "tok_hang"           // authorized, then no answer for Hang
	TokenAction       = "tok_action"         // requires_action
)

// ProviderID is the provider_id the gateway expects; register the gateway with it.
const ProviderID = "gatewaytest"

// Auth is one authorization the gateway granted.
type Auth struct {
	ID       string
	Token    string
	Amount   int64
	Currency string
	OrderID  string
	Captured int64
	Refunded int64
	Voided   bool
	Expired  bool
}

// Call is one request the gateway received, after its signature was checked.
type Call struct {
	Path           string
	IdempotencyKey string
	Body           map[string]any
	Status         int
}

// Server is a running test gateway.
type Server struct {
	// URL is the base_url to configure: calls go to URL + "/auth" and so on.
	URL string
	// Hang is how long TokenHang keeps the caller waiting.
	Hang time.Duration

	t        testing.TB
	apiToken string
	srv      *httptest.Server

	mu        sync.Mutex
	modes     map[string]string
	release   chan struct{}
	accepted  map[string]stored // Idempotency-Key of a 202 capture or refund → its settled answer
	seq       int
	auths     map[string]*Auth
	captures  map[string]*Auth // capture transaction id → its authorization
	calls     []Call
	responses map[string]stored // by path + Idempotency-Key
}

type stored struct {
	status int
	body   any
}

// New starts a gateway that accepts only calls signed with apiToken ("" accepts unsigned calls).
func New(t testing.TB, apiToken string) *Server {
	s := &Server{t: t, apiToken: apiToken, Hang: 3 * time.Second, auths: map[string]*Auth{},
		captures: map[string]*Auth{}, responses: map[string]stored{}, modes: map[string]string{},
		release: make(chan struct{}), accepted: map[string]stored{}}
	mux := http.NewServeMux()
	for _, p := range []string{"/retain", "/auth", "/capture", "/refund", "/void"} {
		mux.HandleFunc("POST /epg"+p, s.handle(p))
	}
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.srv.Close)
	s.URL = s.srv.URL + "/epg"
	return s
}

func (s *Server) handle(path string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.apiToken != "" {
			if err := httpsig.Verify(r, "Authorization", []byte(s.apiToken), 5*time.Minute, time.Now()); err != nil {
				s.t.Errorf("gatewaytest: %s call refused: %v (Authorization %q)", path, err, r.Header.Get("Authorization"))
				writeJSON(w, http.StatusUnauthorized, map[string]string{"error_code": "unauthorized", "message": err.Error()})
				return
			}
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error_code": "bad_request", "message": err.Error()})
			return
		}
		if body["provider_id"] != ProviderID {
			s.t.Errorf("gatewaytest: %s call with provider_id %v, want %s", path, body["provider_id"], ProviderID)
		}
		key := r.Header.Get("Idempotency-Key")
		s.mu.Lock()
		if settled, ok := s.accepted[path+"\x00"+key]; ok && key != "" && settled.status != http.StatusAccepted {
			delete(s.accepted, path+"\x00"+key)
			s.responses[path+"\x00"+key] = settled
		}
		if prev, ok := s.responses[path+"\x00"+key]; ok && key != "" {
			s.calls = append(s.calls, Call{Path: path, IdempotencyKey: key, Body: body, Status: prev.status})
			s.mu.Unlock()
			writeJSON(w, prev.status, prev.body)
			return
		}
		mode := s.modes[path]
		if mode == "decline" {
			s.calls = append(s.calls, Call{Path: path, IdempotencyKey: key, Body: body, Status: http.StatusPaymentRequired})
			s.mu.Unlock()
			writeJSON(w, http.StatusPaymentRequired, map[string]string{"error_code": "declined", "message": "refused by the test gateway"})
			return
		}
		if mode == "error" {
			s.calls = append(s.calls, Call{Path: path, IdempotencyKey: key, Body: body, Status: http.StatusInternalServerError})
			s.mu.Unlock()
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error_code": "internal", "message": "gateway failure"})
			return
		}
		if p, ok := s.accepted[path+"\x00"+key]; ok && key != "" {
			// Still settling: the same 202 again.
			s.calls = append(s.calls, Call{Path: path, IdempotencyKey: key, Body: body, Status: p.status})
			s.mu.Unlock()
			writeJSON(w, http.StatusAccepted, p.body)
			return
		}
		status, out, after := s.act(path, body)
		if after == "" && status == http.StatusOK {
			switch mode {
			case "accept":
				s.accepted[path+"\x00"+key] = stored{http.StatusAccepted, out}
				status = http.StatusAccepted
			case "error_after":
				after = "error"
			case "hang":
				after = "wait"
			}
		}
		if key != "" && status < 500 && status != http.StatusAccepted {
			s.responses[path+"\x00"+key] = stored{status, out}
		}
		switch after {
		case "error":
			status, out = http.StatusInternalServerError, map[string]string{"error_code": "internal", "message": "gateway failure"}
		}
		s.calls = append(s.calls, Call{Path: path, IdempotencyKey: key, Body: body, Status: status})
		release := s.release
		s.mu.Unlock()
		if after == "wait" {
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		if after == "hang" {
			select {
			case <-time.After(s.Hang):
			case <-r.Context().Done():
				return
			}
		}
		writeJSON(w, status, out)
	}
}

// act applies one call to the gateway's state; after says how to misbehave once it is applied.
func (s *Server) act(path string, body map[string]any) (status int, out any, after string) {
	str := func(k string) string { v, _ := body[k].(string); return v }
	num := func(k string) int64 { v, _ := body[k].(float64); return int64(v) }
	declined := func(code, msg string) (int, any, string) {
		return http.StatusPaymentRequired, map[string]string{"error_code": code, "message": msg}, ""
	}
	s.seq++
	switch path {
	case "/retain":
		return http.StatusOK, map[string]string{"token": "retained_" + str("token")}, ""
	case "/auth":
		token := strings.TrimPrefix(str("token"), "retained_")
		switch token {
		case TokenDecline:
			return declined("card_declined", "the card was declined")
		case TokenError:
			return http.StatusInternalServerError, map[string]string{"error_code": "internal", "message": "gateway failure"}, ""
		case TokenAction:
			return http.StatusOK, map[string]any{"requires_action": true}, ""
		}
		if num("amount") <= 0 {
			return declined("invalid_amount", "amount must be positive")
		}
		a := &Auth{ID: fmt.Sprintf("auth_%d", s.seq), Token: token, Amount: num("amount"), Currency: str("currency"), OrderID: str("order_id")}
		s.auths[a.ID] = a
		out := map[string]any{"authorization_id": a.ID}
		switch token {
		case TokenErrorAfterOK:
			return http.StatusOK, out, "error"
		case TokenHang:
			return http.StatusOK, out, "hang"
		}
		return http.StatusOK, out, ""
	case "/capture":
		a, ok := s.auths[str("auth_id")]
		switch {
		case !ok || a.Voided:
			return declined("invalid_authorization", "no open authorization "+str("auth_id"))
		case a.Expired:
			return declined("authorization_expired", "the authorization has expired")
		case num("amount") <= 0 || a.Captured+num("amount") > a.Amount:
			return declined("amount_too_large", "capture exceeds the authorization")
		}
		a.Captured += num("amount")
		id := fmt.Sprintf("cap_%d", s.seq)
		s.captures[id] = a
		return http.StatusOK, map[string]string{"transaction_id": id}, ""
	case "/refund":
		a, ok := s.captures[str("transaction_id")]
		if !ok || num("amount") <= 0 || a.Refunded+num("amount") > a.Captured {
			return declined("invalid_refund", "refund exceeds the capture")
		}
		a.Refunded += num("amount")
		return http.StatusOK, map[string]string{"transaction_id": fmt.Sprintf("ref_%d", s.seq)}, ""
	case "/void":
		a, ok := s.auths[str("authorization_id")]
		if !ok || a.Voided {
			return declined("invalid_authorization", "no open authorization "+str("authorization_id"))
		}
		a.Voided = true
		return http.StatusOK, map[string]string{}, ""
	}
	return http.StatusNotFound, map[string]string{"error_code": "not_found"}, ""
}

// SetMode makes path ("/capture", "/refund", "/void", ...) misbehave from now on: "decline"
// (402, nothing done), "error" (500, nothing done), "error_after" (done, then 500), "accept" (done,
// answered 202 until SettleAccepted), "hang" (done, answered only after Release). "" is normal.
func (s *Server) SetMode(path, mode string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modes[path] = mode
}

// SettleAccepted settles every call answered 202: asked again under its key, it answers 200.
func (s *Server) SettleAccepted() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, v := range s.accepted {
		s.accepted[k] = stored{http.StatusOK, v.body}
	}
}

// Release answers every call held by the "hang" mode.
func (s *Server) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.release)
	s.release = make(chan struct{})
}

// ExpireAuthorizations makes every authorization so far unusable: captures on them are declined
// with authorization_expired.
func (s *Server) ExpireAuthorizations() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.auths {
		a.Expired = true
	}
}

// Totals sums what the gateway captured and refunded over every authorization.
func (s *Server) Totals() (captured, refunded int64) {
	for _, a := range s.Auths() {
		captured += a.Captured
		refunded += a.Refunded
	}
	return captured, refunded
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// Calls returns the calls received on path ("" for every path), oldest first.
func (s *Server) Calls(path string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if path == "" || c.Path == path {
			out = append(out, c)
		}
	}
	return out
}

// Auths returns copies of every authorization granted, voided or not.
func (s *Server) Auths() []Auth {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Auth, 0, len(s.auths))
	for _, a := range s.auths {
		out = append(out, *a)
	}
	return out
}

// OpenAuths returns the authorizations that are neither voided nor captured.
func (s *Server) OpenAuths() []Auth {
	var out []Auth
	for _, a := range s.Auths() {
		if !a.Voided && a.Captured == 0 {
			out = append(out, a)
		}
	}
	return out
}
