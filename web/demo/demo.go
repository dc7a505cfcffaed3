// Package demo is a small storefront page that walks a guest checkout through GraphQL, so that
// a fresh checkoutd can be tried from a browser and a headless frontend has an example to copy.
package demo

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var static embed.FS

// Operations is the GraphQL document the page sends, one named operation per step.
//
//go:embed static/operations.graphql
var Operations string

// contentPolicy lets the page load only its own files and talk only to this server.
const contentPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Register serves the page at /demo/{shop} and its files under /demo/static/.
func Register(mux *http.ServeMux) {
	files, err := fs.Sub(static, "static")
	if err != nil {
		panic(err)
	}
	mux.Handle("GET /demo/static/", http.StripPrefix("/demo/static/", http.FileServerFS(files)))
	mux.HandleFunc("GET /demo/{shop}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", contentPolicy)
		w.Header().Set("Referrer-Policy", "no-referrer")
		http.ServeFileFS(w, r, files, "index.html")
	})
}
