package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/checkoutd/checkoutd/service/admin"
)

// paginationOf links the pages of a listing, keeping the request's other query parameters
// (a listing's search and filters).
func paginationOf[T any](r *http.Request, p admin.Page[T]) pagination {
	pages := (p.Total + p.PerPage - 1) / max(p.PerPage, 1)
	base := *r.URL
	return pagination{Page: p.Page, Pages: pages, Total: p.Total, URL: func(n int) string {
		q := url.Values{}
		for k, v := range base.Query() {
			q[k] = v
		}
		q.Set("page", strconv.Itoa(n))
		return base.Path + "?" + q.Encode()
	}}
}
