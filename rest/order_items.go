package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerOrderItems(mux router) {
	for _, prefix := range []string{"/checkout/storefront/{shop}/{order}", "/checkout/orders/{shop}/{order}"} {
		wrap := a.withOrder
		if prefix == "/checkout/orders/{shop}/{order}" {
			wrap = a.withBackendOrder
		}
		mux.Handle("POST "+prefix+"/items", wrap(a.addItem))
		mux.Handle("PUT "+prefix+"/items", wrap(a.updateItemQuantity))
		mux.Handle("DELETE "+prefix+"/items", wrap(a.deleteItem))
		mux.Handle("PATCH "+prefix+"/meta_data", wrap(a.patchMetaData))
	}
	mux.Handle("PATCH /checkout/orders/{shop}/{order}/line_items", a.withBackendOrder(a.fulfillLines))
	mux.Handle("PATCH /checkout/orders/{shop}/{order}/line_items/{key}", a.withBackendOrder(a.fulfillLine))
}

// lineAndState answers the changed line (when it still exists) with the order state.
func lineAndState(key string) func(orders.ApplicationState) map[string]any {
	return func(s orders.ApplicationState) map[string]any {
		out := map[string]any{}
		for _, li := range s.LineItems {
			if li.ProductData.LineItemKey == key {
				out["line_item"] = li
			}
		}
		return out
	}
}

func (a *API) addItem(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in orders.CartItem
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.AddLineItem(r.Context(), sess, in)
	writeOrderData(w, r, v, err, lineAndState(in.LineItemKey))
}

type itemRequest struct {
	LineItemKey string `json:"line_item_key"`
	Quantity    *int   `json:"quantity"`
}

func (a *API) updateItemQuantity(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in itemRequest
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.UpdateLineItemQuantity(r.Context(), sess, in.LineItemKey, in.Quantity)
	writeOrderData(w, r, v, err, lineAndState(in.LineItemKey))
}

func (a *API) deleteItem(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in itemRequest
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.DeleteLineItem(r.Context(), sess, in.LineItemKey)
	writeOrderData(w, r, v, err, func(s orders.ApplicationState) map[string]any {
		return map[string]any{"line_items": s.LineItems}
	})
}

func (a *API) patchMetaData(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in orders.MetaDataPatch
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.PatchOrderMetaData(r.Context(), sess, in)
	writeOrderData(w, r, v, err, nil)
}

func (a *API) fulfillLines(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in struct {
		LineItems []orders.FulfilledQuantity `json:"line_items"`
	}
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.SetFulfilledQuantities(r.Context(), sess, in.LineItems)
	writeOrderData(w, r, v, err, func(s orders.ApplicationState) map[string]any {
		return map[string]any{"line_items": s.LineItems}
	})
}

func (a *API) fulfillLine(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in struct {
		FulfilledQuantity int `json:"fulfilled_quantity"`
	}
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	key := r.PathValue("key")
	v, err := a.svc.Orders.SetFulfilledQuantities(r.Context(), sess, []orders.FulfilledQuantity{{LineItemKey: key, FulfilledQuantity: in.FulfilledQuantity}})
	writeOrderData(w, r, v, err, lineAndState(key))
}
