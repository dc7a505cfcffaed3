package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/shops"
)

// registerSettings serves the shop's checkout settings (ours: the spec names the address
// requirements as admin settings without an operation).
func (a *API) registerSettings(mux router) {
	const base = "/checkout/shop/{shop}"
	mux.Handle("GET "+base+"/settings", a.withShop(a.getSettings))
	mux.Handle("PATCH "+base+"/settings", a.withShop(a.updateSettings))
}

func (a *API) getSettings(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	writeData(w, map[string]any{"settings": shops.SettingsOf(sh)})
}

func (a *API) updateSettings(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.SettingsInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	updated, err := a.svc.Shops.UpdateSettings(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"settings": shops.SettingsOf(updated)})
}
