// Package web is the server-rendered admin console.
package web

import (
	"net/http"

	"github.com/a-h/templ"
)

// Register adds the console's routes to mux.
func Register(mux *http.ServeMux) {
	mux.Handle("GET /admin", templ.Handler(Home()))
	mux.Handle("GET /admin/", templ.Handler(Home()))
}
