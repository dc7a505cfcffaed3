package web

import (
	"net/http"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/remoteexchange"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/remotelog"
)

// remoteExchangesPath is the support log of the calls to the remote state authority and the
// API overrides.
const remoteExchangesPath = "/admin/remote-exchanges"

func (c *Console) remoteExchangeRoutes(mux *http.ServeMux) {
	mux.Handle("GET "+remoteExchangesPath, c.admin(c.remoteExchanges))
}

func (c *Console) remoteExchanges(q *request) error {
	f := remotelog.Filter{Kind: q.r.URL.Query().Get("kind"), PublicOrderID: strings.TrimSpace(q.r.URL.Query().Get("public_order_id"))}
	exchanges, err := c.svc.RemoteLog.Exchanges(q.shop, f)
	if err != nil {
		return err
	}
	page, err := admin.Paged[*ent.RemoteExchange](q.ctx(), exchanges.Order(ent.Desc(remoteexchange.FieldAt), ent.Desc(remoteexchange.FieldID)), pageRequest(q.r))
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, remoteExchangesPage(page.Items, f, paginationOf(q.r, page)))
}
