package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/override"
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
	f := newForm(url.Values{"timeout_ms": {strconv.Itoa(override.DefaultTimeoutMS)}})
	return q.render(http.StatusOK, apiOverridePage("New API override", "/admin/api-overrides", nil, f))
}

// apiOverrideInput decodes the override form: a blank secret on an edit keeps the stored one, a
// blank failure policy (offered on a new override only) is the type's default, a blank timeout
// the service's default on a new override and the stored one on an edit.
func apiOverrideInput(d *decoder, creating bool) shops.APIOverrideInput {
	typ, u := d.str("override_type"), d.str("url")
	in := shops.APIOverrideInput{OverrideType: &typ, URL: &u, FailurePolicy: d.optional("failure_policy"), TimeoutMS: d.integer("timeout_ms")}
	if secret := d.values.Get("shared_secret"); secret != "" || creating {
		in.SharedSecret = &secret
	}
	if typ == "" && creating {
		in.OverrideType = nil
	}
	return in
}

func (c *Console) createAPIOverride(q *request) error {
	d := newDecoder(q.r.PostForm)
	in := apiOverrideInput(d, true)
	if !d.ok() {
		return q.render(http.StatusUnprocessableEntity, apiOverridePage("New API override", "/admin/api-overrides", nil,
			decodeError(withoutSecret(q.r.PostForm, "shared_secret"), d.problems)))
	}
	o, err := c.svc.Shops.CreateAPIOverride(q.ctx(), q.shop, in)
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
	f := newForm(url.Values{"override_type": {o.OverrideType}, "url": {o.URL}, "failure_policy": {shops.EffectivePolicy(o)},
		"timeout_ms": {strconv.Itoa(o.TimeoutMs)}})
	return q.render(http.StatusOK, apiOverridePage("Edit API override", "/admin/api-overrides/"+o.PublicID, o, f))
}

func (c *Console) updateAPIOverride(q *request) error {
	o, err := c.findAPIOverride(q)
	if err != nil {
		return err
	}
	d := newDecoder(q.r.PostForm)
	in := apiOverrideInput(d, false)
	if !d.ok() {
		return q.render(http.StatusUnprocessableEntity, apiOverridePage("Edit API override", "/admin/api-overrides/"+o.PublicID, o,
			decodeError(withoutSecret(q.r.PostForm, "shared_secret"), d.problems)))
	}
	saved, err := c.svc.Shops.UpdateAPIOverride(q.ctx(), q.shop, o.PublicID, in)
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

// defaultPolicies is the failure policy each type gets when a new override leaves it to its
// type (override.DefaultPolicy), in one sentence.
func defaultPolicies() string {
	var parts []string
	for _, p := range override.Policies {
		var types []string
		for _, t := range shops.APIOverrideTypes {
			if override.DefaultPolicy(t) == p {
				types = append(types, t)
			}
		}
		if len(types) > 0 {
			parts = append(parts, p+" for "+inWords(types))
		}
	}
	return "Left to its type, a new override gets " + strings.Join(parts, ", and ") + "."
}

// inWords joins a list as a sentence does: "a, b and c".
func inWords(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// remoteTimeoutHint gives the bounds of an override's or the remote state authority's
// timeout_ms (override.CheckTimeout's), what a blank field means, and what a late answer does.
func remoteTimeoutHint(creating bool, late string) string {
	blank := "left blank, it stays as it is"
	if creating {
		blank = strconv.Itoa(override.DefaultTimeoutMS) + " if left blank"
	}
	return "How long each call may wait for an answer, in milliseconds: from " + strconv.Itoa(override.MinTimeoutMS) + " to " +
		strconv.Itoa(override.MaxTimeoutMS) + " (" + blank + "). " + late
}
