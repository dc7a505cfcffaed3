package web

import (
	"net/http"
	"net/url"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) apiOverrideRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/api-overrides", c.admin(c.apiOverrides))
	mux.Handle("GET /admin/api-overrides/new", c.admin(c.newAPIOverride))
	mux.Handle("POST /admin/api-overrides", c.admin(c.createAPIOverride))
	mux.Handle("GET /admin/api-overrides/{id}", c.admin(c.editAPIOverride))
	mux.Handle("POST /admin/api-overrides/{id}", c.admin(c.updateAPIOverride))
	mux.Handle("GET /admin/api-overrides/{id}/delete", c.admin(c.confirmDeleteAPIOverride))
	mux.Handle("POST /admin/api-overrides/{id}/delete", c.admin(c.deleteAPIOverride))
}

func (c *Console) apiOverrides(q *request) error {
	all, err := c.svc.Shops.APIOverrides(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	page := admin.PageOf(all, pageRequest(q.r))
	return q.render(http.StatusOK, apiOverridesPage(page.Items, paginationOf(q.r, page)))
}

func (c *Console) findAPIOverride(q *request) (*ent.APIOverride, error) {
	all, err := c.svc.Shops.APIOverrides(q.ctx(), q.shop)
	if err != nil {
		return nil, err
	}
	for _, o := range all {
		if o.PublicID == q.r.PathValue("id") {
			return o, nil
		}
	}
	return nil, &problem.Error{Kind: problem.NotFound, Type: "api_override.not_found", Message: "no API override with public_id " + q.r.PathValue("id")}
}

func (c *Console) newAPIOverride(q *request) error {
	return q.render(http.StatusOK, apiOverridePage("New API override", "/admin/api-overrides", nil, newForm(nil)))
}

// apiOverrideInput decodes the override form; a blank secret on an edit keeps the stored one.
func apiOverrideInput(values url.Values, creating bool) shops.APIOverrideInput {
	d := newDecoder(values)
	typ, u := d.str("override_type"), d.str("url")
	in := shops.APIOverrideInput{OverrideType: &typ, URL: &u}
	if secret := values.Get("shared_secret"); secret != "" || creating {
		in.SharedSecret = &secret
	}
	if typ == "" && creating {
		in.OverrideType = nil
	}
	return in
}

func (c *Console) createAPIOverride(q *request) error {
	o, err := c.svc.Shops.CreateAPIOverride(q.ctx(), q.shop, apiOverrideInput(q.r.PostForm, true))
	if err == nil {
		return q.redirect("/admin/api-overrides", "Override of "+o.OverrideType+" created.")
	}
	f, err := invalid(withoutSecret(q.r.PostForm, "shared_secret"), err)
	if err != nil {
		return err
	}
	return q.render(http.StatusUnprocessableEntity, apiOverridePage("New API override", "/admin/api-overrides", nil, f))
}

func (c *Console) editAPIOverride(q *request) error {
	o, err := c.findAPIOverride(q)
	if err != nil {
		return err
	}
	f := newForm(url.Values{"override_type": {o.OverrideType}, "url": {o.URL}})
	return q.render(http.StatusOK, apiOverridePage("Edit API override", "/admin/api-overrides/"+o.PublicID, o, f))
}

func (c *Console) updateAPIOverride(q *request) error {
	o, err := c.findAPIOverride(q)
	if err != nil {
		return err
	}
	saved, err := c.svc.Shops.UpdateAPIOverride(q.ctx(), q.shop, o.PublicID, apiOverrideInput(q.r.PostForm, false))
	if err == nil {
		return q.redirect("/admin/api-overrides", "Override of "+saved.OverrideType+" saved.")
	}
	f, err := invalid(withoutSecret(q.r.PostForm, "shared_secret"), err)
	if err != nil {
		return err
	}
	return q.render(http.StatusUnprocessableEntity, apiOverridePage("Edit API override", "/admin/api-overrides/"+o.PublicID, o, f))
}

func (c *Console) confirmDeleteAPIOverride(q *request) error {
	o, err := c.findAPIOverride(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete API override", "Delete the "+o.OverrideType+" override? checkoutd does "+o.OverrideType+" itself again.",
		"/admin/api-overrides/"+o.PublicID+"/delete", "/admin/api-overrides", "Delete override", nil))
}

func (c *Console) deleteAPIOverride(q *request) error {
	if err := c.svc.Shops.DeleteAPIOverride(q.ctx(), q.shop, q.r.PathValue("id")); err != nil {
		return err
	}
	return q.redirect("/admin/api-overrides", "API override deleted.")
}
