package web

import (
	"net/http"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/problem"
)

func (c *Console) corsRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/cors", c.admin(c.cors))
	mux.Handle("POST /admin/cors", c.admin(c.addCorsDomain))
	mux.Handle("GET /admin/cors/{id}/delete", c.admin(c.confirmDeleteCorsDomain))
	mux.Handle("POST /admin/cors/{id}/delete", c.admin(c.deleteCorsDomain))
}

func (c *Console) corsPage(q *request, status int, f form) error {
	all, err := c.svc.Shops.CorsDomains(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	page := admin.PageOf(all, pageRequest(q.r))
	return q.render(status, corsPage(page.Items, f, paginationOf(q.r, page)))
}

func (c *Console) cors(q *request) error { return c.corsPage(q, http.StatusOK, newForm(nil)) }

func (c *Console) addCorsDomain(q *request) error {
	if _, err := c.svc.Shops.AddCorsDomain(q.ctx(), q.shop, q.r.PostForm.Get("domain")); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.corsPage(q, http.StatusUnprocessableEntity, f)
	}
	return q.redirect("/admin/cors", "Domain allowed.")
}

func (c *Console) findCorsDomain(q *request) (*ent.CorsDomain, error) {
	all, err := c.svc.Shops.CorsDomains(q.ctx(), q.shop)
	if err != nil {
		return nil, err
	}
	for _, d := range all {
		if strconv.Itoa(d.ID) == q.r.PathValue("id") {
			return d, nil
		}
	}
	return nil, &problem.Error{Kind: problem.NotFound, Type: "cors.domain_not_found", Message: "no domain in the allowlist with that domain_id"}
}

func (c *Console) confirmDeleteCorsDomain(q *request) error {
	d, err := c.findCorsDomain(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Remove domain", "Remove "+d.Domain+" from the allowlist? Storefronts served from it can no longer call the checkout.",
		"/admin/cors/"+strconv.Itoa(d.ID)+"/delete", "/admin/cors", "Remove domain", nil))
}

func (c *Console) deleteCorsDomain(q *request) error {
	d, err := c.findCorsDomain(q)
	if err != nil {
		return err
	}
	if err := c.svc.Shops.DeleteCorsDomain(q.ctx(), q.shop, d.ID); err != nil {
		return err
	}
	return q.redirect("/admin/cors", d.Domain+" removed.")
}
