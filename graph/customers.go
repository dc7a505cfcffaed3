package graph

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"entgo.io/contrib/entgql"

	"github.com/checkoutd/checkoutd/graph/model"
	"github.com/checkoutd/checkoutd/service/customers"
)

// customerListArgs are the arguments of Query.customers, which the REST list's query
// parameters say the same of: the service reads them as those.
type customerListArgs struct {
	first, last                *int
	after, before, search      *string
	filter                     []string
	ids                        []int
	sinceID                    *int
	updatedAtMin, updatedAtMax *time.Time
	orderBy                    *model.CustomerOrderField
	orderDirection             *entgql.OrderDirection
	includeDeleted             *bool
}

func (a customerListArgs) query() url.Values {
	q := url.Values{}
	setInt := func(k string, v *int) {
		if v != nil {
			q.Set(k, strconv.Itoa(*v))
		}
	}
	setText := func(k string, v *string) {
		if v != nil {
			q.Set(k, *v)
		}
	}
	setInt("limit", a.first)
	if a.before != nil && a.last != nil {
		setInt("limit", a.last)
	}
	setText("after", a.after)
	setText("before", a.before)
	setText("search", a.search)
	setInt("since_id", a.sinceID)
	if a.filter != nil {
		q["filter"] = a.filter
	}
	if len(a.ids) > 0 {
		ids := make([]string, len(a.ids))
		for i, id := range a.ids {
			ids[i] = strconv.Itoa(id)
		}
		q.Set("ids", strings.Join(ids, ","))
	}
	for k, v := range map[string]*time.Time{"updated_at_min": a.updatedAtMin, "updated_at_max": a.updatedAtMax} {
		if v != nil {
			q.Set(k, v.Format(time.RFC3339Nano))
		}
	}
	if a.orderBy != nil {
		q.Set("orderby", strings.ToLower(string(*a.orderBy)))
	}
	if a.orderDirection != nil {
		q.Set("orderdirection", strings.ToLower(a.orderDirection.String()))
	}
	if a.includeDeleted != nil {
		q.Set("include_deleted", strconv.FormatBool(*a.includeDeleted))
	}
	return q
}

func customerConnection(page *customers.Page) *model.CustomerConnection {
	c := &model.CustomerConnection{TotalCount: page.Pagination.Total, Edges: make([]*model.CustomerEdge, len(page.Customers)),
		PageInfo: &model.CustomerPageInfo{HasNextPage: page.Pagination.Next != nil && page.Pagination.Next.Get("after") != "",
			HasPreviousPage: page.Pagination.Previous != nil && page.Pagination.Previous.Get("before") != ""}}
	for i, cu := range page.Customers {
		c.Edges[i] = &model.CustomerEdge{Node: cu, Cursor: page.Cursors[i]}
	}
	if n := len(page.Cursors); n > 0 {
		c.PageInfo.StartCursor, c.PageInfo.EndCursor = &page.Cursors[0], &page.Cursors[n-1]
	}
	return c
}
