package rest

import (
	"encoding/json"
	"net/http"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/platformorders"
	"github.com/checkoutd/checkoutd/service/problem"
)

// registerNotifications serves the platform's event notifications (API.md "Event
// notifications"): each is checked, queued and answered 202 with an empty body; a worker
// applies it. The spec leaves their authentication open: the shop's access token.
func (a *API) registerNotifications(mux router) {
	const customersBase = "/customers/v1/shops/{shop}/platforms/custom/webhooks/customers"
	mux.Handle("POST "+customersBase+"/saved", a.withShop(a.customerSaved))
	mux.Handle("POST "+customersBase+"/deleted", a.withShop(a.customerDeleted))
	const productsBase = "/products/v1/shops/{shop}/platforms/custom/webhooks"
	mux.Handle("POST "+productsBase+"/products/saved", a.withShop(a.productSaved))
	mux.Handle("POST "+productsBase+"/products/deleted", a.withShop(a.productDeleted))
	mux.Handle("POST "+productsBase+"/categories/saved", a.withShop(a.categorySaved))
	mux.Handle("POST "+productsBase+"/categories/deleted", a.withShop(a.categoryDeleted))
	const ordersBase = "/orders/v1/shops/{shop}/platforms/custom/webhooks/orders"
	mux.Handle("POST "+ordersBase+"/saved", a.withShop(a.orderSaved))
	mux.Handle("POST "+ordersBase+"/deleted", a.withShop(a.orderDeleted))
}

func (a *API) orderSaved(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	notification(w, r, "order", func(raw json.RawMessage) error { return a.svc.PlatformOrders.OrderSaved(r.Context(), sh, raw) })
}

func (a *API) orderDeleted(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	notification(w, r, "order", func(in platformorders.Deleted) error { return a.svc.PlatformOrders.OrderDeleted(r.Context(), sh, in) })
}

// notification decodes {data:{<key>: ...}} into v, answers a refusal, or queues it through apply
// and answers 202.
func notification[T any](w http.ResponseWriter, r *http.Request, key string, apply func(T) error) {
	var body struct {
		Data map[string]*T `json:"data"`
	}
	if err := decodeNotification(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	v := body.Data[key]
	if v == nil {
		writeError(w, r, missing("data."+key))
		return
	}
	if err := apply(*v); err != nil {
		writeError(w, r, err)
		return
	}
	accepted(w)
}

func (a *API) productSaved(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	notification(w, r, "product", func(in catalog.ConnectorProduct) error { return a.svc.Catalog.ProductSaved(r.Context(), sh, in) })
}

func (a *API) productDeleted(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	notification(w, r, "product", func(in catalog.DeletedInput) error { return a.svc.Catalog.ProductDeleted(r.Context(), sh, in) })
}

func (a *API) categorySaved(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	notification(w, r, "category", func(in catalog.ConnectorCategory) error { return a.svc.Catalog.CategorySaved(r.Context(), sh, in) })
}

func (a *API) categoryDeleted(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	notification(w, r, "category", func(in catalog.DeletedInput) error { return a.svc.Catalog.CategoryDeleted(r.Context(), sh, in) })
}

// decodeNotification reads a notification's body. A body of the wrong shape is a 400, as the
// spec answers every invalid notification.
func decodeNotification(r *http.Request, v any) error {
	err := decode(r, v)
	if pe, ok := problem.As(err); ok && pe.Kind == problem.Invalid {
		rejected := *pe
		rejected.Kind, rejected.Code = problem.Rejected, problem.CodeBadRequest
		return &rejected
	}
	return err
}

func missing(field string) *problem.Error {
	return &problem.Error{Kind: problem.Rejected, Code: problem.CodeBadRequest, Type: "notification.invalid",
		Message: field + " is required", Details: map[string]any{"field": field}}
}

func accepted(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) }

func (a *API) customerSaved(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body struct {
		Data struct {
			Customer *customers.CustomerInput `json:"customer"`
		} `json:"data"`
	}
	if err := decodeNotification(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Data.Customer == nil {
		writeError(w, r, missing("data.customer"))
		return
	}
	if err := a.svc.Customers.CustomerSaved(r.Context(), sh, *body.Data.Customer); err != nil {
		writeError(w, r, err)
		return
	}
	accepted(w)
}

func (a *API) customerDeleted(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body struct {
		Data struct {
			Customer *customers.DeletedInput `json:"customer"`
		} `json:"data"`
	}
	if err := decodeNotification(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Data.Customer == nil {
		writeError(w, r, missing("data.customer"))
		return
	}
	if err := a.svc.Customers.CustomerDeleted(r.Context(), sh, *body.Data.Customer); err != nil {
		writeError(w, r, err)
		return
	}
	accepted(w)
}

// registerSyncs serves the sync triggers (API.md "Destinations and syncs").
func (a *API) registerSyncs(mux router) {
	mux.Handle("POST /customers/v2/shops/{shop}/sync", a.withShop(a.syncTopic(destination.TopicCustomers)))
	mux.Handle("POST /products/v2/shops/{shop}/sync", a.withShop(a.syncTopic(destination.TopicProducts)))
	mux.Handle("POST /orders/v2/shops/{shop}/sync", a.withShop(a.syncTopic(destination.TopicOrders)))
}

func (a *API) syncTopic(topic destination.Topic) shopHandler {
	return func(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
		if _, err := a.svc.Connector.TriggerSync(r.Context(), sh, topic); err != nil {
			writeError(w, r, err)
			return
		}
		writeData(w, map[string]any{})
	}
}
