package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/checkoutd/checkoutd/docs"
	"github.com/checkoutd/checkoutd/rest"
	"github.com/checkoutd/checkoutd/service"
)

// contract is docs/openapi.yaml, loaded once for every test.
type contract struct {
	doc    *openapi3.T
	router routers.Router
	bodies *bodySchemas
}

var loadContract = sync.OnceValues(func() (*contract, error) {
	doc, err := openapi3.NewLoader().LoadFromData(docs.OpenAPI)
	if err != nil {
		return nil, err
	}
	router, err := legacy.NewRouter(doc) // validates the document too
	if err != nil {
		return nil, err
	}
	// The two answers that are not JSON: the payment page and this document itself.
	asText := func(body io.Reader, _ http.Header, _ *openapi3.SchemaRef, _ openapi3filter.EncodingFn) (any, error) {
		b, err := io.ReadAll(body)
		return string(b), err
	}
	openapi3filter.RegisterBodyDecoder("text/html", asText)
	openapi3filter.RegisterBodyDecoder("application/yaml", asText)
	bodies, err := newBodySchemas(doc)
	if err != nil {
		return nil, err
	}
	return &contract{doc: doc, router: router, bodies: bodies}, nil
})

// bodySchemas validates JSON bodies against the document's schemas, each compiled once. Under a
// 3.1 document kin-openapi compiles a JSON Schema (2020-12) validator for every value it checks,
// which doubled the REST tests' time; kin-openapi still checks everything but the bodies.
type bodySchemas struct {
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	compiled map[string]*jsonschema.Schema
}

const contractURL = "urn:checkoutd:openapi.json"

func newBodySchemas(doc *openapi3.T) (*bodySchemas, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	whole, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(contractURL, whole); err != nil {
		return nil, err
	}
	return &bodySchemas{compiler: c, compiled: map[string]*jsonschema.Schema{}}, nil
}

// validate checks a JSON body against the schema at pointer (a JSON pointer into the document).
func (b *bodySchemas) validate(pointer string, body []byte) error {
	b.mu.Lock()
	sch, ok := b.compiled[pointer]
	if !ok {
		var err error
		if sch, err = b.compiler.Compile(contractURL + "#" + pointer); err != nil {
			b.mu.Unlock()
			return fmt.Errorf("compiling %s: %w", pointer, err)
		}
		b.compiled[pointer] = sch
	}
	b.mu.Unlock()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("the body is not JSON: %w", err)
	}
	return sch.Validate(v)
}

// pointerTo is the JSON pointer of a schema under the document's paths.
func pointerTo(parts ...string) string {
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString("/")
		sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return sb.String()
}

// responseKey is the key of the document's response a status is answered under: the status
// itself, its range (4XX), or default.
func responseKey(op *openapi3.Operation, status int) string {
	for _, k := range []string{strconv.Itoa(status), strconv.Itoa(status/100) + "XX", "default"} {
		if op.Responses.Value(k) != nil {
			return k
		}
	}
	return ""
}

// validated holds every request and response of a REST test to docs/openapi.yaml:
//   - every response must be a status the document lists for the operation, with a body its
//     schema allows (the error envelope for every 4xx and 5xx);
//   - a request is checked only when the server accepted it (2xx): a request the server took
//     must be one the document describes, while tests that send bad input on purpose
//     (malformed JSON, wrong types, hostile values) still get their refusal checked as a
//     response;
//   - a request that no documented operation matches must be answered with the error envelope
//     (the catch-all's 404 and the front door's refusals), or be a storefront CORS preflight:
//     204 with no body.
//
// A failure is reported on t, from the server's goroutine, as the test's error.
func validated(t *testing.T, next http.Handler) http.Handler {
	c, err := loadContract()
	if err != nil {
		t.Fatalf("docs/openapi.yaml: %v", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		in := &recordedBody{ReadCloser: r.Body}
		r.Body = in
		out := &recordedResponse{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(out, r)
		if err := c.check(r, in, out); err != nil {
			// kin-openapi's message carries the whole schema: its start says what failed.
			t.Errorf("%s %s answered %d, which docs/openapi.yaml does not describe: %.2000s\nbody: %.600s", r.Method, r.URL.RequestURI(), out.status, err, out.body.String())
		}
	})
}

func (c *contract) check(r *http.Request, in *recordedBody, out *recordedResponse) error {
	ctx := context.Background()
	route, params, err := c.router.FindRoute(r)
	if err != nil {
		return c.checkUndocumented(r, out)
	}
	req := r.Clone(ctx)
	reqIn := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true, ExcludeRequestBody: true},
	}
	if out.status >= 200 && out.status < 300 {
		// The server takes any application/*+json body as JSON (docs/api.md); an OpenAPI media
		// range cannot say so, and the document names application/json.
		if mt, _, err := mime.ParseMediaType(req.Header.Get("Content-Type")); err == nil && strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json") {
			req.Header.Set("Content-Type", "application/json")
		}
		// The server has answered: what it left unread of the body is read here, up to its limit.
		_, _ = io.CopyN(io.Discard, in, rest.MaxBodyBytes+1-int64(in.buf.Len()))
		req.Body = io.NopCloser(bytes.NewReader(in.buf.Bytes()))
		if err := openapi3filter.ValidateRequest(ctx, reqIn); err != nil {
			return fmt.Errorf("the request: %w", err)
		}
		if err := c.checkRequestBody(route, in.buf.Bytes()); err != nil {
			return fmt.Errorf("the request: %w", err)
		}
	}
	resIn := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: reqIn,
		Status:                 out.status,
		Header:                 out.Header(),
		Body:                   io.NopCloser(bytes.NewReader(out.body.Bytes())),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, ExcludeResponseBody: true},
	}
	if err := openapi3filter.ValidateResponse(ctx, resIn); err != nil {
		return fmt.Errorf("the response to %s %s: %w", route.Method, route.Path, err)
	}
	if err := c.checkResponseBody(route, out); err != nil {
		return fmt.Errorf("the response to %s %s: %w", route.Method, route.Path, err)
	}
	return nil
}

// checkRequestBody holds a JSON request body to the operation's schema: one is required when
// the document says so, and none may be sent to an operation that takes none.
func (c *contract) checkRequestBody(route *routers.Route, body []byte) error {
	rb := route.Operation.RequestBody
	if len(bytes.TrimSpace(body)) == 0 {
		if rb != nil && rb.Value.Required {
			return errors.New("the operation requires a body")
		}
		return nil
	}
	if rb == nil || rb.Value.Content.Get("application/json") == nil {
		return errors.New("the operation takes no JSON body")
	}
	base := pointerTo("paths", route.Path, strings.ToLower(route.Method), "requestBody")
	if rb.Ref != "" {
		base = strings.TrimPrefix(rb.Ref, "#")
	}
	return c.bodies.validate(base+pointerTo("content", "application/json", "schema"), body)
}

// checkResponseBody holds a JSON answer to the schema of the response its status is listed under.
func (c *contract) checkResponseBody(route *routers.Route, out *recordedResponse) error {
	key := responseKey(route.Operation, out.status)
	res := route.Operation.Responses.Value(key)
	if res == nil || res.Value.Content.Get("application/json") == nil {
		return nil // not JSON (checked by kin-openapi as text) or no body documented
	}
	if mt, _, _ := mime.ParseMediaType(out.Header().Get("Content-Type")); mt != "application/json" {
		return fmt.Errorf("answered %q, not application/json", out.Header().Get("Content-Type"))
	}
	base := pointerTo("paths", route.Path, strings.ToLower(route.Method), "responses", key)
	if res.Ref != "" {
		base = strings.TrimPrefix(res.Ref, "#")
	}
	return c.bodies.validate(base+pointerTo("content", "application/json", "schema"), out.body.Bytes())
}

// checkUndocumented holds an answer to a request no documented operation matches.
func (c *contract) checkUndocumented(r *http.Request, out *recordedResponse) error {
	if r.Method == http.MethodOptions && strings.HasPrefix(r.URL.Path, "/checkout/storefront/") && out.status == http.StatusNoContent {
		if out.body.Len() > 0 {
			return errors.New("a preflight answers no body")
		}
		return nil
	}
	if out.status < 400 {
		return errors.New("no documented operation matches the request, and only an error may answer it")
	}
	if err := c.bodies.validate(pointerTo("components", "schemas", "ErrorEnvelope"), out.body.Bytes()); err != nil {
		return fmt.Errorf("an error must be the error envelope: %w", err)
	}
	return nil
}

// recordedBody keeps what the server reads of a request body.
type recordedBody struct {
	io.ReadCloser
	buf bytes.Buffer
}

func (b *recordedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	return n, err
}

// recordedResponse keeps the status and body it passes on; Unwrap keeps
// http.ResponseController working through it.
type recordedResponse struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	body        bytes.Buffer
}

func (w *recordedResponse) WriteHeader(status int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recordedResponse) Write(p []byte) (int, error) {
	w.wroteHeader = true
	w.body.Write(p)
	return w.ResponseWriter.Write(p)
}

func (w *recordedResponse) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// notDocumented are the routes the server registers that docs/openapi.yaml leaves out on
// purpose, each with why.
var notDocumented = map[string]string{
	"/":                                    "the catch-all: every request no route serves gets a 404 route.not_found in the error envelope",
	"OPTIONS /checkout/storefront/{shop}/": "the CORS preflight of every storefront path: browser machinery, described once in the document's introduction",
	"OPTIONS /checkout/storefront/{shop}":  "answers the bare shop path with the catch-all's 404 rather than the router's redirect",
}

// TestEveryRouteServedIsDocumentedAndEveryDocumentedOperationIsServed holds docs/openapi.yaml
// to rest.Routes both ways: each documented operation, made into a request, is served by a
// route (not the catch-all), and each route but the few left out on purpose serves a documented
// operation.
func TestEveryRouteServedIsDocumentedAndEveryDocumentedOperationIsServed(t *testing.T) {
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	svc := &service.Service{}
	mux := http.NewServeMux()
	rest.Register(mux, svc)
	served := map[string]bool{}
	for _, rt := range rest.Routes(svc) {
		served[rt.Pattern] = true
	}
	param := regexp.MustCompile(`\{[^}]*\}`)
	documented := map[string]bool{}
	for path, item := range c.doc.Paths.Map() {
		for method := range item.Operations() {
			req := httptest.NewRequest(method, param.ReplaceAllString(path, "x"), nil)
			_, pattern := mux.Handler(req)
			if !served[pattern] || notDocumented[pattern] != "" {
				t.Errorf("%s %s is documented but not served (the server answers it with %q)", method, path, pattern)
				continue
			}
			documented[pattern] = true
		}
	}
	var missing []string
	for pattern := range served {
		if !documented[pattern] && notDocumented[pattern] == "" {
			missing = append(missing, pattern)
		}
	}
	slices.Sort(missing)
	for _, pattern := range missing {
		t.Errorf("%s is served but docs/openapi.yaml does not describe it", pattern)
	}
	for pattern := range notDocumented {
		if !served[pattern] {
			t.Errorf("%s is left out of the document but no longer served: drop it from notDocumented", pattern)
		}
	}
}

// TestTheServedOpenAPIDocumentIsDocsOpenAPIYAML checks that GET /openapi.yaml answers the
// document the tests validate against, byte for byte, as YAML.
func TestTheServedOpenAPIDocumentIsDocsOpenAPIYAML(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		res := a.doAs("", "GET", "/openapi.yaml", nil).wantStatus(t, http.StatusOK)
		if res.Raw != string(docs.OpenAPI) {
			t.Fatalf("GET /openapi.yaml answered %d bytes that are not docs/openapi.yaml (%d bytes)", len(res.Raw), len(docs.OpenAPI))
		}
		if ct := res.Header.Get("Content-Type"); ct != "application/yaml" {
			t.Fatalf("Content-Type %q, want application/yaml", ct)
		}
		if !bytes.HasPrefix(docs.OpenAPI, []byte("openapi: 3.1.")) {
			t.Fatal("docs/openapi.yaml is not an OpenAPI 3.1 document")
		}
	})
}
