package rest

import (
	"net/http"
	"net/url"

	"github.com/checkoutd/checkoutd/service/filter"
)

// paginationJSON is the spec's pagination attributes.
type paginationJSON struct {
	Total       int     `json:"total"`
	Count       int     `json:"count"`
	PerPage     int     `json:"per_page"`
	CurrentPage int     `json:"current_page"`
	TotalPages  int     `json:"total_pages"`
	NextURL     *string `json:"next_url"`
	PreviousURL *string `json:"previous_url"`
}

// paginationBody gives the links as the list's own URL (its path and query as the caller sent
// them, on the host it called) with the page's position set.
func paginationBody(r *http.Request, p filter.Pagination) paginationJSON {
	self := &url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: r.URL.RawQuery}
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		self.Scheme = "https"
	}
	link := func(v url.Values) *string {
		if v == nil {
			return nil
		}
		s := filter.Link(self, v)
		return &s
	}
	return paginationJSON{Total: p.Total, Count: p.Count, PerPage: p.PerPage, CurrentPage: p.CurrentPage,
		TotalPages: p.TotalPages, NextURL: link(p.Next), PreviousURL: link(p.Previous)}
}
