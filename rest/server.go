// Package rest serves the documented REST API: routing, auth, decoding, status codes and error
// bodies. Every decision is the service's.
package rest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/docs"
	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// MaxBodyBytes is the largest request body accepted.
const MaxBodyBytes = 1 << 20

// API is the REST front door.
type API struct {
	svc *service.Service
	mux *http.ServeMux
	// serves, set by Routes only, hears each handler as a with... wrapper takes it.
	serves func(handler any)
}

// Register adds the REST routes to mux.
func Register(mux *http.ServeMux, svc *service.Service) {
	a := &API{svc: svc, mux: mux}
	a.register(mux)
}

// router is what routes are registered with: the server's mux, or a routeList.
type router interface {
	Handle(pattern string, handler http.Handler)
	HandleFunc(pattern string, handler func(http.ResponseWriter, *http.Request))
}

// Route is a route Register adds.
type Route struct {
	// Pattern is the method and path pattern.
	Pattern string
	// Handler names the function that serves it: an *API method (the handler, or the method that
	// made it: putAddress for a.putAddress(kind, false)) or a function of the package; empty when
	// a handler is registered without a with... wrapper (preflight).
	Handler string
	// Registered is the file and line of the call that registers it, where a handler shared by
	// several routes is handed what tells them apart (changePayment(a.svc.Orders.AddPayment)).
	Registered string
}

// routeList keeps the routes registered with it, each with the first handler a with... wrapper
// took since the route before (withBackendOrder's own inner handler comes after the one it wraps).
type routeList struct {
	routes  []Route
	handler string
}

func (l *routeList) serves(h any) {
	if l.handler == "" {
		l.handler = funcName(h)
	}
}

func (l *routeList) Handle(pattern string, _ http.Handler) { l.add(pattern) }

func (l *routeList) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	l.serves(h)
	l.add(pattern)
}

func (l *routeList) add(pattern string) {
	_, file, line, _ := runtime.Caller(2)
	l.routes = append(l.routes, Route{Pattern: pattern, Handler: l.handler, Registered: filepath.Base(file) + ":" + strconv.Itoa(line)})
	l.handler = ""
}

// funcName is the name of the function f is, or that made it: readyz for a.readyz, putAddress for
// the closure a.putAddress returns, routeNotFound. The runtime names that closure
// rest.(*API).putAddress.func1, or rest.(*API).registerOrderCustomer.(*API).putAddress.func1 once
// putAddress is inlined where it is called: the last method named is the one.
func funcName(f any) string {
	name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	name = name[strings.LastIndex(name, "/")+1:]
	if i := strings.LastIndex(name, "(*API)."); i >= 0 {
		name = name[i+len("(*API)."):]
	} else {
		name = strings.TrimPrefix(name, "rest.")
	}
	name, _, _ = strings.Cut(name, ".")
	name, _, _ = strings.Cut(name, "-")
	return name
}

// Routes are the routes Register adds to a mux, in the order it adds them, with what serves
// them: what a test holds the API against (GraphQL's counterpart of every order route, for one).
func Routes(svc *service.Service) []Route {
	var l routeList
	(&API{svc: svc, serves: l.serves}).register(&l)
	return l.routes
}

// serving tells Routes which handler the route being registered runs.
func (a *API) serving(h any) {
	if a.serves != nil {
		a.serves(h)
	}
}

func (a *API) register(mux router) {
	// /livez is Kubernetes' current name for the liveness check, /healthz its older one.
	alive := func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	}
	mux.HandleFunc("GET /healthz", alive)
	mux.HandleFunc("GET /livez", alive)
	mux.HandleFunc("GET /readyz", a.readyz)
	mux.Handle("GET /shops/v1/info", a.withToken(a.shopInfo))
	mux.HandleFunc("GET /openapi.yaml", openAPIDocument)
	// Anything no route matches still answers in the error envelope.
	mux.HandleFunc("/", routeNotFound)
	a.registerStoreConfig(mux)
	a.registerIntegration(mux)
	a.registerSettings(mux)
	a.registerDestinations(mux)
	a.registerNotifications(mux)
	a.registerSyncs(mux)
	a.registerCustomers(mux)
	a.registerProductReads(mux)
	a.registerWebhooks(mux)
	a.registerPaymentGateways(mux)
	a.registerFlows(mux)
	a.registerAPIOverrides(mux)
	a.registerGiftCards(mux)
	a.registerOrders(mux)
	a.registerPayments(mux)
	a.registerMoney(mux)
	a.registerSubscriptions(mux)
}

// openAPIDocument serves docs/openapi.yaml, the description every REST test holds the API to.
func openAPIDocument(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(docs.OpenAPI)
}

func routeNotFound(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, &problem.Error{Kind: problem.NotFound, Code: problem.CodeNotFound, Type: "route.not_found", Message: "no such endpoint: " + r.Method + " " + r.URL.Path})
}

func (a *API) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := a.svc.Ready(ctx); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "database unavailable"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// HeaderRequestID carries a request's id: kept when the caller sends a usable one, made when
// not, and answered back.
const HeaderRequestID = "X-Request-Id"

// requestID is the caller's id when it is 1 to 128 characters of letters, digits, '.', '_' and
// '-' (it goes into logs as it is), else a new one.
func requestID(sent string) string {
	if len(sent) == 0 || len(sent) > 128 {
		return platform.NewPublicID()
	}
	for _, c := range sent {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return platform.NewPublicID()
		}
	}
	return sent
}

// Common wraps every call: its request id, a request log line, the body limit, the canonical
// path and the version-date header.
func Common(next http.Handler) http.Handler { return CommonMeasured(next, nil) }

// CommonMeasured is Common, each request counted and timed in m (nil: not) by the pattern
// next, a ServeMux, matched.
func CommonMeasured(next http.Handler, m *HTTPMetrics) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r.Header.Get(HeaderRequestID))
		w.Header().Set(HeaderRequestID, id)
		r = r.WithContext(platform.WithRequestID(r.Context(), id))
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		w = rec
		// The path and status only: query strings and headers may carry tokens.
		// The mux sets r.Pattern on the request it is given, which is r.
		defer func() {
			took := time.Since(start)
			m.observe(r.Pattern, r.Method, rec.status, took)
			slog.DebugContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path, "status", rec.status, "duration", took)
		}()
		raw := r.Body
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		// A refused body's rest is read and dropped before the answer goes: see drainRefusedBody.
		defer func() {
			if rec.status == http.StatusRequestEntityTooLarge {
				drainRefusedBody(rec.ResponseWriter, r, raw)
			}
		}()
		if r.ContentLength > MaxBodyBytes {
			writeError(w, r, errBodyTooLarge)
			return
		}
		// The router would answer these itself, in plain text or HTML: CONNECT with a 404, and a
		// path that is not canonical with a redirect to the cleaned path.
		if r.Method == http.MethodConnect {
			writeError(w, r, &problem.Error{Kind: problem.NotAllowed, Code: codeMethodNotAllowed, Type: "request.method_not_allowed", Message: "CONNECT is not served"})
			return
		}
		if p := r.URL.EscapedPath(); canonicalPath(p) != p {
			writeError(w, r, errNonCanonicalPath)
			return
		}
		for _, h := range []string{"Service-API-Version-Date", "Bold-API-Version-Date"} {
			if v := r.Header.Get(h); v != "" && !isDate(v) {
				writeError(w, r, &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "request.invalid_version_date",
					Message: h + " must be a date in the form YYYY-MM-DD", Details: map[string]any{"header": h}})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// isDate reports whether v is a calendar date written YYYY-MM-DD (2022-02-31 is not one).
func isDate(v string) bool {
	_, err := time.Parse(time.DateOnly, v)
	return err == nil
}

// canonicalPath is p as the router cleans it before matching: rooted, without dot segments or
// empty segments, keeping a trailing slash.
func canonicalPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	clean := path.Clean(p)
	if strings.HasSuffix(p, "/") && clean != "/" {
		clean += "/"
	}
	return clean
}

var errNonCanonicalPath = &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "request.non_canonical_path",
	Message: "the path is not in canonical form: it has a . or .. segment or an empty segment (//)"}

// MaxDrainBytes bounds how much of a body refused with 413 is read and dropped, and
// drainTimeout how long that may take.
const (
	MaxDrainBytes = 8 << 20
	drainTimeout  = 5 * time.Second
)

// drainRefusedBody reads and drops what is left of a body refused as too large, up to
// MaxDrainBytes and for at most drainTimeout, before the 413 goes out (it waits in the
// response's buffer). Closing the connection while the client is still sending would reset it,
// and the client would see ECONNRESET instead of the 413: a reverse proxy's lingering close does
// the same. A body declared larger than that is not waited for.
func drainRefusedBody(w http.ResponseWriter, r *http.Request, body io.ReadCloser) {
	if body == nil || body == http.NoBody || r.ContentLength > MaxBodyBytes+MaxDrainBytes {
		return
	}
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Now().Add(drainTimeout)); err != nil {
		return // not a connection this process reads (a test recorder)
	}
	_, _ = io.CopyN(io.Discard, body, MaxDrainBytes)
	_ = rc.SetReadDeadline(time.Time{})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func bearerToken(r *http.Request) string {
	h := r.Header.Get("Authorization")
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	return ""
}

type shopHandler func(w http.ResponseWriter, r *http.Request, sh *ent.Shop)

// withShop refuses a body not sent as JSON, then authenticates the access token against the
// shop named in the path.
func (a *API) withShop(h shopHandler) http.Handler { return a.withShopAnswering(writeError, h) }

// withShopAnswering is withShop answering its refusals with fail: for the routes whose spec
// shapes their errors another way.
func (a *API) withShopAnswering(fail func(http.ResponseWriter, *http.Request, error), h shopHandler) http.Handler {
	a.serving(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := requireJSONBody(r); err != nil {
			fail(w, r, err)
			return
		}
		sh, err := a.svc.Shops.AuthenticateShop(r.Context(), r.PathValue("shop"), bearerToken(r))
		if err != nil {
			fail(w, r, err)
			return
		}
		h(w, r, sh)
	})
}

// withToken refuses a body not sent as JSON, then authenticates the access token alone, for
// calls that find the shop from it.
func (a *API) withToken(h shopHandler) http.Handler {
	a.serving(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := requireJSONBody(r); err != nil {
			writeError(w, r, err)
			return
		}
		sh, err := a.svc.Shops.ShopForToken(r.Context(), bearerToken(r))
		if err != nil {
			writeError(w, r, err)
			return
		}
		h(w, r, sh)
	})
}

func (a *API) shopInfo(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	writeData(w, map[string]any{
		"shop_identifier": sh.Identifier,
		"shop_domain":     sh.Domain,
		"shop_name":       sh.Name,
		"platform_type":   sh.PlatformType,
		"currency":        sh.Currency,
	})
}
