package platformserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Version is the connector version this server answers: checkoutd calls
// {destination}/{version}/shops/{shop_identifier}/... with the destination's version.
const Version = "v1"

// AnyShop is the key of New's secrets map whose secret applies to every shop not named in it.
const AnyShop = "*"

// maxBody bounds a request body; an order with many lines is the largest.
const maxBody = 4 << 20

// Server is the reference connector server. It is an http.Handler that answers any path
// containing /v1/shops/{shop_identifier}/, so it can be served under any base path without
// http.StripPrefix: served at /platform/, checkoutd's destination URL is http://host/platform.
// All state is in memory; the zero value is not usable, call New.
type Server struct {
	secrets map[string][]byte
	now     func() time.Time
	log     *slog.Logger
	mux     *http.ServeMux

	mu       sync.Mutex
	shops    map[string]*shop
	tokens   map[string]tokenOwner
	calls    []Call
	failures []failure
	delay    time.Duration
	inFlight []string
}

// Option configures New.
type Option func(*Server)

// WithClock makes the server read the time from now: signature checks and the timestamps it
// assigns use it. Tests use it to sign calls at a fixed time.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithLogger makes the server log each call (method, path, status, whether the signature was
// valid) to l. Secrets, tokens and query strings (which may hold an email) are never logged.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// New returns a server that verifies each shop's calls with secrets[shop], or with
// secrets[AnyShop] for a shop not in the map. Calls for a shop with no secret are refused 401.
func New(secrets map[string][]byte, opts ...Option) *Server {
	s := &Server{
		secrets: make(map[string][]byte, len(secrets)),
		now:     time.Now,
		log:     slog.New(slog.DiscardHandler),
		shops:   map[string]*shop{},
		tokens:  map[string]tokenOwner{},
	}
	for k, v := range secrets {
		s.secrets[k] = append([]byte(nil), v...)
	}
	for _, o := range opts {
		o(s)
	}
	// Timestamps the server assigns are UTC and whole microseconds, the precision a database
	// such as PostgreSQL keeps, so that a stored platform_updated_at compares equal to the one
	// answered.
	now := s.now
	s.now = func() time.Time { return now().UTC().Truncate(time.Microsecond) }
	s.routes()
	return s
}

// Call is one call the server answered, as Calls reports it.
type Call struct {
	Time           time.Time
	Method         string
	Path           string // from /v1/shops/ on, without the query
	Shop           string
	Status         int
	IdempotencyKey string
	SignatureValid bool
}

// Calls returns every call answered so far, oldest first.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

type failure struct {
	suffix string
	status int
	n      int
	after  bool // do the work, then answer status: the answer is lost
}

// FailNext makes the next n signed calls whose path ends with path (e.g. "/customers", or
// "/v1/shops/demo/orders") answer status with an error body, without doing anything. Later
// rules for the same path wait until earlier ones are used up.
func (s *Server) FailNext(path string, status, n int) {
	s.addFailure(failure{suffix: path, status: status, n: n})
}

// DropNextAnswer makes the next n signed calls whose path ends with path do their work and then
// answer 502, as if the answer were lost on the way back. It is how a test sees that a retried
// order create under the same Idempotency-Key does not create a second order.
func (s *Server) DropNextAnswer(path string, n int) {
	s.addFailure(failure{suffix: path, status: http.StatusBadGateway, n: n, after: true})
}

func (s *Server) addFailure(f failure) {
	if f.n <= 0 {
		return
	}
	s.mu.Lock()
	s.failures = append(s.failures, f)
	s.mu.Unlock()
}

// InFlight are the calls being answered now ("POST /v1/shops/acme/orders"), for a test that
// must act while the platform holds one.
func (s *Server) InFlight() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.inFlight...)
}

func (s *Server) done(call string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, c := range s.inFlight {
		if c == call {
			s.inFlight = append(s.inFlight[:i], s.inFlight[i+1:]...)
			return
		}
	}
}

// SetDelay makes every later call wait d before it is answered (or until the caller gives up),
// to exercise checkoutd's timeout_ms.
func (s *Server) SetDelay(d time.Duration) {
	s.mu.Lock()
	s.delay = d
	s.mu.Unlock()
}

// takeFailure uses up one matching failure rule, if any.
func (s *Server) takeFailure(path string) (failure, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.failures {
		f := &s.failures[i]
		if strings.HasSuffix(path, f.suffix) {
			taken := *f
			if f.n--; f.n == 0 {
				s.failures = append(s.failures[:i], s.failures[i+1:]...)
			}
			return taken, true
		}
	}
	return failure{}, false
}

// statusWriter remembers the status for Calls and the log. With discard set it swallows the
// handler's answer so that DropNextAnswer can send its own.
type statusWriter struct {
	http.ResponseWriter
	status  int
	discard bool
	header  http.Header
}

func (w *statusWriter) Header() http.Header {
	if w.discard {
		return w.header
	}
	return w.ResponseWriter.Header()
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	if !w.discard {
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.discard {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// ServeHTTP checks the call's signature and User-Agent, applies the test switches, and answers.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrived := r.Method + " " + r.URL.Path
	if i := strings.Index(r.URL.Path, "/"+Version+"/shops/"); i >= 0 {
		arrived = r.Method + " " + r.URL.Path[i:]
	}
	s.mu.Lock()
	delay := s.delay
	s.inFlight = append(s.inFlight, arrived)
	s.mu.Unlock()
	defer s.done(arrived)
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		}
	}

	call := Call{Time: s.now(), Method: r.Method, Path: r.URL.Path, IdempotencyKey: r.Header.Get("Idempotency-Key")}
	sw := &statusWriter{ResponseWriter: w}
	defer func() { s.record(call, sw.status) }()

	i := strings.Index(r.URL.Path, "/"+Version+"/shops/")
	if i < 0 {
		writeError(sw, http.StatusNotFound, "not_found", "no such connector operation")
		return
	}
	call.Path = r.URL.Path[i:]
	call.Shop, _, _ = strings.Cut(strings.TrimPrefix(call.Path, "/"+Version+"/shops/"), "/")

	secret, ok := s.secrets[call.Shop]
	if !ok {
		secret, ok = s.secrets[AnyShop]
	}
	if !ok {
		writeError(sw, http.StatusUnauthorized, "unauthorized", "no shared secret for this shop")
		return
	}
	if err := Verify(r.Header, secret, s.now()); err != nil {
		writeError(sw, http.StatusUnauthorized, "unauthorized", err.Error())
		return
	}
	// checkoutd always names itself; a call without a User-Agent is not checkoutd's.
	if r.Header.Get("User-Agent") == "" {
		writeError(sw, http.StatusUnauthorized, "unauthorized", "User-Agent is required")
		return
	}
	call.SignatureValid = true

	f, failing := s.takeFailure(call.Path)
	if failing && !f.after {
		writeError(sw, f.status, "injected_failure", fmt.Sprintf("failing on purpose (FailNext %d)", f.status))
		return
	}
	r2 := r.Clone(context.WithValue(r.Context(), secretKey{}, secret))
	r2.URL.Path, r2.URL.RawPath = call.Path, ""
	r2.Body = http.MaxBytesReader(sw, r.Body, maxBody)
	if failing {
		sw.discard, sw.header = true, http.Header{}
		s.mux.ServeHTTP(sw, r2)
		sw.discard, sw.status = false, 0
		writeError(sw, f.status, "injected_failure", "answer dropped on purpose (DropNextAnswer)")
		return
	}
	s.mux.ServeHTTP(sw, r2)
}

type secretKey struct{}

func (s *Server) record(c Call, status int) {
	if status == 0 {
		status = http.StatusOK
	}
	c.Status = status
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
	s.log.Info("connector call", "method", c.Method, "path", c.Path, "status", c.Status, "signature_valid", c.SignatureValid)
}

func (s *Server) routes() {
	m := http.NewServeMux()
	const p = "/" + Version + "/shops/{shop}/"
	m.HandleFunc("GET "+p+"verification", s.verification)
	m.HandleFunc("GET "+p+"customers", s.listCustomers)
	m.HandleFunc("POST "+p+"customers", s.createCustomer)
	m.HandleFunc("PATCH "+p+"customers/{platform_id}", s.updateCustomer)
	m.HandleFunc("DELETE "+p+"customers/{platform_id}", s.deleteCustomer)
	m.HandleFunc("POST "+p+"customers/{platform_id}/validate", s.validateCustomerToken)
	m.HandleFunc("POST "+p+"customers/{platform_customer_id}/addresses", s.createAddress)
	m.HandleFunc("PATCH "+p+"customers/{platform_customer_id}/addresses/{platform_id}", s.updateAddress)
	m.HandleFunc("DELETE "+p+"customers/{platform_customer_id}/addresses/{platform_id}", s.deleteAddress)
	m.HandleFunc("GET "+p+"orders", s.listOrders)
	m.HandleFunc("POST "+p+"orders", s.createOrder)
	m.HandleFunc("GET "+p+"products", s.listProducts)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "no such connector operation")
	})
	s.mux = m
}

// verification answers Verify Platform Connector Destination. The answer is signed with the
// shop's secret so that checkoutd knows it reached a platform holding that secret, not just any
// server answering 200.
func (s *Server) verification(w http.ResponseWriter, r *http.Request) {
	secret, _ := r.Context().Value(secretKey{}).([]byte)
	Sign(w.Header(), secret, s.now())
	writeJSON(w, http.StatusOK, struct{}{})
}

// errorBody is the error shape of every non-2xx answer.
type errorBody struct {
	Errors []errorItem `json:"errors"`
}

type errorItem struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, errorBody{Errors: []errorItem{{Type: typ, Message: msg}}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// readData decodes a {data:{<name>:{...}}} body into dst. It answers 400 itself and reports
// false when the body is unreadable or the named member is missing.
func readData(w http.ResponseWriter, r *http.Request, name string, dst any) bool {
	var body struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	b, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large", "body too large")
			return false
		}
		writeError(w, http.StatusBadRequest, "bad_request", "unreadable body")
		return false
	}
	if err := json.Unmarshal(b, &body); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body is not JSON: "+err.Error())
		return false
	}
	raw, ok := body.Data[name]
	if !ok || string(raw) == "null" {
		writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("body must be {\"data\":{%q:{...}}}", name))
		return false
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "data."+name+": "+err.Error())
		return false
	}
	return true
}

func notFound(w http.ResponseWriter, what string) {
	writeError(w, http.StatusNotFound, "not_found", what+" not found")
}
