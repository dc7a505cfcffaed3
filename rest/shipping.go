package rest

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerShipping(mux router) {
	const storefront = "/checkout/storefront/{shop}/{order}"
	mux.Handle("GET "+storefront+"/shipping_lines", a.withOrder(a.shippingLines))
	mux.Handle("POST "+storefront+"/shipping_lines", a.withOrder(a.selectShippingLine))
	mux.Handle("POST "+storefront+"/shipping_lines/estimate", a.withOrder(a.estimateShippingLines))
}

// shippingLines answers the order's state with the shipping lines it is offered now: under the
// shop's remote state authority, those it answers get_shipping_lines with.
func (a *API) shippingLines(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	v, err := a.svc.Orders.ShippingLines(r.Context(), sess)
	writeOrderData(w, r, v, err, nil)
}

func (a *API) selectShippingLine(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in struct {
		Index json.RawMessage `json:"index"`
		Code  string          `json:"code"`
	}
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	// index holds a line's id (a string) or its position (a number).
	index := strings.Trim(strings.TrimSpace(string(in.Index)), `"`)
	if index == "null" {
		index = ""
	}
	v, err := a.svc.Orders.SelectShippingLine(r.Context(), sess, index, in.Code)
	writeOrderData(w, r, v, err, nil)
}

// estimateShippingLines answers the lines an address (the body) would get; the order is unchanged.
func (a *API) estimateShippingLines(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in orders.AddressInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	lines, v, err := a.svc.Orders.EstimateShippingLines(r.Context(), sess, in)
	writeOrderData(w, r, v, err, func(orders.ApplicationState) map[string]any {
		return map[string]any{"shipping_lines": lines}
	})
}
