package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/orders"
)

// registerOrderCustomer adds the customer and address calls, on the storefront (order JWT) and
// backend (access token) paths alike.
func (a *API) registerOrderCustomer(mux router) {
	routes := []struct {
		method, suffix string
		h              orderHandler
	}{
		{"POST", "/customer/guest", a.createCustomer(false)},
		{"POST", "/customer/authenticated", a.createCustomer(true)},
		{"PUT", "/customer/guest", a.updateGuestCustomer},
		{"PUT", "/customer", a.updateCustomer},
		{"GET", "/customer", a.getCustomer},
		{"DELETE", "/customer", a.deleteCustomer},
		{"GET", "/validate_email_address", a.validateEmail},
		{"GET", "/validate_address", a.validateAddress},
		{"POST", "/addresses/shipping", a.putAddress(orders.ShippingAddress, false)},
		{"PUT", "/addresses/shipping", a.putAddress(orders.ShippingAddress, true)},
		{"GET", "/addresses/shipping", a.getAddress(orders.ShippingAddress)},
		{"DELETE", "/addresses/shipping", a.deleteAddress(orders.ShippingAddress)},
		{"POST", "/addresses/billing", a.putAddress(orders.BillingAddress, false)},
		{"PUT", "/addresses/billing", a.putAddress(orders.BillingAddress, true)},
		{"GET", "/addresses/billing", a.getAddress(orders.BillingAddress)},
		{"DELETE", "/addresses/billing", a.deleteAddress(orders.BillingAddress)},
	}
	for _, rt := range routes {
		if rt.suffix != "/customer/authenticated" {
			mux.Handle(rt.method+" /checkout/storefront/{shop}/{order}"+rt.suffix, a.withOrder(rt.h))
		}
		mux.Handle(rt.method+" /checkout/orders/{shop}/{order}"+rt.suffix, a.withBackendOrder(rt.h))
	}
}

// withBackendOrder opens an order of the access token's shop.
func (a *API) withBackendOrder(h orderHandler) http.Handler {
	a.serving(h)
	return a.withShop(func(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
		sess, err := a.svc.Orders.BackendOrderSession(r.Context(), sh, r.PathValue("order"))
		if err != nil {
			writeError(w, r, err)
			return
		}
		h(w, r, sess)
	})
}

func writeOrderData(w http.ResponseWriter, r *http.Request, v *orders.OrderView, err error, extra func(orders.ApplicationState) map[string]any) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	state := v.State()
	out := map[string]any{}
	if extra != nil {
		out = extra(state)
	}
	out["application_state"] = state
	writeData(w, out)
}

func withCustomer(s orders.ApplicationState) map[string]any {
	return map[string]any{"customer": s.Customer}
}

func (a *API) createCustomer(authenticated bool) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		var in orders.CustomerInput
		if err := decode(r, &in); err != nil {
			writeError(w, r, err)
			return
		}
		v, err := a.svc.Orders.CreateCustomer(r.Context(), sess, in, authenticated)
		writeOrderData(w, r, v, err, withCustomer)
	}
}

func (a *API) updateCustomer(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in orders.CustomerInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.UpdateCustomer(r.Context(), sess, in)
	writeOrderData(w, r, v, err, withCustomer)
}

// updateGuestCustomer is the deprecated Update Guest Customer: what init supplied stays.
func (a *API) updateGuestCustomer(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in orders.CustomerInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	v, err := a.svc.Orders.UpdateGuestCustomer(r.Context(), sess, in)
	writeOrderData(w, r, v, err, withCustomer)
}

func (a *API) getCustomer(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	v, err := a.svc.Orders.SessionState(r.Context(), sess)
	writeOrderData(w, r, v, err, withCustomer)
}

func (a *API) deleteCustomer(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	v, err := a.svc.Orders.DeleteCustomer(r.Context(), sess)
	writeOrderData(w, r, v, err, nil)
}

func (a *API) validateEmail(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	if err := orders.ValidateEmailAddress(r.URL.Query().Get("email_address")); err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}

// validateAddress checks an address given in the query string; address_type (shipping, the
// default, or billing) only names the address in the error.
func (a *API) validateAddress(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	q := r.URL.Query()
	in := orders.AddressInput{
		FirstName: q.Get("first_name"), LastName: q.Get("last_name"), AddressLine1: q.Get("address_line_1"),
		AddressLine2: q.Get("address_line_2"), City: q.Get("city"), Country: q.Get("country"), CountryCode: q.Get("country_code"),
		Province: q.Get("province"), ProvinceCode: q.Get("province_code"), PostalCode: q.Get("postal_code"),
		BusinessName: q.Get("business_name"), PhoneNumber: q.Get("phone_number"),
	}
	if err := orders.ValidateAddress(sess.Shop, orders.AddressKind(q.Get("address_type")), in); err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}

func addressOf(kind orders.AddressKind) func(orders.ApplicationState) map[string]any {
	return func(s orders.ApplicationState) map[string]any {
		return map[string]any{"address": s.Addresses[string(kind)]}
	}
}

func (a *API) putAddress(kind orders.AddressKind, update bool) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		var in orders.AddressInput
		if err := decode(r, &in); err != nil {
			writeError(w, r, err)
			return
		}
		change := a.svc.Orders.SetAddress
		if update {
			change = a.svc.Orders.UpdateAddress
		}
		v, err := change(r.Context(), sess, kind, in)
		writeOrderData(w, r, v, err, addressOf(kind))
	}
}

func (a *API) getAddress(kind orders.AddressKind) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		v, err := a.svc.Orders.SessionState(r.Context(), sess)
		writeOrderData(w, r, v, err, addressOf(kind))
	}
}

func (a *API) deleteAddress(kind orders.AddressKind) orderHandler {
	return func(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
		v, err := a.svc.Orders.DeleteAddress(r.Context(), sess, kind)
		writeOrderData(w, r, v, err, nil)
	}
}
