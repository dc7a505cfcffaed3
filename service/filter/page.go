package filter

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/service/problem"
)

// Pagination of the read interfaces' lists (docs/api.md "Lists and pagination"): a page is read by
// keyset, (order column, id) after the last row of the page before, so that page 10,000 reached
// through next_url costs what page 1 does and walking next_url while rows are added yields
// every row once. next_url and previous_url carry that position as an opaque cursor (`after`,
// `before`); `page` without a cursor is an offset.
const (
	// MaxLimit is the most rows of a page (the spec's bound of limit).
	MaxLimit = 100
	// DefaultLimit is the page size when limit is not given.
	DefaultLimit = 50
	// MaxOffsetPage bounds page without a cursor: an offset costs the rows it skips.
	MaxOffsetPage = 1000
	// maxPage bounds the page number a cursor's URL carries (it only labels the page).
	maxPage = 1 << 30
	// maxCursor bounds a cursor's length, in bytes.
	maxCursor = 512
)

// Order is a column a list may be ordered by: its SQL column and type (Text, Int, Time; its
// values must not be null, the keyset compares them).
type Order struct {
	Name   string
	Column Column
}

// PageQuery is the position and size of a page, read from a list's query parameters.
type PageQuery struct {
	Limit int
	// Page is the number of the page (1 the first); without a cursor, the offset's.
	Page   int
	Order  Order
	Desc   bool
	cursor *Cursor
	before bool
	// shop is the column of the shop a list's rows belong to, shopID the shop (InShop).
	shop   string
	shopID int
	// found: the rows are found through another index than the order's (SortFound); byID:
	// through a list of their ids (FoundByID).
	found, byID bool
}

// Cursor is the keyset position of a row: its order value and its id.
type Cursor struct {
	OrderBy string `json:"o"`
	Desc    bool   `json:"d,omitempty"`
	Value   string `json:"v"`
	ID      int    `json:"i"`
}

func queryInvalid(field, format string, args ...any) *problem.Error {
	return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "query.invalid",
		Message: fmt.Sprintf(format, args...), Details: map[string]any{"field": field}}
}

// ParsePage reads limit, page, orderby, orderdirection, after and before. orders lists the
// orders allowed, the first one the default.
func ParsePage(q url.Values, orders []Order) (PageQuery, error) {
	p := PageQuery{Limit: DefaultLimit, Page: 1, Order: orders[0]}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			return p, queryInvalid("limit", "limit %q is not a number from 1 to %d", clip(v), MaxLimit)
		}
		p.Limit = n
	}
	if v := q.Get("orderby"); v != "" {
		found := false
		names := make([]string, len(orders))
		for i, o := range orders {
			names[i] = o.Name
			if o.Name == v {
				p.Order, found = o, true
			}
		}
		if !found {
			return p, queryInvalid("orderby", "orderby %q is not one of %s", clip(v), strings.Join(names, ", "))
		}
	}
	switch v := strings.ToLower(q.Get("orderdirection")); v {
	case "", "asc":
	case "desc":
		p.Desc = true
	default:
		return p, queryInvalid("orderdirection", "orderdirection %q is not asc or desc", clip(v))
	}
	after, before := q.Get("after"), q.Get("before")
	if after != "" && before != "" {
		return p, queryInvalid("after", "after and before are not given together")
	}
	limitPage := MaxOffsetPage
	if after != "" || before != "" {
		limitPage = maxPage
		raw := after + before
		c, err := readCursor(raw)
		if err != nil || c.OrderBy != p.Order.Name || c.Desc != p.Desc {
			field := "after"
			if before != "" {
				field = "before"
			}
			return p, queryInvalid(field, "%s is not a cursor of this list and order: take it from next_url or previous_url", field)
		}
		p.cursor, p.before = &c, before != ""
	}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > limitPage {
			return p, queryInvalid("page", "page %q is not a number from 1 to %d (deeper pages: follow next_url, whose cursor costs no offset)", clip(v), limitPage)
		}
		p.Page = n
	}
	return p, nil
}

func readCursor(raw string) (Cursor, error) {
	var c Cursor
	if len(raw) > maxCursor {
		return c, fmt.Errorf("cursor over %d bytes", maxCursor)
	}
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, err
	}
	return c, nil
}

func (c Cursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Offset is the rows skipped: none after a cursor.
func (p PageQuery) Offset() int {
	if p.cursor != nil {
		return 0
	}
	return (p.Page - 1) * p.Limit
}

// Fetch is the rows to read: one more than the page, to know whether more follow.
func (p PageQuery) Fetch() int { return p.Limit + 1 }

// descending is the direction rows are read in: a page before a cursor is read backwards.
func (p PageQuery) descending() bool { return p.Desc != p.before }

// Keyset is the predicate of the rows after (or before) the cursor, none without one.
func (p PageQuery) Keyset() func(*sql.Selector) {
	return func(s *sql.Selector) {
		if p.cursor == nil {
			return
		}
		v, err := p.Order.Column.kind.read(p.Order.Name, p.cursor.Value)
		if err != nil {
			s.Where(sql.False())
			return
		}
		if t, ok := v.(span); ok {
			v = t.from
		}
		op := " > "
		if p.descending() {
			op = " < "
		}
		col, id := s.C(p.Order.Column.sql), s.C("id")
		if p.Order.Column.sql == "id" {
			s.Where(sql.P(func(b *sql.Builder) { b.Ident(id).WriteString(op).Arg(p.cursor.ID) }))
			return
		}
		// A row comparison, which both databases answer from an index on (column, id).
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString("(").Ident(col).Comma().Ident(id).WriteString(")").WriteString(op).
				WriteString("(").Arg(v).Comma().Arg(p.cursor.ID).WriteString(")")
		}))
	}
}

// InShop is the page of one shop's rows: its Shop predicate keeps them, and the rows are read
// ordered by the shop's column first.
func (p PageQuery) InShop(column string, shopID int) PageQuery {
	p.shop, p.shopID = column, shopID
	return p
}

// Shop keeps the rows of the page's shop (InShop). Unless the rows are found through an index
// of their own (SortFound), it is written as the range of one value, not as an equality, and
// OrderBy orders by that column first: PostgreSQL drops from an ORDER BY a column it knows to be
// one value, and may then read the page by the primary key alone, taking other shops' rows to
// be spread evenly among the shop's; where another shop's rows come first in id order, page 1
// would read all of them. Ordered by (shop, column, id), the page is read from the index that
// starts with the shop. SQLite is given the equality: it starts an index range at a later
// column (id, after the cursor) only after equalities. (Counting the rows, which needs no
// order, is left to the equality: under a range PostgreSQL may count from another index than
// the one that answers alone.)
func (p PageQuery) Shop() func(*sql.Selector) {
	return func(s *sql.Selector) {
		col := s.C(p.shop)
		s.Where(sql.P(func(b *sql.Builder) {
			if p.byID && b.Dialect() != dialect.Postgres {
				b.WriteString("+").Ident(col).WriteString(" = ").Arg(p.shopID)
				return
			}
			if p.found || b.Dialect() != dialect.Postgres {
				b.Ident(col).WriteString(" = ").Arg(p.shopID)
				return
			}
			b.Ident(col).WriteString(" >= ").Arg(p.shopID).WriteString(" AND ").Ident(col).WriteString(" <= ").Arg(p.shopID)
		}))
	}
}

// SortFound is the page of rows found through an index of their own (a fuzzy search's): they
// are all found, then sorted. Ordered by the columns themselves, PostgreSQL may instead walk the
// list's order by an index and test each row against the search, stopping at the page's last
// row: it takes the rows found to be spread evenly, and a search that finds a few hundred
// customers among a million then reads most of the table. Ordered by an expression of each
// column (which no index gives), the found rows are sorted.
func (p PageQuery) SortFound() PageQuery {
	p.found = true
	return p
}

// FoundByID is the page of rows found by a list of their ids (a fuzzy search's on SQLite: the
// ids its names' indexes give). SQLite then reads the rows by id, in the list's id order,
// stopping at the page's last: its planner would otherwise read every row found from the
// shop's index by id, which the shop's equality and the list's ids together select, and sort
// them. So the shop is kept row by row (a unary plus: no index serves it), and the rows are
// not ordered by the shop, which is one value.
func (p PageQuery) FoundByID() PageQuery {
	p.byID = true
	return p
}

// OrderBy orders the rows as they are read: by the shop (InShop), the order column, then id.
func (p PageQuery) OrderBy() func(*sql.Selector) {
	return func(s *sql.Selector) {
		dir := sql.Asc
		if p.descending() {
			dir = sql.Desc
		}
		col := func(c string) string {
			if p.found {
				return "COALESCE(" + s.C(c) + ", " + s.C(c) + ")"
			}
			return s.C(c)
		}
		if p.shop != "" && !p.found && !p.byID {
			s.OrderBy(dir(col(p.shop)))
		}
		if p.Order.Column.sql != "id" {
			s.OrderBy(dir(col(p.Order.Column.sql)))
		}
		s.OrderBy(dir(col("id")))
	}
}

// Row is what a page needs of each row read: its id and its order value.
type Row struct {
	ID    int
	Value any
}

// Pagination is the spec's pagination attributes of a page, with the cursors of its links.
type Pagination struct {
	Total       int
	Count       int
	PerPage     int
	CurrentPage int
	TotalPages  int
	// Next and Previous are the query parameters to set on the list's URL for the next and
	// previous page; nil when there is none.
	Next, Previous url.Values
}

// Paginate puts rows (read with Fetch, in the order read) in the list's order and describes the
// page: it returns how many of rows to keep, in order, and the pagination.
func (p PageQuery) Paginate(rows []Row, total int) (keep []int, pg Pagination) {
	more := len(rows) > p.Limit
	if more {
		rows = rows[:p.Limit]
	}
	idx := make([]int, len(rows))
	for i := range rows {
		idx[i] = i
	}
	if p.before {
		for i, j := 0, len(idx)-1; i < j; i, j = i+1, j-1 {
			idx[i], idx[j] = idx[j], idx[i]
		}
	}
	pg = Pagination{Total: total, Count: len(rows), PerPage: p.Limit, CurrentPage: p.Page, TotalPages: (total + p.Limit - 1) / p.Limit}
	// Before a cursor, the rows read backwards were the page's; more means an earlier page.
	hasNext := more || (p.before && p.cursor != nil)
	hasPrevious := p.Page > 1 || p.cursor != nil
	if p.before {
		hasPrevious = more
	}
	if len(rows) == 0 {
		// Past the end (or before the start): back to the pages that have rows, by offset.
		if p.Page > 1 && !p.before {
			pg.Previous = url.Values{"page": {strconv.Itoa(min(p.Page-1, max(pg.TotalPages, 1)))}, "after": nil, "before": nil}
		}
		if p.before {
			pg.Next = url.Values{"page": {"1"}, "after": nil, "before": nil}
		}
		return idx, pg
	}
	first, last := rows[idx[0]], rows[idx[len(idx)-1]]
	if hasNext {
		pg.Next = url.Values{"after": {p.CursorOf(last)}, "before": nil, "page": {strconv.Itoa(min(p.Page+1, maxPage))}}
	}
	if hasPrevious {
		pg.Previous = url.Values{"before": {p.CursorOf(first)}, "after": nil, "page": {strconv.Itoa(max(p.Page-1, 1))}}
	}
	return idx, pg
}

// CursorOf is the cursor of a row: after it (or before it), the rows next to it in the order.
func (p PageQuery) CursorOf(r Row) string {
	c := Cursor{OrderBy: p.Order.Name, Desc: p.Desc, ID: r.ID}
	switch v := r.Value.(type) {
	case string:
		c.Value = v
	case int:
		c.Value = strconv.Itoa(v)
	case time.Time:
		c.Value = v.UTC().Format(time.RFC3339Nano)
	}
	return c.encode()
}

// Link is the list's URL u with params set (a nil value removes the parameter).
func Link(u *url.URL, params url.Values) string {
	if params == nil {
		return ""
	}
	q := u.Query()
	for k, v := range params {
		if v == nil {
			q.Del(k)
		} else {
			q[k] = v
		}
	}
	out := *u
	out.RawQuery = q.Encode()
	return out.String()
}

// Counts keeps large totals for a while: counting is linear in the rows counted, so that a walk
// through a large list through next_url, or many readers of one list, count once a while rather
// than on every page. A small total is counted each time (it is cheap) and is therefore exact.
//
// A kept total is fresh for CountCacheTTL, or CountCostFactor times as long as counting it took
// when that is longer, so that recounting a list read without pause costs a bounded share of
// one core whatever its size. Once it is no longer fresh, and until it is CountStaleFor old,
// readers are answered it at once while it is counted again in the background, one count at a
// time: no reader waits for a large count but the first readers of a list (or of one left
// unread for CountStaleFor).
type Counts struct {
	mu      sync.Mutex
	entries map[string]*countEntry
}

type countEntry struct {
	total int
	at    time.Time
	// fresh is how long the total is kept before it is counted again.
	fresh    time.Duration
	counting bool
}

// Cached totals: a total at least CountCacheFrom is kept, and counted again as Counts says.
const (
	CountCacheFrom  = 10000
	CountCacheTTL   = 2 * time.Second
	CountCostFactor = 20
	CountStaleFor   = time.Minute
	// countTimeout bounds a count in the background, which no request's deadline bounds.
	countTimeout = 30 * time.Second
	maxCounts    = 10000
)

// Total is the total under key (the list's shop and filters, not its position), counted by
// count unless a large one is kept. count is called with ctx, or, to count again in the
// background, with a context that outlives the request (and keeps its values).
func (c *Counts) Total(ctx context.Context, key string, now time.Time, count func(context.Context) (int, error)) (int, error) {
	if total, ok := c.Kept(ctx, key, now, count); ok {
		return total, nil
	}
	began := time.Now()
	n, err := count(ctx)
	if err != nil {
		return 0, err
	}
	c.Keep(key, now, n, time.Since(began))
	return n, nil
}

// Kept is the total kept under key, if there is one; when it is no longer fresh, count counts
// it again in the background (as Total says).
func (c *Counts) Kept(ctx context.Context, key string, now time.Time, count func(context.Context) (int, error)) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return 0, false
	}
	age := now.Sub(e.at)
	if age < 0 || age >= CountStaleFor {
		return 0, false
	}
	if age >= e.fresh && !e.counting {
		e.counting = true
		bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), countTimeout)
		go func() {
			defer cancel()
			c.recount(bg, key, e, now, count)
		}()
	}
	return e.total, true
}

// Keep keeps a total counted at now, which took as long to count, when it is large.
func (c *Counts) Keep(key string, now time.Time, total int, took time.Duration) {
	if total < CountCacheFrom {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCounts {
		c.entries = map[string]*countEntry{}
	}
	c.entries[key] = &countEntry{total: total, at: now, fresh: freshFor(took)}
}

func freshFor(took time.Duration) time.Duration { return max(CountCacheTTL, CountCostFactor*took) }

// recount counts e's list again; a failed count leaves the kept total as it was (the next
// reader tries again), a small one is not kept.
func (c *Counts) recount(ctx context.Context, key string, e *countEntry, now time.Time, count func(context.Context) (int, error)) {
	began := time.Now()
	n, err := count(ctx)
	took := time.Since(began)
	c.mu.Lock()
	defer c.mu.Unlock()
	e.counting = false
	switch {
	case c.entries[key] != e, err != nil:
	case n < CountCacheFrom:
		delete(c.entries, key)
	default:
		e.total, e.at, e.fresh = n, now, freshFor(took)
	}
}
