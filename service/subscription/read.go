package subscription

import (
	"context"
	"encoding/base64"
	"strconv"

	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/subscription"
	"github.com/checkoutd/checkoutd/ent/subscriptionaddress"
	"github.com/checkoutd/checkoutd/ent/subscriptionlineitem"
	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Page bounds of List Subscriptions.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	// MaxListValues bounds the values of one repeatable query parameter.
	MaxListValues = 100
)

// Columns are the subscription columns a list's filter may name (docs/filters.md).
var Columns = filter.Columns{
	"id":                           filter.Int(subscription.FieldID),
	"customer_id":                  filter.Int(subscription.FieldCustomerID),
	"service_platform_customer_id": filter.Text(subscription.FieldCustomerPlatformID),
	"external_id":                  filter.Text(subscription.FieldExternalID),
	"subscription_status":          filter.Text(subscription.FieldSubscriptionStatus),
	"discount_code":                filter.Text(subscription.FieldDiscountCode),
	"charged_currency":             filter.Text(subscription.FieldChargedCurrency),
	"base_currency":                filter.Text(subscription.FieldBaseCurrency),
	"orders_processed":             filter.Int(subscription.FieldOrdersProcessed),
	"current_retries":              filter.Int(subscription.FieldCurrentRetries),
	"next_order_datetime":          filter.Time(subscription.FieldNextOrderDatetime),
	"last_order_datetime":          filter.Time(subscription.FieldLastOrderDatetime),
	"created_at":                   filter.Time(subscription.FieldCreatedAt),
	"updated_at":                   filter.Time(subscription.FieldUpdatedAt),
}

func notFound() *problem.Error {
	return problem.NotFoundError("subscription.not_found", "the shop has no such subscription")
}

func withParts(q *ent.SubscriptionQuery) *ent.SubscriptionQuery {
	return q.WithLineItems(func(q *ent.SubscriptionLineItemQuery) {
		q.Order(ent.Asc(subscriptionlineitem.FieldPosition), ent.Asc(subscriptionlineitem.FieldID))
	}).WithAddresses(func(q *ent.SubscriptionAddressQuery) { q.Order(ent.Asc(subscriptionaddress.FieldID)) })
}

// Subscription is the shop's subscription id.
func (s *Service) Subscription(ctx context.Context, sh *ent.Shop, id int, expandCustomer bool) (*View, error) {
	row, err := withParts(s.p.DB.Read.Subscription.Query().Where(subscription.ShopID(sh.ID), subscription.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, notFound()
	}
	if err != nil {
		return nil, err
	}
	return viewOf(sh, row, expandCustomer), nil
}

// ListQuery is List Subscriptions' query.
type ListQuery struct {
	Statuses            []string
	PlatformCustomerIDs []string
	ExpandCustomer      bool
	// Limit is the page size; 0 is DefaultLimit.
	Limit  int
	Filter []string
	Cursor string
}

// Pagination is a page's place in the whole list: Next is the cursor of the page after it, nil
// on the last.
type Pagination struct {
	Total      int     `json:"total"`
	Count      int     `json:"count"`
	PerPage    int     `json:"per_page"`
	TotalPages int     `json:"total_pages"`
	Next       *string `json:"next"`
}

// List is a page of subscriptions.
type List struct {
	Subscriptions []*View    `json:"subscriptions"`
	Pagination    Pagination `json:"pagination"`
	// Cursors are each subscription's cursor: a list after it starts with the next one.
	Cursors []string `json:"-"`
}

func invalidQuery(field, message string) *problem.Error {
	return problem.Validation("subscription.invalid_query", message, map[string]any{"field": field})
}

// ListSubscriptions is a page of the shop's subscriptions in id order, after the cursor: keyset
// pagination, so a page costs the same wherever it is and a walk meets each row once.
func (s *Service) ListSubscriptions(ctx context.Context, sh *ent.Shop, q ListQuery) (*List, error) {
	limit := q.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	if limit < 1 || limit > MaxLimit {
		return nil, invalidQuery("limit", "limit must be from 1 to 100")
	}
	if len(q.Statuses) > MaxListValues || len(q.PlatformCustomerIDs) > MaxListValues {
		return nil, invalidQuery("subscription_status", "at most 100 values of one parameter")
	}
	where := []predicate.Subscription{subscription.ShopID(sh.ID)}
	if len(q.Statuses) > 0 {
		st := make([]subscription.SubscriptionStatus, len(q.Statuses))
		for i, v := range q.Statuses {
			if !statuses[v] {
				return nil, invalidQuery("subscription_status", "subscription_status must be active, inactive, processing, scheduled or paused")
			}
			st[i] = subscription.SubscriptionStatus(v)
		}
		where = append(where, subscription.SubscriptionStatusIn(st...))
	}
	if len(q.PlatformCustomerIDs) > 0 {
		where = append(where, subscription.CustomerPlatformIDIn(q.PlatformCustomerIDs...))
	}
	if len(q.Filter) > 0 {
		f, err := filter.Parse(q.Filter, Columns)
		if err != nil {
			return nil, err
		}
		where = append(where, predicate.Subscription(f.Predicate()))
	}
	total, err := s.p.DB.Read.Subscription.Query().Where(where...).Count(ctx)
	if err != nil {
		return nil, err
	}
	if q.Cursor != "" {
		after, err := readCursor(q.Cursor)
		if err != nil {
			return nil, err
		}
		where = append(where, subscription.IDGT(after))
	}
	rows, err := withParts(s.p.DB.Read.Subscription.Query().Where(where...)).
		Order(func(sel *sql.Selector) { sel.OrderBy(sel.C(subscription.FieldID)) }).Limit(limit + 1).All(ctx)
	if err != nil {
		return nil, err
	}
	out := &List{Subscriptions: make([]*View, 0, limit)}
	var next *string
	if len(rows) > limit {
		rows = rows[:limit]
		c := cursorOf(rows[limit-1].ID)
		next = &c
	}
	out.Cursors = make([]string, 0, len(rows))
	for _, r := range rows {
		out.Subscriptions = append(out.Subscriptions, viewOf(sh, r, q.ExpandCustomer))
		out.Cursors = append(out.Cursors, cursorOf(r.ID))
	}
	out.Pagination = Pagination{Total: total, Count: len(rows), PerPage: limit, TotalPages: (total + limit - 1) / limit, Next: next}
	return out, nil
}

func cursorOf(id int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("s" + strconv.Itoa(id)))
}

func readCursor(c string) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 2 || len(b) > 21 || b[0] != 's' {
		return 0, invalidQuery("cursor", "cursor is not one a list answered")
	}
	id, err := strconv.Atoi(string(b[1:]))
	if err != nil || id < 0 {
		return 0, invalidQuery("cursor", "cursor is not one a list answered")
	}
	return id, nil
}
