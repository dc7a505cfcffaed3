package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerInventoryCheck(mux router) {
	mux.Handle("GET /checkout/storefront/{shop}/{order}/check_inventory", a.withOrder(a.checkInventory))
}

// checkInventory answers {inventory_check:{result, reason?, failed_items}, application_state}.
func (a *API) checkInventory(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	check, v, err := a.svc.Orders.CheckInventory(r.Context(), sess, r.URL.Query().Get("stage"))
	writeOrderData(w, r, v, err, func(orders.ApplicationState) map[string]any {
		return map[string]any{"inventory_check": check}
	})
}
