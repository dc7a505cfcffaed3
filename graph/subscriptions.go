package graph

import (
	"github.com/checkoutd/checkoutd/graph/model"
	"github.com/checkoutd/checkoutd/service/subscription"
)

// subscriptionConnection is a page of List Subscriptions as a Relay connection; after is the
// cursor the page was asked after.
func subscriptionConnection(list *subscription.List, after *string) *model.CustomerSubscriptionConnection {
	c := &model.CustomerSubscriptionConnection{TotalCount: list.Pagination.Total, Edges: make([]*model.CustomerSubscriptionEdge, len(list.Subscriptions)),
		PageInfo: &model.CustomerSubscriptionPageInfo{HasNextPage: list.Pagination.Next != nil, HasPreviousPage: after != nil && *after != ""}}
	for i, v := range list.Subscriptions {
		c.Edges[i] = &model.CustomerSubscriptionEdge{Node: v, Cursor: list.Cursors[i]}
	}
	if n := len(list.Cursors); n > 0 {
		c.PageInfo.StartCursor, c.PageInfo.EndCursor = &list.Cursors[0], &list.Cursors[n-1]
	}
	return c
}
