package rest

import (
	"net/http"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (a *API) registerStoreConfig(mux router) {
	const base = "/checkout/shop/{shop}"
	mux.Handle("GET "+base+"/cors", a.withShop(a.listCors))
	mux.Handle("POST "+base+"/cors", a.withShop(a.addCors))
	mux.Handle("DELETE "+base+"/cors/{domain_id}", a.withShop(a.deleteCors))
	mux.Handle("GET "+base+"/life_elements", a.withShop(a.listLifeElements))
	mux.Handle("POST "+base+"/life_elements", a.withShop(a.createLifeElement))
	mux.Handle("PATCH "+base+"/life_elements/{public_id}", a.withShop(a.updateLifeElement))
	mux.Handle("DELETE "+base+"/life_elements/{public_id}", a.withShop(a.deleteLifeElement))
}

type corsEntry struct {
	DomainID int    `json:"domain_id"`
	Domain   string `json:"domain"`
}

func corsList(ds []*ent.CorsDomain) []corsEntry {
	out := make([]corsEntry, len(ds))
	for i, d := range ds {
		out[i] = corsEntry{DomainID: d.ID, Domain: d.Domain}
	}
	return out
}

func (a *API) listCors(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	ds, err := a.svc.Shops.CorsDomains(r.Context(), sh)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if len(ds) == 0 {
		// The documented shape of an empty allowlist is an empty object.
		writeData(w, map[string]any{})
		return
	}
	writeData(w, corsList(ds))
}

func (a *API) addCors(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body struct {
		Domain string `json:"domain"`
	}
	if err := decode(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	ds, err := a.svc.Shops.AddCorsDomain(r.Context(), sh, body.Domain)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, corsList(ds))
}

func (a *API) deleteCors(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := strconv.Atoi(r.PathValue("domain_id"))
	if err == nil {
		err = a.svc.Shops.DeleteCorsDomain(r.Context(), sh, id)
	} else {
		err = &problem.Error{Kind: problem.NotFound, Code: problem.CodeNotFound, Type: "cors.domain_not_found", Message: "no domain in the allowlist with that domain_id"}
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, []any{})
}

func (a *API) listLifeElements(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	els, err := a.svc.Shops.LifeElements(r.Context(), sh)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]orders.LifeElementOut, len(els))
	for i, e := range els {
		out[i] = orders.NewLifeElementOut(e)
	}
	writeData(w, map[string]any{"life_elements": out})
}

func (a *API) createLifeElement(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.LifeElementInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	el, err := a.svc.Shops.CreateLifeElement(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"life_elements": orders.NewLifeElementOut(el)})
}

func (a *API) updateLifeElement(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.LifeElementInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	el, err := a.svc.Shops.UpdateLifeElement(r.Context(), sh, r.PathValue("public_id"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"life_elements": orders.NewLifeElementOut(el)})
}

func (a *API) deleteLifeElement(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	if err := a.svc.Shops.DeleteLifeElement(r.Context(), sh, r.PathValue("public_id")); err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}
