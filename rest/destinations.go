package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/connector"
	"github.com/checkoutd/checkoutd/service/problem"
)

// registerDestinations serves the platform connector's destinations (API.md "Destinations and
// syncs").
func (a *API) registerDestinations(mux router) {
	const base = "/integrations/v1/shops/{shop}/platform_connector_destinations"
	mux.Handle("GET "+base, a.withShop(a.listDestinations))
	mux.Handle("POST "+base, a.withShop(a.createDestination))
	mux.Handle("GET "+base+"/{id}", a.withShop(a.getDestination))
	mux.Handle("PATCH "+base+"/{id}", a.withShop(a.updateDestination))
	mux.Handle("DELETE "+base+"/{id}", a.withShop(a.deleteDestination))
}

// destinationJSON is the spec's destination.
type destinationJSON struct {
	ID             int        `json:"id"`
	ShopIdentifier string     `json:"shop_identifier"`
	Topic          string     `json:"topic"`
	Destination    string     `json:"destination"`
	Version        string     `json:"version"`
	TimeoutMS      int        `json:"timeout_ms"`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
	DeletedAt      *time.Time `json:"deleted_at"`
}

func destinationBody(sh *ent.Shop, d *ent.Destination) destinationJSON {
	return destinationJSON{ID: d.ID, ShopIdentifier: sh.Identifier, Topic: d.Topic.String(), Destination: d.Destination,
		Version: d.Version, TimeoutMS: d.TimeoutMs, CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC(), DeletedAt: utc(d.DeletedAt)}
}

// destinationRequest is the body of a create or update: {data:{destination:{...}}}.
type destinationRequest struct {
	Data struct {
		Destination *connector.DestinationInput `json:"destination"`
	} `json:"data"`
}

func decodeDestination(r *http.Request) (connector.DestinationInput, error) {
	var req destinationRequest
	if err := decode(r, &req); err != nil {
		return connector.DestinationInput{}, err
	}
	if req.Data.Destination == nil {
		return connector.DestinationInput{}, &problem.Error{Kind: problem.Rejected, Code: problem.CodeBadRequest, Type: "destination.invalid",
			Message: "the body must be {data:{destination:{...}}}", Details: map[string]any{"field": "data.destination"}}
	}
	return *req.Data.Destination, nil
}

func destinationID(r *http.Request) (int, error) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id <= 0 {
		return 0, problem.NotFoundError("destination.not_found", "the shop has no destination "+r.PathValue("id"))
	}
	return id, nil
}

func (a *API) listDestinations(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	ds, err := a.svc.Connector.Destinations(r.Context(), sh)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]destinationJSON, 0, len(ds))
	for _, d := range ds {
		out = append(out, destinationBody(sh, d))
	}
	// The spec names the list's key destination, like the single one's.
	writeData(w, map[string]any{"destination": out})
}

func (a *API) createDestination(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	in, err := decodeDestination(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	d, err := a.svc.Connector.CreateDestination(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"destination": destinationBody(sh, d)})
}

func (a *API) getDestination(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := destinationID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	d, err := a.svc.Connector.Destination(r.Context(), sh, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"destination": destinationBody(sh, d)})
}

func (a *API) updateDestination(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := destinationID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	in, err := decodeDestination(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	d, err := a.svc.Connector.UpdateDestination(r.Context(), sh, id, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"destination": destinationBody(sh, d)})
}

func (a *API) deleteDestination(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := destinationID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	if err := a.svc.Connector.DeleteDestination(r.Context(), sh, id); err != nil {
		writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
