package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerWalletPay(mux router) {
	const storefront = "/checkout/storefront/{shop}/{order}"
	for _, step := range []string{orders.WalletPayCreateOrder, orders.WalletPayOnShipping, orders.WalletPayOnApprove} {
		mux.Handle("POST "+storefront+"/wallet_pay/"+step, a.withOrder(a.walletPay(step)))
	}
	mux.Handle("DELETE "+storefront+"/payments/saved/{id}", a.withOrder(a.deleteSavedPaymentMethod))
}

func (a *API) walletPay(step string) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		var in orders.WalletPayInput
		if err := decode(r, &in); err != nil {
			writeError(w, r, err)
			return
		}
		paymentData, v, err := a.svc.Orders.WalletPay(r.Context(), sess, step, in)
		writeOrderData(w, r, v, err, func(orders.ApplicationState) map[string]any {
			return map[string]any{"payment_data": paymentData}
		})
	}
}

func (a *API) deleteSavedPaymentMethod(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	v, err := a.svc.Orders.DeleteSavedPaymentMethod(r.Context(), sess, r.PathValue("id"))
	writeOrderData(w, r, v, err, nil)
}
