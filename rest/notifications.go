package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/problem"
)

// registerNotifications serves the platform's event notifications (API.md "Event
// notifications"): each is checked, queued and answered 202 with an empty body; a worker
// applies it. The spec leaves their authentication open: the shop's access token.
func (a *API) registerNotifications(mux router) {
	const customersBase = "/customers/v1/shops/{shop}/platforms/custom/webhooks/customers"
	mux.Handle("POST "+customersBase+"/saved", a.withShop(a.customerSaved))
	mux.Handle("POST "+customersBase+"/deleted", a.withShop(a.customerDeleted))
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

// registerSyncs serves the sync triggers (API.md "Destinations and syncs"): customers for now.
func (a *API) registerSyncs(mux router) {
	mux.Handle("POST /customers/v2/shops/{shop}/sync", a.withShop(a.syncCustomers))
}

func (a *API) syncCustomers(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	if _, err := a.svc.Connector.TriggerSync(r.Context(), sh, destination.TopicCustomers); err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}
