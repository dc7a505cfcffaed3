package rest

import (
	"context"
	"net/http"

	"github.com/checkoutd/checkoutd/service"
)

func (a *API) registerPayments(mux *http.ServeMux) {
	const storefront = "/checkout/storefront/{shop}/{order}"
	mux.Handle("GET "+storefront+"/payments", a.withOrder(a.listPayments))
	mux.Handle("POST "+storefront+"/payments", a.withOrder(a.changePayment(a.svc.AddPayment)))
	mux.Handle("PUT "+storefront+"/payments", a.withOrder(a.changePayment(a.svc.UpdatePayment)))
	mux.Handle("DELETE "+storefront+"/payments", a.withOrder(a.changePayment(a.svc.RemovePayment)))
	mux.Handle("DELETE "+storefront+"/payments/gift_card", a.withOrder(a.changePayment(a.svc.RemovePayment)))
	mux.Handle("POST "+storefront+"/process_order", a.withOrder(a.processOrder))
	mux.Handle("POST /checkout/orders/{shop}/{order}/payments/auth/full", a.withBackendOrder(a.authorizePayments))
}

func withPayments(s service.ApplicationState) map[string]any {
	return map[string]any{"payments": s.Payments}
}

func (a *API) listPayments(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
	v, err := a.svc.SessionState(r.Context(), sess)
	writeOrderData(w, r, v, err, withPayments)
}

type paymentChange func(ctx context.Context, sess *service.OrderSession, in service.PaymentInput) (*service.OrderView, error)

func (a *API) changePayment(change paymentChange) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
		var in service.PaymentInput
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
func (a *API) processOrder(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
	var in struct{}
	raw, err := readBody(r, &in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.idempotent(w, r, sess, raw, func(ctx context.Context, _ string) (int, any, error) {
		res, err := a.svc.ProcessOrder(ctx, sess)
		if err != nil {
			return 0, nil, err
		}
		body := map[string]any{"application_state": res.View.State()}
		if res.RequiresAction != nil {
			body["requires_action"] = map[string]any{"payment_id": res.RequiresAction.PublicID, "gateway_public_id": res.RequiresAction.GatewayPublicID}
			return http.StatusAccepted, body, nil
		}
		return http.StatusOK, body, nil
	})
}

func (a *API) authorizePayments(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
	var in struct{}
	raw, err := readBody(r, &in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.idempotent(w, r, sess, raw, func(ctx context.Context, _ string) (int, any, error) {
		res, err := a.svc.AuthorizePayments(ctx, sess)
		return http.StatusOK, res, err
	})
}
