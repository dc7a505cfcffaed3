package web

import "net/http"

// The vendored Swagger UI, under /admin/static/ (see static/README.md).
const (
	SwaggerUIScript = "swagger-ui-5.35.0-bundle.js"
	SwaggerUIStyle  = "swagger-ui-5.35.0.css"
)

// apiDocsPolicy lets the reference page load only this server's files and read only this
// server's /openapi.yaml (and, with "Try it out", call its API).
const apiDocsPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// apiDocs serves the REST API's reference page, GET /docs, for people: the rendering of
// docs/openapi.yaml, which the REST front door serves at /openapi.yaml.
func apiDocs(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", apiDocsPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Type", "text/html; charset=utf-8")
	_ = apiDocsPage().Render(r.Context(), w)
}
