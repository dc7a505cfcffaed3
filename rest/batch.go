package rest

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
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
func (a *API) batch(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in struct {
		SubRequests []subRequest `json:"sub_requests"`
	}
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	if len(in.SubRequests) == 0 || len(in.SubRequests) > MaxBatchSubRequests {
		writeError(w, r, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "batch.invalid_sub_requests",
			Message: "sub_requests must hold 1 to 50 requests", Details: map[string]any{"field": "sub_requests"}})
		return
	}
	// Every sub-request runs under this order's storefront prefix with the JWT that opened the
	// batch, so it can reach this order and nothing else.
	prefix := "/checkout/storefront/" + sess.Shop.Identifier + "/" + sess.PublicOrderID()
	auth := "Bearer " + orderJWT(r)
	out := make([]subResponse, len(in.SubRequests))
	for i, sr := range in.SubRequests {
		method := strings.ToUpper(sr.Method)
		out[i] = subResponse{Method: method, Endpoint: sr.Endpoint}
		target, refusal := subRequestURL(prefix, method, sr.Endpoint, i)
		if refusal != nil {
			out[i].StatusCode, out[i].Data = StatusOf(refusal.Kind), errorBody(refusal, platform.RequestID(r.Context()))
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
		sub, err := http.NewRequestWithContext(r.Context(), method, "/", bytes.NewReader(body))
		if err != nil {
			writeError(w, r, err)
			return
		}
		sub.URL = target
		sub.Header.Set("Authorization", auth)
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
	v, err := a.svc.Orders.OrderState(r.Context(), sess)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": out, "application_state": v.State()})
}

// clientLog takes the storefront's log lines and writes them at debug level.
func (a *API) clientLog(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in map[string]any
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	slog.DebugContext(r.Context(), "storefront log", "shop", sess.Shop.Identifier, "public_order_id", sess.PublicOrderID(), "entry", in)
	writeData(w, map[string]any{})
}

// batchMethods are the methods of the storefront's routes.
var batchMethods = map[string]bool{http.MethodGet: true, http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true, http.MethodDelete: true}

// subRequestURL resolves sub-request i's endpoint under prefix. The path is percent-decoded
// once and must then be canonical, so the path every check sees is the path that runs: no
// /%62atch for /batch, no /%2e%2e/ out of the order. A query string is taken on GET only, the
// one method whose storefront routes read one.
func subRequestURL(prefix, method, endpoint string, i int) (*url.URL, *problem.Error) {
	field := "sub_requests[" + strconv.Itoa(i) + "]"
	invalid := func(what, message string) *problem.Error {
		return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "batch.invalid_sub_request",
			Message: message, Details: map[string]any{"field": field + "." + what}}
	}
	if !batchMethods[method] {
		return nil, invalid("method", "a sub-request's method must be GET, POST, PUT, PATCH or DELETE")
	}
	rawPath, rawQuery, hasQuery := strings.Cut(endpoint, "?")
	if hasQuery && method != http.MethodGet {
		return nil, invalid("endpoint", "only a GET sub-request may carry a query string")
	}
	if strings.Contains(endpoint, "#") {
		return nil, invalid("endpoint", "a sub-request's endpoint cannot carry a fragment")
	}
	if !strings.HasPrefix(rawPath, "/") {
		rawPath = "/" + rawPath
	}
	p, err := url.PathUnescape(rawPath)
	if err != nil || !utf8.ValidString(p) || strings.ContainsFunc(p, unicode.IsControl) {
		return nil, invalid("endpoint", "a sub-request's endpoint must be a path of printable UTF-8 with valid percent-escapes")
	}
	if canonicalPath(p) != p {
		e := *errNonCanonicalPath
		e.Details = map[string]any{"field": field + ".endpoint"}
		return nil, &e
	}
	if p == "/batch" || strings.HasPrefix(p, "/batch/") {
		return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "batch.nested",
			Message: "a batch cannot contain a batch", Details: map[string]any{"field": field + ".endpoint"}}
	}
	if _, err := url.ParseQuery(rawQuery); err != nil {
		return nil, invalid("endpoint", "a sub-request's query string is malformed")
	}
	// p is rooted and has no dot segment, so the whole path stays under prefix.
	return &url.URL{Path: prefix + p, RawQuery: rawQuery}, nil
}
