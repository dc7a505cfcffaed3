package platformserver

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// shop is one shop's data. Everything is guarded by Server.mu.
type shop struct {
	customers  index[Customer]
	orders     index[Order]
	products   index[Product]
	categories index[Category]
	// idempotency maps an order create's Idempotency-Key to the order it created.
	idempotency map[string]string
	// seq numbers the platform ids this shop assigns, one counter per prefix.
	seq map[string]int
	// taken holds the ids a test chose (AddCustomer and the like), which newID must skip.
	taken map[string]bool
}

// shop returns the named shop, creating it empty. Call with s.mu held.
func (s *Server) shop(name string) *shop {
	sh := s.shops[name]
	if sh == nil {
		sh = &shop{idempotency: map[string]string{}, seq: map[string]int{}, taken: map[string]bool{}}
		s.shops[name] = sh
		sh.customers.init()
		sh.orders.init()
		sh.products.init()
		sh.categories.init()
	}
	return sh
}

// newID assigns the next platform id with prefix. Zero-padding makes string order equal
// creation order, so "ascending platform_id" is also oldest first.
func (sh *shop) newID(prefix string) string {
	for {
		sh.seq[prefix]++
		if id := fmt.Sprintf("%s_%012d", prefix, sh.seq[prefix]); !sh.taken[id] {
			return id
		}
	}
}

// claim returns id when a test chose one, remembering it so that newID never assigns it, and
// a new id with prefix otherwise.
func (sh *shop) claim(id, prefix string) string {
	if id == "" {
		return sh.newID(prefix)
	}
	sh.taken[id] = true
	return id
}

// index keeps records by platform_id and their ids in ascending order, for cursor pagination.
type index[T any] struct {
	ids  []string
	byID map[string]*T
}

func (x *index[T]) init() { x.byID = map[string]*T{} }

// put adds or replaces the record with id.
func (x *index[T]) put(id string, v *T) {
	if _, ok := x.byID[id]; !ok {
		// Ids the server assigns only grow, so this is an append but for ids a test chose.
		i, _ := slices.BinarySearch(x.ids, id)
		x.ids = slices.Insert(x.ids, i, id)
	}
	x.byID[id] = v
}

func (x *index[T]) get(id string) *T { return x.byID[id] }

// MaxLimit is the largest page a list operation answers, and the page size when limit is
// missing or invalid.
const MaxLimit = 250

// Pagination is a list answer's pagination member: opaque cursors for the next and the
// previous page, "" when there is none.
type Pagination struct {
	Next string `json:"next"`
	Prev string `json:"prev"`
}

// pageQuery is a list call's limit and cursor.
type pageQuery struct {
	limit  int
	after  string // start after this id
	before string // end before this id
}

var errCursor = errors.New("cursor is not one this server gave")

// parsePage reads limit (1..250; anything else means 250, as the spec says) and cursor.
func parsePage(r *http.Request) (pageQuery, error) {
	q := pageQuery{limit: MaxLimit}
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n >= 1 && n <= MaxLimit {
		q.limit = n
	}
	c := r.URL.Query().Get("cursor")
	if c == "" {
		return q, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return q, errCursor
	}
	dir, id, ok := strings.Cut(string(raw), ":")
	switch {
	case ok && dir == "a":
		q.after = id
	case ok && dir == "b":
		q.before = id
	default:
		return q, errCursor
	}
	return q, nil
}

func cursor(dir, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(dir + ":" + id))
}

// page returns up to q.limit records that keep accepts, in ascending id order, and the cursors
// around them. Cursors name ids, not positions, so records added or deleted between two calls
// neither repeat nor skip the others.
func (x *index[T]) page(q pageQuery, keep func(*T) bool) ([]*T, Pagination) {
	var ids []string
	if q.before != "" {
		end, _ := slices.BinarySearch(x.ids, q.before)
		for i := end - 1; i >= 0 && len(ids) < q.limit; i-- {
			if keep(x.byID[x.ids[i]]) {
				ids = append(ids, x.ids[i])
			}
		}
		slices.Reverse(ids)
	} else {
		start := 0
		if q.after != "" {
			i, found := slices.BinarySearch(x.ids, q.after)
			if found {
				i++
			}
			start = i
		}
		for i := start; i < len(x.ids) && len(ids) < q.limit; i++ {
			if keep(x.byID[x.ids[i]]) {
				ids = append(ids, x.ids[i])
			}
		}
	}
	var p Pagination
	out := make([]*T, len(ids))
	for i, id := range ids {
		out[i] = x.byID[id]
	}
	if len(ids) == 0 {
		return out, p
	}
	first, last := ids[0], ids[len(ids)-1]
	if x.any(last, true, keep) {
		p.Next = cursor("a", last)
	}
	if x.any(first, false, keep) {
		p.Prev = cursor("b", first)
	}
	return out, p
}

// any reports whether a kept record lies after (or before) id.
func (x *index[T]) any(id string, after bool, keep func(*T) bool) bool {
	i, found := slices.BinarySearch(x.ids, id)
	if after {
		if found {
			i++
		}
		for ; i < len(x.ids); i++ {
			if keep(x.byID[x.ids[i]]) {
				return true
			}
		}
		return false
	}
	for i--; i >= 0; i-- {
		if keep(x.byID[x.ids[i]]) {
			return true
		}
	}
	return false
}
