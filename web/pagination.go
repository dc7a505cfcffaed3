package web

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/filter"
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

// keysetLinks are a keyset list's pages before and after this one (the read interfaces' lists,
// service/filter), on the console's path; empty where there is none.
type keysetLinks struct {
	Pagination     filter.Pagination
	Previous, Next string
}

func keysetLinksOf(r *http.Request, p filter.Pagination) keysetLinks {
	return keysetLinks{Pagination: p, Previous: consoleLink(r, p.Previous), Next: consoleLink(r, p.Next)}
}

// consoleLink is the page's own address with the list's cursor parameters set (a nil value
// removes one), keeping its search.
func consoleLink(r *http.Request, v url.Values) string {
	if v == nil {
		return ""
	}
	q := r.URL.Query()
	for k, val := range v {
		if val == nil {
			q.Del(k)
		} else {
			q[k] = val
		}
	}
	return r.URL.Path + "?" + q.Encode()
}
