package rest

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/checkoutd/checkoutd/service"
)

// MaxBatchSubRequests bounds one batch call.
const MaxBatchSubRequests = 50

type subRequest struct {
	Method   string          `json:"method"`
	Endpoint string          `json:"endpoint"`
	Payload  json.RawMessage `json:"payload"`
}

type subResponse struct {
	Data       any    `json:"data"`
	StatusCode int    `json:"status_code"`
	Method     string `json:"method"`
	Endpoint   string `json:"endpoint"`
}

// batch runs the sub-requests in order, each through the same routes and authentication as a
// call of its own, and answers each one's status and body.
func (a *API) batch(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
	var in struct {
		SubRequests []subRequest `json:"sub_requests"`
	}
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if len(in.SubRequests) == 0 || len(in.SubRequests) > MaxBatchSubRequests {
		writeError(w, r, &service.Error{Status: http.StatusUnprocessableEntity, Code: service.CodeValidation, Type: "batch.invalid_sub_requests",
			Message: "sub_requests must hold 1 to 50 requests", Details: map[string]any{"field": "sub_requests"}})
		return
	}
	prefix := "/checkout/storefront/" + r.PathValue("shop") + "/" + r.PathValue("order")
	out := make([]subResponse, len(in.SubRequests))
	for i, sr := range in.SubRequests {
		method := strings.ToUpper(sr.Method)
		endpoint := "/" + strings.TrimLeft(sr.Endpoint, "/")
		out[i] = subResponse{Method: method, Endpoint: endpoint}
		if strings.HasPrefix(endpoint, "/batch") {
			out[i].StatusCode, out[i].Data = http.StatusUnprocessableEntity, map[string]any{"errors": []map[string]any{{"code": service.CodeValidation, "type": "batch.nested", "message": "a batch cannot contain a batch", "details": map[string]any{}}}}
			continue
		}
		body := sr.Payload
		// The frontend library sometimes sends the payload as a JSON-encoded string.
		var asString string
		if json.Unmarshal(body, &asString) == nil {
			body = json.RawMessage(asString)
		}
		if string(body) == "null" {
			body = nil
		}
		sub, err := http.NewRequestWithContext(r.Context(), method, prefix+endpoint, bytes.NewReader(body))
		if err != nil {
			out[i].StatusCode, out[i].Data = http.StatusBadRequest, nil
			continue
		}
		sub.Header.Set("Authorization", r.Header.Get("Authorization"))
		sub.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		a.mux.ServeHTTP(rec, sub)
		out[i].StatusCode = rec.Code
		var decoded map[string]any
		if json.Unmarshal(rec.Body.Bytes(), &decoded) == nil {
			if d, ok := decoded["data"]; ok {
				out[i].Data = d
			} else {
				out[i].Data = decoded
			}
		}
	}
	// The frontend library looks for application_state in objects only, never inside the data
	// array, and refuses a batch answer without one: it is answered at the top level, as the
	// order stands after the last sub-request.
	v, err := a.svc.OrderState(r.Context(), sess)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": out, "application_state": v.State()})
}

// clientLog takes the storefront's log lines and writes them at debug level.
func (a *API) clientLog(w http.ResponseWriter, r *http.Request, sess *service.OrderSession) {
	var in map[string]any
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	slog.DebugContext(r.Context(), "storefront log", "shop", sess.Shop.Identifier, "public_order_id", sess.PublicOrderID(), "entry", in)
	writeData(w, map[string]any{})
}
