package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerTaxes(mux router) {
	const storefront = "/checkout/storefront/{shop}/{order}"
	mux.Handle("POST "+storefront+"/taxes", a.withOrder(a.generateTaxes))
	mux.Handle("POST /checkout/orders/{shop}/{order}/taxes", a.withBackendOrder(a.generateTaxes))
	mux.Handle("POST "+storefront+"/taxes/estimate", a.withOrder(a.estimateTaxes))
}

func withTaxes(s orders.ApplicationState) map[string]any {
	return map[string]any{"taxes": s.Taxes}
}

func (a *API) generateTaxes(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	v, err := a.svc.Orders.GenerateTaxes(r.Context(), sess)
	writeOrderData(w, r, v, err, withTaxes)
}

func (a *API) estimateTaxes(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in orders.AddressInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	est, err := a.svc.Orders.EstimateTaxes(r.Context(), sess, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{
		"address":           est.Basis,
		"taxes":             est.Taxes,
		"tax_total":         est.TaxTotal,
		"estimated_total":   est.Total,
		"application_state": est.View.State(),
	})
}
