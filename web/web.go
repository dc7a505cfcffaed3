// Package web is the admin console: server-rendered templ pages under /admin, made lively with
// htmx (vendored in static/). Like rest/ and graph/ it only authenticates, decodes forms into the
// service's inputs and calls one service method per action; every rule stays in service/.
package web

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/problem"
)

//go:embed static
var staticFiles embed.FS

// HTMX is the vendored htmx file under /admin/static/ (see static/README.md).
const HTMX = "htmx-2.0.11.min.js"

// ContentSecurityPolicy forbids inline script and style and every origin but our own: all the
// console's script is the vendored htmx file, and htmx is configured (layout.templ) to never eval.
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// Console serves the admin console.
type Console struct {
	svc *service.Service
	log *slog.Logger
}

// Option configures a Console.
type Option func(*Console)

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(c *Console) { c.log = l } }

// Register adds the console's routes to mux.
func Register(mux *http.ServeMux, svc *service.Service, opts ...Option) {
	c := &Console{svc: svc, log: slog.Default()}
	for _, o := range opts {
		o(c)
	}
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err)
	}
	files := http.StripPrefix("/admin/static/", http.FileServerFS(static))
	mux.Handle("GET /admin/static/", secured(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})))
	// The REST API's reference is public, like the document it renders.
	mux.HandleFunc("GET /docs", apiDocs)
	mux.Handle("GET /admin/signin", secured(http.HandlerFunc(c.signinPage)))
	mux.Handle("POST /admin/signin", secured(http.HandlerFunc(c.signin)))
	mux.Handle("POST /admin/signout", c.admin(c.signout))
	mux.Handle("GET /admin", c.admin(c.dashboard))
	mux.Handle("GET /admin/{$}", c.admin(c.dashboard))
	mux.Handle("/admin/", c.admin(func(q *request) error {
		return &problem.Error{Kind: problem.NotFound, Type: "admin.not_found", Message: "there is no such page"}
	}))
	c.lifeElementRoutes(mux)
	c.paymentGatewayRoutes(mux)
	c.flowRoutes(mux)
	c.webhookRoutes(mux)
	c.connectorRoutes(mux)
	c.integrationRoutes(mux)
	c.corsRoutes(mux)
	c.apiOverrideRoutes(mux)
	c.remoteExchangeRoutes(mux)
	c.giftCardRoutes(mux)
	c.orderRoutes(mux)
	c.catalogRoutes(mux)
	c.customerRoutes(mux)
	c.taxRoutes(mux)
	c.discountRoutes(mux)
	c.subscriptionRoutes(mux)
}

// secured sets the headers every console answer carries.
func secured(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		if !strings.HasPrefix(r.URL.Path, "/admin/static/") {
			h.Set("Cache-Control", "no-store")
		}
		next.ServeHTTP(w, r)
	})
}

// request is one authenticated console request.
type request struct {
	w    http.ResponseWriter
	r    *http.Request
	c    *Console
	sess *admin.Session
	shop *ent.Shop
}

func (q *request) ctx() context.Context { return q.r.Context() }

// render writes a page or fragment with its status.
func (q *request) render(status int, page templ.Component) error {
	q.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	q.w.WriteHeader(status)
	return page.Render(q.ctx(), q.w)
}

// redirect ends a successful POST: the next page shows msg once.
func (q *request) redirect(to, msg string) error {
	if msg != "" {
		if err := q.c.svc.Admin.SetFlash(q.ctx(), q.sess, msg); err != nil {
			return err
		}
	}
	http.Redirect(q.w, q.r, to, http.StatusSeeOther)
	return nil
}

// htmx reports whether htmx sent the request, which then wants a fragment, not a page.
func (q *request) htmx() bool { return q.r.Header.Get("HX-Request") == "true" }

// pageContext is what every page's layout needs, carried in the render context.
type pageContext struct {
	Shop  *ent.Shop
	CSRF  string
	Flash string
	Path  string
}

type pageContextKey struct{}

func pageOf(ctx context.Context) *pageContext {
	if p, ok := ctx.Value(pageContextKey{}).(*pageContext); ok {
		return p
	}
	return &pageContext{}
}

// csrfField is the hidden CSRF input every form of the console carries.
const csrfField = "csrf_token"

// admin authenticates a console request by its session, refuses a POST without the session's
// CSRF token, and runs fn with the session's shop.
func (c *Console) admin(fn func(q *request) error) http.Handler {
	return secured(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var sess *admin.Session
		if ck, err := r.Cookie(sessionCookie); err == nil {
			if sess, err = c.svc.Admin.Session(r.Context(), ck.Value); err != nil {
				c.unavailable(w, r, err)
				return
			}
		}
		if sess == nil {
			c.toSignin(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := r.ParseForm(); err != nil {
				http.Error(w, "malformed form", http.StatusBadRequest)
				return
			}
			token := r.Header.Get("X-CSRF-Token")
			if token == "" {
				token = r.PostForm.Get(csrfField)
			}
			if !tokensEqual(token, sess.CSRF) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusForbidden)
				_ = refusedPage().Render(r.Context(), w)
				return
			}
		}
		pc := &pageContext{Shop: sess.Shop, CSRF: sess.CSRF, Path: r.URL.Path}
		q := &request{w: w, r: r.WithContext(context.WithValue(r.Context(), pageContextKey{}, pc)), c: c, sess: sess, shop: sess.Shop}
		if r.Method == http.MethodGet && !q.htmx() {
			flash, err := c.svc.Admin.TakeFlash(q.ctx(), sess)
			if err != nil {
				c.fail(q, err)
				return
			}
			pc.Flash = flash
		}
		if err := fn(q); err != nil {
			c.fail(q, err)
		}
	}))
}

// unavailable answers a request that failed before it had a session to render with (the sessions
// could not be read or written): a 500 that says nothing more, the error in the log.
func (c *Console) unavailable(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	c.log.ErrorContext(r.Context(), "admin console session", "path", r.URL.Path, "error", err)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	_ = errorPage("Something went wrong on our side; the error is in the server's log.").Render(r.Context(), w)
}

// toSignin sends a visitor without a live session to the sign-in page, and back afterwards.
func (c *Console) toSignin(w http.ResponseWriter, r *http.Request) {
	next := "/admin"
	if r.Method == http.MethodGet {
		next = r.URL.RequestURI()
	}
	to := "/admin/signin?next=" + url.QueryEscape(next)
	if r.Header.Get("HX-Request") == "true" {
		// htmx would swap the sign-in page into a fragment; it follows HX-Redirect instead.
		w.Header().Set("HX-Redirect", to)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// StatusOf is the status of the page a problem of each kind is shown on: the one place the
// console decides it.
func StatusOf(k problem.Kind) int {
	switch k {
	case problem.Unauthorized:
		return http.StatusUnauthorized
	case problem.NotFound:
		return http.StatusNotFound
	case problem.Conflict:
		return http.StatusConflict
	case problem.Invalid:
		return http.StatusUnprocessableEntity
	case problem.Unavailable:
		return http.StatusServiceUnavailable
	case problem.Internal:
		return http.StatusInternalServerError
	}
	return http.StatusBadRequest
}

// fail answers an error no handler turned into a form: a service error as a page saying what
// went wrong, anything else as a 500 that says nothing more.
func (c *Console) fail(q *request, err error) {
	if se, ok := problem.As(err); ok {
		_ = q.render(StatusOf(se.Kind), errorPage(se.Message))
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	c.log.ErrorContext(q.ctx(), "admin console", "path", q.r.URL.Path, "error", err)
	_ = q.render(http.StatusInternalServerError, errorPage("Something went wrong on our side; the error is in the server's log."))
}
