package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/checkoutd/checkoutd/service/problem"
)

func csrfHeader(ctx context.Context) string {
	b, _ := json.Marshal(map[string]string{"X-CSRF-Token": pageOf(ctx).CSRF})
	return string(b)
}

// safeNext keeps the after-sign-in destination inside the console, so that the sign-in page
// cannot be used to send an admin elsewhere.
func safeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || !strings.HasPrefix(u.Path, "/admin") || strings.HasPrefix(next, "//") {
		return "/admin"
	}
	return u.RequestURI()
}

// signinPage shows the sign-in form with a fresh CSRF token, kept in a short-lived cookie until
// the form comes back (there is no session yet to keep it in).
func (c *Console) signinPage(w http.ResponseWriter, r *http.Request) {
	token := randomToken()
	setCookie(w, r, signinCookie, token, 3600)
	f := newForm(url.Values{"next": {safeNext(r.URL.Query().Get("next"))}})
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = signinPage(f, token).Render(r.Context(), w)
}

func (c *Console) signin(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "malformed form", http.StatusBadRequest)
		return
	}
	ck, err := r.Cookie(signinCookie)
	if err != nil || !tokensEqual(ck.Value, r.PostForm.Get(csrfField)) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		_ = refusedPage().Render(r.Context(), w)
		return
	}
	identifier := strings.TrimSpace(r.PostForm.Get("shop_identifier"))
	sh, err := c.svc.Shops.AuthenticateShop(r.Context(), identifier, strings.TrimSpace(r.PostForm.Get("access_token")))
	if err != nil {
		if _, ok := problem.As(err); !ok {
			c.log.ErrorContext(r.Context(), "admin sign-in", "error", err)
		}
		// The token is never shown back; a wrong token and an unknown shop read alike.
		f := newForm(url.Values{"shop_identifier": {identifier}, "next": {safeNext(r.PostForm.Get("next"))}})
		f.Message = "That shop identifier and access token do not match."
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_ = signinPage(f, ck.Value).Render(r.Context(), w)
		return
	}
	replaced := ""
	if old, err := r.Cookie(sessionCookie); err == nil {
		replaced = old.Value
	}
	token, err := c.svc.Admin.StartSession(r.Context(), sh, replaced)
	if err != nil {
		c.unavailable(w, r, err)
		return
	}
	setCookie(w, r, sessionCookie, token, 0)
	setCookie(w, r, signinCookie, "", -1)
	http.Redirect(w, r, safeNext(r.PostForm.Get("next")), http.StatusSeeOther)
}

func (c *Console) signout(q *request) error {
	ck, err := q.r.Cookie(sessionCookie)
	if err != nil {
		return err
	}
	if err := c.svc.Admin.EndSession(q.ctx(), ck.Value); err != nil {
		return err
	}
	setCookie(q.w, q.r, sessionCookie, "", -1)
	http.Redirect(q.w, q.r, "/admin/signin", http.StatusSeeOther)
	return nil
}
