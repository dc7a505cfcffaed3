package rest

import (
	"net/http"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (a *API) registerAPIOverrides(mux router) {
	const base = "/checkout/shop/{shop}/overrides"
	mux.Handle("GET "+base, a.withShop(a.listOverrides))
	mux.Handle("POST "+base, a.withShop(a.createOverride))
	mux.Handle("PATCH "+base+"/{public_id}", a.withShop(a.updateOverride))
	mux.Handle("DELETE "+base+"/{public_id}", a.withShop(a.deleteOverride))
}

type overrideJSON struct {
	PublicID      string    `json:"public_id"`
	OverrideType  string    `json:"override_type"`
	URL           string    `json:"url"`
	SharedSecret  string    `json:"shared_secret"`
	FailurePolicy string    `json:"failure_policy"`
	TimeoutMS     int       `json:"timeout_ms"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

func overrideBody(o *ent.APIOverride) overrideJSON {
	return overrideJSON{PublicID: o.PublicID, OverrideType: o.OverrideType, URL: o.URL,
		SharedSecret: shops.MaskSecret(o.SharedSecret), FailurePolicy: shops.EffectivePolicy(o), TimeoutMS: o.TimeoutMs, CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC()}
}

func (a *API) listOverrides(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	os, err := a.svc.Shops.APIOverrides(r.Context(), sh)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]overrideJSON, len(os))
	for i, o := range os {
		out[i] = overrideBody(o)
	}
	writeData(w, map[string]any{"overrides": out})
}

func (a *API) createOverride(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.APIOverrideInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	o, err := a.svc.Shops.CreateAPIOverride(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"override": overrideBody(o)})
}

func (a *API) updateOverride(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.APIOverrideInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	o, err := a.svc.Shops.UpdateAPIOverride(r.Context(), sh, r.PathValue("public_id"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"override": overrideBody(o)})
}

func (a *API) deleteOverride(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	if err := a.svc.Shops.DeleteAPIOverride(r.Context(), sh, r.PathValue("public_id")); err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}
