package web

import (
	"net/http"
	"net/url"

	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/problem"
)

func (c *Console) customerRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/customers", c.admin(c.customers))
}

// customers lists the shop's customers with the REST list's search and keyset pages; htmx
// swaps the list as a search is typed. A search the list refuses (a word too short) says why
// in place of the list.
func (c *Console) customers(q *request) error {
	query := url.Values{"limit": {"25"}}
	for _, k := range []string{"search", "after", "before", "page"} {
		if v := q.r.URL.Query().Get(k); v != "" {
			query.Set(k, v)
		}
	}
	search := query.Get("search")
	page, err := c.svc.Customers.List(q.ctx(), q.shop, query)
	if p, ok := problem.As(err); ok && p.Kind == problem.Malformed {
		return q.render(http.StatusOK, customersPage(search, &customers.Page{}, keysetLinks{}, p.Message))
	}
	if err != nil {
		return err
	}
	links := keysetLinksOf(q.r, page.Pagination)
	return q.render(http.StatusOK, customersPage(search, page, links, ""))
}
