package rest

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerPayments(mux router) {
	const storefront = "/checkout/storefront/{shop}/{order}"
	mux.Handle("GET "+storefront+"/payments", a.withOrder(a.listPayments))
	mux.Handle("POST "+storefront+"/payments", a.withOrder(a.changePayment(a.svc.Orders.AddPayment)))
	mux.Handle("PUT "+storefront+"/payments", a.withOrder(a.changePayment(a.svc.Orders.UpdatePayment)))
	mux.Handle("DELETE "+storefront+"/payments", a.withOrder(a.changePayment(a.svc.Orders.RemovePayment)))
	mux.Handle("DELETE "+storefront+"/payments/gift_card", a.withOrder(a.changePayment(a.svc.Orders.RemovePayment)))
	mux.Handle("POST "+storefront+"/process_order", a.withOrder(a.processOrder))
	mux.Handle("POST /checkout/orders/{shop}/{order}/payments/auth/full", a.withBackendOrder(a.authorizePayments))
}

func withPayments(s orders.ApplicationState) map[string]any {
	return map[string]any{"payments": s.Payments}
}

func (a *API) listPayments(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	v, err := a.svc.Orders.SessionState(r.Context(), sess)
	writeOrderData(w, r, v, err, withPayments)
}

type paymentChange func(ctx context.Context, sess *orders.OrderSession, in orders.PaymentInput) (*orders.OrderView, error)

func (a *API) changePayment(change paymentChange) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		var in orders.PaymentInput
		if err := decode(r, &in); err != nil {
			writeError(w, r, err)
			return
		}
		v, err := change(r.Context(), sess, in)
		writeOrderData(w, r, v, err, withPayments)
	}
}

// processOrder answers 200 with the processed order, or 202 when a gateway asks the shopper to
// act first (the frontend library treats 202 as such).
func (a *API) processOrder(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in struct{}
	raw, err := readBody(r, &in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	idempotent(a, w, r, sess, raw, func(ctx context.Context, _ string) (*processed, error) {
		res, err := a.svc.Checkout.ProcessOrder(ctx, sess)
		if err != nil {
			return nil, err
		}
		state, err := json.Marshal(res.View.State())
		p := &processed{State: state, final: res.Final()}
		if res.RequiresAction != nil {
			p.RequiresAction = map[string]any{"payment_id": res.RequiresAction.PublicID, "gateway_public_id": res.RequiresAction.GatewayPublicID}
		}
		return p, err
	}, func(p *processed) (int, any) {
		if p.RequiresAction != nil {
			return http.StatusAccepted, map[string]any{"application_state": p.State, "requires_action": p.RequiresAction}
		}
		return http.StatusOK, map[string]any{"application_state": p.State}
	})
}

// processed is process_order's result as REST answers it. The application state is kept as its
// JSON: its open fields (addresses, shipping lines) hold structs, whose field order a decoded
// map would not keep.
type processed struct {
	State          json.RawMessage `json:"application_state"`
	RequiresAction map[string]any  `json:"requires_action"`
	final          bool
}

// Final is the service's: a result that asks the shopper to act is not kept.
func (p *processed) Final() bool { return p.final }

func (a *API) authorizePayments(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in struct{}
	raw, err := readBody(r, &in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	idempotent(a, w, r, sess, raw, func(ctx context.Context, _ string) (*checkout.AuthorizeResult, error) {
		return a.svc.Checkout.AuthorizePayments(ctx, sess)
	}, func(res *checkout.AuthorizeResult) (int, any) { return http.StatusOK, res })
}
