package rest

import (
	"net/http"
)

const (
	corsAllowMethods = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
	corsAllowHeaders = "Authorization, Content-Type, Idempotency-Key, X-Requested-With"
)

// storefrontCORS answers browser calls only for origins on the shop's allowlist: the exact origin
// is echoed (never *), with credentials, since the frontend library sends them.
func (a *API) storefrontCORS(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin != "" && a.originAllowed(r, origin) {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Credentials", "true")
			h.Add("Vary", "Origin")
		}
		next.ServeHTTP(w, r)
	})
}

func (a *API) originAllowed(r *http.Request, origin string) bool {
	ok, err := a.svc.Shops.OriginAllowed(r.Context(), r.PathValue("shop"), origin)
	return err == nil && ok
}

// preflight answers OPTIONS for storefront paths; an origin off the allowlist gets no CORS
// headers, which the browser reads as a refusal.
func (a *API) preflight(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && a.originAllowed(r, origin) {
		h := w.Header()
		h.Set("Access-Control-Allow-Methods", corsAllowMethods)
		h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
		h.Set("Access-Control-Max-Age", "600")
	}
	w.WriteHeader(http.StatusNoContent)
}
