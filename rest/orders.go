package rest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerOrders(mux router) {
	mux.Handle("POST /checkout/orders/{shop}/init", a.withShop(a.initOrder))
	mux.Handle("POST /checkout/orders/{shop}/resume", a.withShop(a.resumeOrder))
	const storefront = "/checkout/storefront/{shop}/{order}"
	mux.Handle("OPTIONS /checkout/storefront/{shop}/", a.storefrontCORS(http.HandlerFunc(a.preflight)))
	// Without it the router answers OPTIONS of the bare shop path with a redirect to the one
	// above, in HTML.
	mux.HandleFunc("OPTIONS /checkout/storefront/{shop}", routeNotFound)
	mux.Handle("GET "+storefront+"/refresh", a.withOrder(a.refresh))
	a.registerOrderCustomer(mux)
	a.registerOrderItems(mux)
	a.registerShipping(mux)
	a.registerTaxes(mux)
	a.registerDiscounts(mux)
	a.registerInventoryCheck(mux)
	a.registerPaymentIframe(mux)
	a.registerWalletPay(mux)
	mux.Handle("POST "+storefront+"/batch", a.withOrder(a.batch))
	mux.Handle("POST "+storefront+"/log", a.withOrder(a.clientLog))
}

type orderHandler func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession)

// orderJWT takes the storefront token as "Bearer <jwt>", as a bare "<jwt>" (the spec's form), or
// from ?token= for the payment iframe.
func orderJWT(r *http.Request) string {
	h := strings.TrimSpace(r.Header.Get("Authorization"))
	if len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:])
	}
	if h != "" {
		return h
	}
	return r.URL.Query().Get("token")
}

// withOrder refuses a body not sent as JSON (after the CORS headers, so a browser can read the
// refusal), then authenticates the order JWT against the shop and order in the path.
func (a *API) withOrder(h orderHandler) http.Handler {
	a.serving(h)
	return a.storefrontCORS(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := requireJSONBody(r); err != nil {
			writeError(w, r, err)
			return
		}
		sess, err := a.svc.Orders.AuthenticateOrder(r.Context(), r.PathValue("shop"), r.PathValue("order"), orderJWT(r))
		if err != nil {
			writeError(w, r, err)
			return
		}
		h(w, r, sess)
	}))
}

func (a *API) writeOrderWithInitialData(w http.ResponseWriter, r *http.Request, v *orders.OrderView) {
	initial, err := a.svc.Orders.InitialData(r.Context(), v)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The envelope is put together here: handed to encoding/json whole, the initial data's
	// pre-encoded country list would be scanned again on every answer.
	initialParts, err := initial.JSONParts()
	if err != nil {
		writeError(w, r, err)
		return
	}
	rest, err := json.Marshal(map[string]any{
		"public_order_id":   v.Order.PublicOrderID,
		"jwt_token":         v.JWT,
		"application_state": v.State(),
		"vaulting_enabled":  false,
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	parts := append(append([][]byte{[]byte(`{"data":{"initial_data":`)}, initialParts...), []byte(","), rest[1:], []byte("}\n"))
	length := 0
	for _, part := range parts {
		length += len(part)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(length))
	w.WriteHeader(http.StatusOK)
	for _, part := range parts {
		if _, err := w.Write(part); err != nil {
			return
		}
	}
}

func (a *API) initOrder(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in orders.InitOrderInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.InitOrder(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.writeOrderWithInitialData(w, r, v)
}

func (a *API) resumeOrder(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body struct {
		PublicOrderID string `json:"public_order_id"`
	}
	if err := decode(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.ResumeOrder(r.Context(), sh, body.PublicOrderID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.writeOrderWithInitialData(w, r, v)
}

func (a *API) refresh(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	v, err := a.svc.Orders.SessionState(r.Context(), sess)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"application_state": v.State()})
}
