package rest

import (
	"net/http"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/subscription"
)

// The subscription operations answer their errors as the spec's `{errors: [string]}`, not the
// envelope of the other routes, the refusal of the access token included.
func (a *API) registerSubscriptions(mux router) {
	const base = "/subscriptions/v1/shops/{shop}/subscriptions"
	mux.Handle("GET "+base, a.withShopSubscriptions(a.listSubscriptions))
	mux.Handle("POST "+base, a.withShopSubscriptions(a.createSubscription))
	mux.Handle("GET "+base+"/{id}", a.withShopSubscriptions(a.getSubscription))
	mux.Handle("PUT "+base+"/{id}/discount_code", a.withShopSubscriptions(a.updateSubscriptionDiscountCode))
	mux.Handle("DELETE "+base+"/{id}/discount_code", a.withShopSubscriptions(a.removeSubscriptionDiscountCode))
}

func (a *API) withShopSubscriptions(h shopHandler) http.Handler {
	return a.withShopAnswering(writeSubscriptionError, h)
}

// writeSubscriptionError answers a service error as `{errors: [message]}` with the status of
// its kind; anything else is a real fault, logged and answered 500.
func writeSubscriptionError(w http.ResponseWriter, r *http.Request, err error) {
	e := problemOf(r, err)
	writeJSON(w, StatusOf(e.Kind), map[string]any{"errors": []string{e.Message}})
}

func subscriptionID(r *http.Request) (int, error) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id < 1 {
		return 0, problem.NotFoundError("subscription.not_found", "the shop has no such subscription")
	}
	return id, nil
}

func (a *API) listSubscriptions(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	q := r.URL.Query()
	lq := subscription.ListQuery{Statuses: q["subscription_status"], PlatformCustomerIDs: q["service_platform_customer_id"],
		Filter: q["filter"], Cursor: q.Get("cursor")}
	for _, e := range q["expand"] {
		lq.ExpandCustomer = lq.ExpandCustomer || e == "customer"
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			writeSubscriptionError(w, r, problem.Validation("subscription.invalid_query", "limit must be from 1 to 100", map[string]any{"field": "limit"}))
			return
		}
		lq.Limit = n
	}
	list, err := a.svc.Subscriptions.ListSubscriptions(r.Context(), sh, lq)
	if err != nil {
		writeSubscriptionError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (a *API) createSubscription(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in subscription.CreateInput
	if err := decode(r, &in); err != nil {
		writeSubscriptionError(w, r, err)
		return
	}
	v, err := a.svc.Subscriptions.CreateSubscription(r.Context(), sh, in)
	if err != nil {
		writeSubscriptionError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"subscription": v})
}

func (a *API) getSubscription(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := subscriptionID(r)
	if err == nil {
		var v *subscription.View
		if v, err = a.svc.Subscriptions.Subscription(r.Context(), sh, id, r.URL.Query().Get("expand") == "customer"); err == nil {
			writeJSON(w, http.StatusOK, map[string]any{"subscription": v})
			return
		}
	}
	writeSubscriptionError(w, r, err)
}

func (a *API) updateSubscriptionDiscountCode(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body struct {
		DiscountCode string `json:"discount_code"`
	}
	id, err := subscriptionID(r)
	if err == nil {
		err = decode(r, &body)
	}
	if err == nil {
		var v *subscription.View
		if v, err = a.svc.Subscriptions.UpdateDiscountCode(r.Context(), sh, id, body.DiscountCode); err == nil {
			writeJSON(w, http.StatusOK, map[string]any{"subscription": v})
			return
		}
	}
	writeSubscriptionError(w, r, err)
}

func (a *API) removeSubscriptionDiscountCode(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := subscriptionID(r)
	if err == nil {
		var v *subscription.View
		if v, err = a.svc.Subscriptions.RemoveDiscountCode(r.Context(), sh, id); err == nil {
			writeJSON(w, http.StatusOK, map[string]any{"subscription": v})
			return
		}
	}
	writeSubscriptionError(w, r, err)
}
