package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (a *API) registerPaymentGateways(mux router) {
	const base = "/checkout/shop/{shop}/external_payment_gateways"
	mux.Handle("GET "+base, a.withShop(a.listGateways))
	mux.Handle("POST "+base, a.withShop(a.createGateway))
	mux.Handle("PATCH "+base+"/{public_id}", a.withShop(a.updateGateway))
	mux.Handle("DELETE "+base+"/{public_id}", a.withShop(a.deleteGateway))
}

type gatewayJSON struct {
	PublicID               string              `json:"public_id"`
	Name                   string              `json:"name"`
	BaseURL                string              `json:"base_url"`
	IframeURL              *string             `json:"iframe_url"`
	Location               string              `json:"location"`
	HTTPHeaders            []schema.HTTPHeader `json:"http_headers"`
	APIToken               *string             `json:"api_token"`
	PartialCapture         bool                `json:"partial_capture"`
	AdditionalOrderDetails bool                `json:"additional_order_details"`
	ProviderID             string              `json:"provider_id"`
	Currency               string              `json:"currency"`
	IsTest                 bool                `json:"is_test"`
}

// gatewayBody masks the api_token: it is a credential for the gateway, shown once by its sender.
func gatewayBody(g *ent.ExternalPaymentGateway) gatewayJSON {
	var token *string
	if g.APIToken != "" {
		m := shops.MaskSecret(g.APIToken)
		token = &m
	}
	return gatewayJSON{PublicID: g.PublicID, Name: g.Name, BaseURL: g.BaseURL, IframeURL: g.IframeURL, Location: g.Location,
		HTTPHeaders: g.HTTPHeaders, APIToken: token, PartialCapture: g.PartialCapture, AdditionalOrderDetails: g.AdditionalOrderDetails,
		ProviderID: g.ProviderID, Currency: g.Currency, IsTest: g.IsTest}
}

func (a *API) listGateways(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	gs, err := a.svc.Shops.ExternalPaymentGateways(r.Context(), sh)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]gatewayJSON, len(gs))
	for i, g := range gs {
		out[i] = gatewayBody(g)
	}
	writeData(w, map[string]any{"external_payment_gateways": out})
}

func (a *API) createGateway(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.ExternalPaymentGatewayInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	g, err := a.svc.Shops.CreateExternalPaymentGateway(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"external_payment_gateway": gatewayBody(g)})
}

func (a *API) updateGateway(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.ExternalPaymentGatewayInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	g, err := a.svc.Shops.UpdateExternalPaymentGateway(r.Context(), sh, r.PathValue("public_id"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"external_payment_gateway": gatewayBody(g)})
}

func (a *API) deleteGateway(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	if err := a.svc.Shops.DeleteExternalPaymentGateway(r.Context(), sh, r.PathValue("public_id")); err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}
