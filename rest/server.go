// Package rest serves the documented REST API: routing, auth, decoding, status codes and error
// bodies. Every decision is the service's.
package rest

import (
	"context"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
)

// MaxBodyBytes is the largest request body accepted.
const MaxBodyBytes = 1 << 20

// API is the REST front door.
type API struct {
	svc *service.Service
	mux *http.ServeMux
}

// Register adds the REST routes to mux.
func Register(mux *http.ServeMux, svc *service.Service) {
	a := &API{svc: svc, mux: mux}
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", a.readyz)
	mux.Handle("GET /shops/v1/info", a.withToken(a.shopInfo))
	// Anything no route matches still answers in the error envelope.
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, r, &service.Error{Status: http.StatusNotFound, Code: service.CodeNotFound, Type: "route.not_found", Message: "no such endpoint: " + r.Method + " " + r.URL.Path})
	})
	a.registerStoreConfig(mux)
	a.registerIntegration(mux)
	a.registerWebhooks(mux)
	a.registerPaymentGateways(mux)
	a.registerFlows(mux)
	a.registerAPIOverrides(mux)
	a.registerGiftCards(mux)
	a.registerOrders(mux)
	a.registerPayments(mux)
	a.registerMoney(mux)
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

var versionDate = regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$`)

// Common wraps every API call: a request log line, the body limit and the version-date header.
func Common(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		w = rec
		// The path and status only: query strings and headers may carry tokens.
		defer func() {
			slog.DebugContext(r.Context(), "request", "method", r.Method, "path", r.URL.Path, "status", rec.status, "duration", time.Since(start))
		}()
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		if r.ContentLength > MaxBodyBytes {
			writeError(w, r, &service.Error{Status: http.StatusRequestEntityTooLarge, Code: service.CodeBodyTooLarge, Type: "request.body_too_large", Message: "request body is larger than 1 MiB"})
			return
		}
		for _, h := range []string{"Service-API-Version-Date", "Bold-API-Version-Date"} {
			if v := r.Header.Get(h); v != "" && !versionDate.MatchString(v) {
				writeError(w, r, &service.Error{Status: http.StatusBadRequest, Code: service.CodeBadRequest, Type: "request.invalid_version_date",
					Message: h + " must be a date in the form YYYY-MM-DD", Details: map[string]any{"header": h}})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
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

// withShop authenticates the access token against the shop named in the path.
func (a *API) withShop(h shopHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sh, err := a.svc.AuthenticateShop(r.Context(), r.PathValue("shop"), bearerToken(r))
		if err != nil {
			writeError(w, r, err)
			return
		}
		h(w, r, sh)
	})
}

// withToken authenticates the access token alone, for calls that find the shop from it.
func (a *API) withToken(h shopHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sh, err := a.svc.ShopForToken(r.Context(), bearerToken(r))
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
