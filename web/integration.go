package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/override"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) integrationRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/integration", c.admin(c.integration))
	mux.Handle("POST /admin/integration", c.admin(c.configureSharedSecret))
	mux.Handle("GET /admin/remote-state-authority", c.admin(c.remoteStateAuthority))
	mux.Handle("POST /admin/remote-state-authority", c.admin(c.saveRemoteStateAuthority))
	mux.Handle("GET /admin/remote-state-authority/delete", c.admin(c.confirmDeleteRemoteStateAuthority))
	mux.Handle("POST /admin/remote-state-authority/delete", c.admin(c.deleteRemoteStateAuthority))
}

func maskedSharedSecret(sh *ent.Shop) string {
	if sh.SharedSecret == "" {
		return ""
	}
	return shops.MaskSecret(sh.SharedSecret)
}

func (c *Console) integration(q *request) error {
	return q.render(http.StatusOK, integrationPage(maskedSharedSecret(q.shop), newForm(nil)))
}

func (c *Console) configureSharedSecret(q *request) error {
	if _, err := c.svc.Shops.ConfigureSharedSecret(q.ctx(), q.shop, q.r.PostForm.Get("shared_secret")); err != nil {
		f, err := invalid(url.Values{}, err)
		if err != nil {
			return err
		}
		return q.render(http.StatusUnprocessableEntity, integrationPage(maskedSharedSecret(q.shop), f))
	}
	return q.redirect("/admin/integration", "Shared secret saved: webhook callbacks are signed with it from now on.")
}

func (c *Console) remoteStateAuthority(q *request) error {
	rsa, err := c.svc.Shops.RSAConfig(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	f := newForm(url.Values{"timeout_ms": {strconv.Itoa(override.DefaultTimeoutMS)}})
	if rsa != nil {
		f.Values.Set("url", rsa.URL)
		f.Values.Set("timeout_ms", strconv.Itoa(rsa.TimeoutMs))
	}
	return q.render(http.StatusOK, remoteStateAuthorityPage(rsa, f))
}

// saveRemoteStateAuthority creates the configuration, or changes it: a blank secret or timeout
// then keeps the stored one (the console never shows the secret).
func (c *Console) saveRemoteStateAuthority(q *request) error {
	rsa, err := c.svc.Shops.RSAConfig(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	d := newDecoder(q.r.PostForm)
	urlValue := d.str("url")
	in := shops.RSAConfigInput{URL: &urlValue, TimeoutMS: d.integer("timeout_ms")}
	if secret := q.r.PostForm.Get("shared_secret"); secret != "" || rsa == nil {
		in.SharedSecret = &secret
	}
	if !d.ok() {
		return q.render(http.StatusUnprocessableEntity, remoteStateAuthorityPage(rsa, decodeError(withoutSecret(q.r.PostForm, "shared_secret"), d.problems)))
	}
	if rsa == nil {
		_, err = c.svc.Shops.CreateRSAConfig(q.ctx(), q.shop, in)
	} else {
		_, err = c.svc.Shops.UpdateRSAConfig(q.ctx(), q.shop, in)
	}
	if err != nil {
		f, err := invalid(withoutSecret(q.r.PostForm, "shared_secret"), err)
		if err != nil {
			return err
		}
		return q.render(http.StatusUnprocessableEntity, remoteStateAuthorityPage(rsa, f))
	}
	return q.redirect("/admin/remote-state-authority", "Remote state authority saved.")
}

func (c *Console) confirmDeleteRemoteStateAuthority(q *request) error {
	return q.render(http.StatusOK, confirmPage("Remove the remote state authority", "Stop sending checkout events to the remote state authority? The checkout then decides on its own.",
		"/admin/remote-state-authority/delete", "/admin/remote-state-authority", "Remove it", nil))
}

func (c *Console) deleteRemoteStateAuthority(q *request) error {
	if err := c.svc.Shops.DeleteRSAConfig(q.ctx(), q.shop); err != nil {
		return err
	}
	return q.redirect("/admin/remote-state-authority", "Remote state authority removed.")
}
