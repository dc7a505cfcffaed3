package web

import (
	"net/http"
	"net/url"

	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) flowRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/flows", c.admin(c.flows))
	mux.Handle("POST /admin/flows", c.admin(c.registerFlow))
	mux.Handle("POST /admin/flows/{id}/enable", c.admin(c.enableFlow))
	mux.Handle("POST /admin/flows/{id}/disable", c.admin(c.disableFlow))
}

func (c *Console) flowsPage(q *request, status int, f form) error {
	enabled, err := c.svc.Shops.EnabledFlows(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	available, err := c.svc.Shops.AvailableFlows(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	req := pageRequest(q.r)
	ep, ap := admin.PageOf(enabled, req), admin.PageOf(available, req)
	// One pager for both lists: they are two halves of the shop's flows.
	both := admin.Page[shops.FlowSummary]{Total: max(ep.Total, ap.Total), Page: ep.Page, PerPage: ep.PerPage}
	return q.render(status, flowsPage(ep.Items, ap.Items, f, paginationOf(q.r, both)))
}

func (c *Console) flows(q *request) error { return c.flowsPage(q, http.StatusOK, newForm(nil)) }

func (c *Console) registerFlow(q *request) error {
	in := shops.RegisterFlowInput{FlowID: newDecoder(q.r.PostForm).str("flow_id"), FlowName: newDecoder(q.r.PostForm).str("flow_name"), FlowType: "custom"}
	if _, err := c.svc.Shops.RegisterCustomFlow(q.ctx(), q.shop, in); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.flowsPage(q, http.StatusUnprocessableEntity, f)
	}
	return q.redirect("/admin/flows", "Flow "+in.FlowName+" registered: it is available to enable.")
}

func (c *Console) enableFlow(q *request) error {
	if _, err := c.svc.Shops.EnableFlow(q.ctx(), q.shop, q.r.PathValue("id")); err != nil {
		return c.flowProblem(q, err)
	}
	return q.redirect("/admin/flows", "Flow "+q.r.PathValue("id")+" enabled.")
}

func (c *Console) disableFlow(q *request) error {
	if _, err := c.svc.Shops.DisableFlow(q.ctx(), q.shop, q.r.PathValue("id")); err != nil {
		return c.flowProblem(q, err)
	}
	return q.redirect("/admin/flows", "Flow "+q.r.PathValue("id")+" disabled.")
}

// flowProblem shows a refused enable or disable (already enabled, say) on the flows page.
func (c *Console) flowProblem(q *request, err error) error {
	f, err := invalid(url.Values{}, err)
	if err != nil {
		return err
	}
	return c.flowsPage(q, http.StatusUnprocessableEntity, f)
}
