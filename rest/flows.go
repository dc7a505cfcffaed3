package rest

import (
	"context"
	"net/http"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (a *API) registerFlows(mux router) {
	const base = "/checkout/shop/{shop}/flows"
	mux.Handle("GET "+base, a.withShop(a.flowList(a.svc.Shops.EnabledFlows)))
	mux.Handle("GET "+base+"/available", a.withShop(a.flowList(a.svc.Shops.AvailableFlows)))
	mux.Handle("PUT "+base+"/{flow_id}", a.withShop(a.flowChange(a.svc.Shops.EnableFlow)))
	mux.Handle("DELETE "+base+"/{flow_id}", a.withShop(a.flowChange(a.svc.Shops.DisableFlow)))
	mux.Handle("POST "+base, a.withShop(a.registerFlow))
}

func writeFlows(w http.ResponseWriter, r *http.Request, flows []shops.FlowSummary, err error) {
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"flows": flows})
}

func (a *API) flowList(list func(context.Context, *ent.Shop) ([]shops.FlowSummary, error)) shopHandler {
	return func(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
		flows, err := list(r.Context(), sh)
		writeFlows(w, r, flows, err)
	}
}

func (a *API) flowChange(change func(context.Context, *ent.Shop, string) ([]shops.FlowSummary, error)) shopHandler {
	return func(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
		flows, err := change(r.Context(), sh, r.PathValue("flow_id"))
		writeFlows(w, r, flows, err)
	}
}

func (a *API) registerFlow(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.RegisterFlowInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	flows, err := a.svc.Shops.RegisterCustomFlow(r.Context(), sh, in)
	writeFlows(w, r, flows, err)
}
