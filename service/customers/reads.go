package customers

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/ent/customeraddress"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// The read interfaces of customers (the spec's "Read interfaces"): get, list, addresses. A
// customer the platform deleted is left out unless include_deleted asks for it.

// Columns are the columns a customer list's filter may name (docs/filters.md "Customers").
var Columns = filter.Columns{
	"id":                  filter.Int(customer.FieldID),
	"platform_id":         filter.Text(customer.FieldPlatformID),
	"first_name":          filter.Text(customer.FieldFirstName),
	"last_name":           filter.Text(customer.FieldLastName),
	"email":               filter.Text(customer.FieldEmail),
	"phone":               filter.Text(customer.FieldPhone),
	"platform_created_at": filter.Time(customer.FieldPlatformCreatedAt),
	"created_at":          filter.Time(customer.FieldCreatedAt),
	"updated_at":          filter.Time(customer.FieldUpdatedAt),
	"deleted_at":          filter.Time(customer.FieldPlatformDeletedAt),
}

// Orders are the orders of a customer list (orderby), id the default.
var Orders = []filter.Order{
	{Name: "id", Column: filter.Int(customer.FieldID)},
	{Name: "created_at", Column: filter.Time(customer.FieldCreatedAt)},
	{Name: "updated_at", Column: filter.Time(customer.FieldUpdatedAt)},
	{Name: "first_name", Column: filter.Text(customer.FieldFirstName)},
	{Name: "last_name", Column: filter.Text(customer.FieldLastName)},
	{Name: "email", Column: filter.Text(customer.FieldEmail)},
}

// MaxIDs bounds the ids of one list.
const MaxIDs = 100

// Page is one page of a customer list.
type Page struct {
	Customers []*ent.Customer
	// Cursors are the customers' positions (GraphQL's edge cursors), as after or before.
	Cursors    []string
	Pagination filter.Pagination
}

func queryInvalid(field, message string) *problem.Error {
	return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "query.invalid", Message: message,
		Details: map[string]any{"field": field}}
}

// List is a page of the shop's customers as the list's query parameters (the spec's List
// Customers) ask, with their addresses.
func (s *Service) List(ctx context.Context, sh *ent.Shop, q url.Values) (*Page, error) {
	ctx = platform.PlanWithValues(ctx)
	page, err := filter.ParsePage(q, Orders)
	if err != nil {
		return nil, err
	}
	page = page.InShop(customer.FieldShopID, sh.ID)
	_, search := q["search"]
	onPostgres := s.p.DB.Dialect == dialect.Postgres
	switch {
	case search && onPostgres:
		page = page.SortFound()
	case search:
		page = page.FoundByID()
	}
	where, searchCount, err := s.listPredicates(ctx, sh.ID, q)
	if err != nil {
		return nil, err
	}
	// The shop's rows are counted with the equality, from the index of the list's other
	// conditions; the page keeps them as the page says (filter.PageQuery.Shop).
	counted := append([]predicate.Customer{customer.ShopID(sh.ID)}, where...)
	preds := append([]predicate.Customer{predicate.Customer(page.Shop())}, where...)
	if q.Get("label") != "" {
		// Customers have no labels in checkoutd (docs/api.md "Customers"): none has the label.
		return &Page{Customers: []*ent.Customer{}, Pagination: filter.Pagination{PerPage: page.Limit, CurrentPage: page.Page}}, nil
	}
	read := s.p.DB.Read
	key, now := countKey(sh, q), s.p.Clock()
	count := func(ctx context.Context) (int, error) { return read.Customer.Query().Where(counted...).Count(ctx) }
	if searchCount != nil {
		count = func(ctx context.Context) (int, error) { return searchCount(ctx, read) }
	}
	query := func(where ...predicate.Customer) *ent.CustomerQuery {
		return read.Customer.Query().Where(where...).Where(predicate.Customer(page.Keyset())).
			Order(customer.OrderOption(page.OrderBy())).Offset(page.Offset()).Limit(page.Fetch()).
			WithAddresses(func(q *ent.CustomerAddressQuery) { q.Order(ent.Asc(customeraddress.FieldID)) })
	}
	total, kept := s.counts.Kept(ctx, key, now, count)
	var rows []*ent.Customer
	if search && onPostgres && !kept {
		// On PostgreSQL a search's count costs what its page does (the index work, whatever the
		// rows it finds): one query reads the page and counts the rows. SQLite reads the
		// found ids from the names' indexes alone, then the page's rows in id order, and
		// counts apart: a count over the page's query would have it read and sort every row
		// found.
		began := time.Now()
		if rows, err = query(withTotal(preds)).All(ctx); err != nil {
			return nil, err
		}
		if len(rows) > 0 {
			total, kept = totalOf(rows[0]), true
			s.counts.Keep(key, now, total, time.Since(began))
		}
	} else if rows, err = query(preds...).All(ctx); err != nil {
		return nil, err
	}
	if !kept {
		if total, err = s.counts.Total(ctx, key, now, count); err != nil {
			return nil, err
		}
	}
	keys := make([]filter.Row, len(rows))
	for i, c := range rows {
		keys[i] = filter.Row{ID: c.ID, Value: orderValue(page.Order.Name, c)}
	}
	keep, pg := page.Paginate(keys, total)
	out := &Page{Customers: make([]*ent.Customer, len(keep)), Cursors: make([]string, len(keep)), Pagination: pg}
	for i, k := range keep {
		out.Customers[i] = rows[k]
		out.Cursors[i] = page.CursorOf(keys[k])
	}
	return out, nil
}

// totalColumn is the column withTotal adds: the count of the list's rows.
const totalColumn = "checkoutd_list_total"

// withTotal keeps the rows of preds, read from a subquery that also counts them all (before the
// page's position and size apply): a list's page and its total in one query.
func withTotal(preds []predicate.Customer) predicate.Customer {
	return func(s *sql.Selector) {
		rows := sql.Dialect(s.Dialect()).Select("*").AppendSelectExprAs(sql.Expr("COUNT(*) OVER ()"), totalColumn).
			From(sql.Table(customer.Table))
		for _, p := range preds {
			p(rows)
		}
		s.From(rows.As(customer.Table))
		s.AppendSelect(s.C(totalColumn))
	}
}

// totalOf is the count withTotal read with c.
func totalOf(c *ent.Customer) int {
	v, _ := c.Value(totalColumn)
	n, _ := v.(int64)
	return int(n)
}

func orderValue(name string, c *ent.Customer) any {
	switch name {
	case "created_at":
		return c.CreatedAt
	case "updated_at":
		return c.UpdatedAt
	case "first_name":
		return c.FirstName
	case "last_name":
		return c.LastName
	case "email":
		return c.Email
	}
	return c.ID
}

// countKey names a list's rows whatever page of them is read.
func countKey(sh *ent.Shop, q url.Values) string {
	kept := url.Values{}
	for _, k := range []string{"since_id", "updated_at_min", "updated_at_max", "search", "ids", "filter", "include_deleted"} {
		if v, ok := q[k]; ok {
			kept[k] = v
		}
	}
	return strconv.Itoa(sh.ID) + "?" + kept.Encode()
}

// listPredicates are the conditions of a list's rows among the shop's customers: not deleted
// unless asked, and what since_id, updated_at_min/max, ids, filter and search keep. count,
// when not nil, counts those rows (a search's own count, when nothing but whether deleted
// customers are listed conditions it).
func (s *Service) listPredicates(ctx context.Context, shopID int, q url.Values) (preds []predicate.Customer, count func(context.Context, *ent.Client) (int, error), err error) {
	deleted, err := includeDeleted(q)
	if err != nil {
		return nil, nil, err
	}
	var deletedPred []predicate.Customer
	if !deleted {
		deletedPred = []predicate.Customer{customer.PlatformDeletedAtIsNil()}
	}
	preds = append(preds, deletedPred...)
	if v := q.Get("since_id"); v != "" {
		id, err := strconv.Atoi(v)
		if err != nil || id < 0 {
			return nil, nil, queryInvalid("since_id", "since_id "+strconv.Quote(clip(v))+" is not a customer id")
		}
		preds = append(preds, customer.IDGT(id))
	}
	for _, b := range []struct {
		name string
		pred func(time.Time) predicate.Customer
	}{{"updated_at_min", customer.UpdatedAtGTE}, {"updated_at_max", customer.UpdatedAtLTE}} {
		if v := q.Get(b.name); v != "" {
			t, err := time.Parse(time.RFC3339Nano, strings.Replace(v, " ", "+", 1))
			if err != nil {
				return nil, nil, queryInvalid(b.name, b.name+" "+strconv.Quote(clip(v))+" is not an RFC 3339 time")
			}
			preds = append(preds, b.pred(t.UTC()))
		}
	}
	if v := q.Get("ids"); v != "" {
		parts := strings.Split(v, ",")
		if len(parts) > MaxIDs {
			return nil, nil, queryInvalid("ids", "ids lists more than 100 ids")
		}
		ids := make([]int, len(parts))
		for i, p := range parts {
			id, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return nil, nil, queryInvalid("ids", "ids: "+strconv.Quote(clip(p))+" is not a customer id")
			}
			ids[i] = id
		}
		preds = append(preds, customer.IDIn(ids...))
	}
	if fs, ok := q["filter"]; ok {
		f, err := filter.Parse(fs, Columns)
		if err != nil {
			return nil, nil, err
		}
		preds = append(preds, predicate.Customer(f.Predicate()))
	}
	if v, ok := q["search"]; ok {
		found, err := s.searchFor(ctx, shopID, deleted, strings.Join(v, " "))
		if err != nil {
			return nil, nil, err
		}
		// The search comes last: no other condition yet is none at all.
		if len(preds) == len(deletedPred) {
			count = found.count
		}
		preds = append(preds, found.where)
	}
	return preds, count, nil
}

func includeDeleted(q url.Values) (bool, error) {
	switch v := strings.ToLower(q.Get("include_deleted")); v {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	default:
		return false, queryInvalid("include_deleted", "include_deleted "+strconv.Quote(clip(v))+" is not true or false")
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func customerNotFound(what string) *problem.Error {
	return problem.NotFoundError("customer.not_found", "the shop has no customer "+what)
}

// Get is the shop's customer with that id, with its addresses; a deleted one only when q's
// include_deleted asks.
func (s *Service) Get(ctx context.Context, sh *ent.Shop, id int, q url.Values) (*ent.Customer, error) {
	return s.readOne(ctx, sh, q, strconv.Itoa(id), customer.ID(id))
}

// GetByPlatformID is the shop's customer with that platform id, as Get.
func (s *Service) GetByPlatformID(ctx context.Context, sh *ent.Shop, platformID string, q url.Values) (*ent.Customer, error) {
	return s.readOne(ctx, sh, q, strconv.Quote(clip(platformID)), customer.PlatformID(platformID))
}

func (s *Service) readOne(ctx context.Context, sh *ent.Shop, q url.Values, what string, which predicate.Customer) (*ent.Customer, error) {
	deleted, err := includeDeleted(q)
	if err != nil {
		return nil, err
	}
	query := s.p.DB.Read.Customer.Query().Where(customer.ShopID(sh.ID), which).
		WithAddresses(func(q *ent.CustomerAddressQuery) { q.Order(ent.Asc(customeraddress.FieldID)) })
	if !deleted {
		query.Where(customer.PlatformDeletedAtIsNil())
	}
	c, err := query.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, customerNotFound(what)
	}
	return c, err
}

// Addresses are the addresses of the shop's customer with that id (as Get finds it).
func (s *Service) Addresses(ctx context.Context, sh *ent.Shop, customerID int, q url.Values) (*ent.Customer, error) {
	return s.Get(ctx, sh, customerID, q)
}

// Address is one address of the shop's customer customerID, with the customer.
func (s *Service) Address(ctx context.Context, sh *ent.Shop, customerID, id int, q url.Values) (*ent.Customer, *ent.CustomerAddress, error) {
	c, err := s.Get(ctx, sh, customerID, q)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range c.Edges.Addresses {
		if a.ID == id {
			return c, a, nil
		}
	}
	return nil, nil, problem.NotFoundError("customer_address.not_found", "customer "+strconv.Itoa(customerID)+" has no address "+strconv.Itoa(id))
}
