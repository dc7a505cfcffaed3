package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

type errorEntry struct {
	Code    string         `json:"code"`
	Type    string         `json:"type"`
	Message string         `json:"message"`
	Details map[string]any `json:"details"`
	// Storefronts built on the public frontend library read these four to place a message next
	// to its input (field, address_type) or show it as a page-level failure (severity).
	Field       string `json:"field"`
	Severity    string `json:"severity"`
	SubType     string `json:"sub_type"`
	AddressType string `json:"address_type,omitempty"`
}

// Severities the frontend library's consumers tell apart: a validation error is the shopper's
// to fix at the field it names; a critical one stops the checkout step.
const (
	severityValidation = "validation"
	severityCritical   = "critical"
)

// subTypeOf names the checkout area an error belongs to, by its whole type or else the topic
// its type starts with, in the sub_type words the library's consumers look for.
var subTypeOf = map[string]string{
	"inventory.insufficient":            "insufficient_stock",
	"order.payments_do_not_cover_total": "payment",
	"order.no_customer":                 "customer",
	"order.no_shipping_address":         "shipping_address",
	"order.no_billing_address":          "billing_address",
	"order.no_shipping_line":            "no_shipping_to_address",
	"order.no_line_items":               "cart",
	"order.unknown_product":             "cart",

	"customer":                 "customer",
	"discount":                 "discounts",
	"discounts":                "discounts",
	"discount_code":            "discounts",
	"payment":                  "payment",
	"payments":                 "payment",
	"payment_iframe":           "payment",
	"gift_card":                "payment",
	"wallet_pay":               "payment",
	"saved_payment_method":     "payment",
	"tax":                      "tax",
	"taxes":                    "tax",
	"line_item":                "cart",
	"shipping":                 "no_shipping_to_address",
	"external_payment_gateway": "payment",
}

// newErrorEntry derives the library's fields from the service error: field and address_type
// from its details, severity from its status, and sub_type from the address kind, an email
// field, or the error's type.
func newErrorEntry(e *problem.Error, details map[string]any) errorEntry {
	entry := errorEntry{Code: e.Code, Type: e.Type, Message: e.Message, Details: details, Severity: severityCritical}
	if e.Kind == problem.Invalid {
		entry.Severity = severityValidation
	}
	entry.Field, _ = details["field"].(string)
	entry.AddressType, _ = details["address_type"].(string)
	topic, _, _ := strings.Cut(e.Type, ".")
	switch {
	case entry.AddressType != "":
		entry.SubType = entry.AddressType + "_address"
	case entry.Field == "email_address":
		entry.SubType = "email_address"
	default:
		if sub, ok := subTypeOf[e.Type]; ok {
			entry.SubType = sub
		} else {
			entry.SubType = subTypeOf[topic]
		}
	}
	return entry
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func writeData(w http.ResponseWriter, data any) {
	writeJSON(w, http.StatusOK, map[string]any{"data": data})
}

// writeError translates a service error into the documented envelope; anything else is a
// real fault, logged and answered as 500 without its details.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := problemOf(r, err)
	writeJSON(w, StatusOf(e.Kind), errorBody(e, platform.RequestID(r.Context())))
}

// problemOf is the service's problem err is; anything else is a real fault, logged and answered
// as an internal error, its message kept from the caller.
func problemOf(r *http.Request, err error) *problem.Error {
	e, ok := problem.As(err)
	if !ok {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "error", err)
		e = &problem.Error{Kind: problem.Internal, Code: problem.CodeInternal, Type: "server.internal_error", Message: "internal error"}
	}
	return e
}

// statusOfKind is the HTTP status of each kind of problem: the one place REST decides it.
var statusOfKind = map[problem.Kind]int{
	problem.Internal:      http.StatusInternalServerError,
	problem.Malformed:     http.StatusBadRequest,
	problem.Unauthorized:  http.StatusUnauthorized,
	problem.NotFound:      http.StatusNotFound,
	problem.NotAllowed:    http.StatusMethodNotAllowed,
	problem.Conflict:      http.StatusConflict,
	problem.TooLarge:      http.StatusRequestEntityTooLarge,
	problem.Unsupported:   http.StatusUnsupportedMediaType,
	problem.Invalid:       http.StatusUnprocessableEntity,
	problem.Unavailable:   http.StatusServiceUnavailable,
	problem.Rejected:      http.StatusBadRequest,
	problem.NotConfigured: http.StatusNotImplemented,
}

// StatusOf is the HTTP status REST answers a problem of kind k with (docs/errors.md shows it).
func StatusOf(k problem.Kind) int {
	if s, ok := statusOfKind[k]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// errorBody is the envelope of one error. Its details carry the id of the call that made it, so a
// shopper's or platform's report of one failure finds its log lines; an idempotent replay keeps
// the first call's id, whose log lines made the decision.
func errorBody(e *problem.Error, requestID string) map[string]any {
	details := make(map[string]any, len(e.Details)+1)
	for k, v := range e.Details {
		details[k] = v
	}
	if _, kept := details[problem.DetailRequestID]; !kept && requestID != "" {
		details[problem.DetailRequestID] = requestID
	}
	return map[string]any{"errors": []errorEntry{newErrorEntry(e, details)}}
}

// Codes of the refusals only the front door makes, before any service is asked, in the
// 02-<status> style of the others.
const (
	codeMethodNotAllowed     = "02-05"
	codeUnsupportedMediaType = "02-15"
)

var errBodyTooLarge = &problem.Error{Kind: problem.TooLarge, Code: problem.CodeBodyTooLarge, Type: "request.body_too_large", Message: "request body is larger than 1 MiB"}

func badRequest(message string) *problem.Error {
	return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "request.malformed", Message: message}
}

// requireJSONBody refuses a body that does not say it is JSON: application/json or an
// application/*+json type, with no charset but UTF-8. A call without a body may carry any
// content type or none (API.md: bodiless calls may still say application/json). A body without
// a content type is refused too: the contract says bodies are sent as application/json, and
// every client we know (the frontend library, the platform plugins' calls, our tests and bench)
// says so.
func requireJSONBody(r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return nil
	}
	if r.ContentLength < 0 {
		// A chunked body is empty only if its first read says so.
		var first [1]byte
		n, err := io.ReadFull(r.Body, first[:])
		if n == 0 {
			if err == io.EOF {
				return nil
			}
			return badRequest("could not read request body")
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(first[:n]), r.Body), r.Body}
	}
	ct := r.Header.Get("Content-Type")
	if mt, params, err := mime.ParseMediaType(ct); err == nil && isJSONMediaType(mt) {
		if cs, ok := params["charset"]; !ok || strings.EqualFold(cs, "utf-8") {
			return nil
		}
	}
	return &problem.Error{Kind: problem.Unsupported, Code: codeUnsupportedMediaType, Type: "request.unsupported_media_type",
		Message: "a request body must be sent as Content-Type: application/json", Details: map[string]any{"content_type": ct}}
}

func isJSONMediaType(mt string) bool {
	sub, ok := strings.CutPrefix(mt, "application/")
	return ok && (sub == "json" || strings.HasSuffix(sub, "+json"))
}

// decode reads a JSON body into v. An empty body decodes as {}: bodiless calls may still send
// a JSON content type. Broken JSON (or text that is not UTF-8) is a 400; a value of the wrong
// type is a 422 naming the field.
func decode(r *http.Request, v any) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return errBodyTooLarge
		}
		return badRequest("could not read request body")
	}
	if strings.TrimSpace(string(body)) == "" {
		return nil
	}
	// encoding/json would take invalid UTF-8 and store U+FFFD in its place.
	if !utf8.Valid(body) {
		return badRequest("request body is not valid UTF-8")
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			if typeErr.Field == "" {
				return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "request.invalid_field_type",
					Message: "request body must be a JSON " + jsonKind(typeErr.Type), Details: map[string]any{"field": ""}}
			}
			return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "request.invalid_field_type",
				Message: typeErr.Field + " must be " + article(jsonKind(typeErr.Type)), Details: map[string]any{"field": typeErr.Field}}
		}
		return badRequest("request body is not valid JSON")
	}
	return nil
}

// jsonKind names a Go type in JSON's words, so an error never shows an internal type name.
// A number that does not fit its field (1e400, 2^63) is reported as that field's kind.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "whole number in range"
	case reflect.Float32, reflect.Float64:
		return "number in range"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return "value of another type"
}

func article(kind string) string {
	if strings.IndexByte("aeiou", kind[0]) >= 0 {
		return "an " + kind
	}
	return "a " + kind
}
