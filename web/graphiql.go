package web

import (
	"crypto/rand"
	"fmt"
	"net/http"
)

// The vendored GraphiQL and the React it runs on, under /admin/static/ (see static/README.md).
const (
	GraphiQLScript = "graphiql-3.9.0.min.js"
	GraphiQLStyle  = "graphiql-3.9.0.min.css"
	React          = "react-18.3.1.production.min.js"
	ReactDOM       = "react-dom-18.3.1.production.min.js"
)

// graphiqlPolicy lets the GraphiQL page load only this server's files and talk only to it. Its
// style sheets carry their fonts and icons as data: URLs; the one style element GraphiQL adds
// (while a dialog is open) carries the nonce of the response.
const graphiqlPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'nonce-%s'; font-src data:; img-src 'self' data:; " +
	"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// GraphiQL serves GraphiQL, for people, on the page of the GraphQL endpoint it is mounted at
// (graph.WithGraphiQL): it sends its queries to the address it was loaded from.
func GraphiQL() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce := rand.Text()
		h := w.Header()
		h.Set("Content-Security-Policy", fmt.Sprintf(graphiqlPolicy, nonce))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Type", "text/html; charset=utf-8")
		_ = graphiqlPage(nonce).Render(r.Context(), w)
	})
}
