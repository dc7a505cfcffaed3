package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerDiscounts(mux router) {
	const storefront = "/checkout/storefront/{shop}/{order}"
	mux.Handle("POST "+storefront+"/discounts", a.withOrder(a.applyDiscount))
	mux.Handle("DELETE "+storefront+"/discounts", a.withOrder(a.removeDiscount))
	mux.Handle("GET "+storefront+"/validate_discount_code", a.withOrder(a.validateDiscount))
}

type discountBody struct {
	Code string `json:"code"`
}

func withDiscounts(s orders.ApplicationState) map[string]any {
	return map[string]any{"discounts": s.Discounts}
}

func (a *API) applyDiscount(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in discountBody
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.ApplyDiscountCode(r.Context(), sess, in.Code)
	writeOrderData(w, r, v, err, withDiscounts)
}

func (a *API) removeDiscount(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in discountBody
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.RemoveDiscountCode(r.Context(), sess, in.Code)
	writeOrderData(w, r, v, err, withDiscounts)
}

func (a *API) validateDiscount(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	check, err := a.svc.Orders.ValidateDiscountCode(r.Context(), sess, r.URL.Query().Get("discount_code"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{
		"valid":             true,
		"discount_code":     map[string]any{"code": check.Code.Code, "text": check.Code.Text, "kind": check.Code.Kind},
		"application_state": check.View.State(),
	})
}
