package platformserver

import (
	"fmt"
	"net/http"
	"time"
)

// Orders returns every order of shop in ascending platform_id order.
func (s *Server) Orders(shop string) []Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := &s.shop(shop).orders
	out := make([]Order, 0, len(x.ids))
	for _, id := range x.ids {
		out = append(out, *x.byID[id])
	}
	return out
}

type orderData struct {
	Order Order `json:"order"`
}

// createOrder answers Create Order. The complete order is stored with a new platform_id,
// platform_updated_at and placed_at (a placed_at in the body is kept). A repeat under an
// Idempotency-Key already used answers the order that key created and creates nothing; the
// repeat's body is not compared, since a retry sends the same one.
func (s *Server) createOrder(w http.ResponseWriter, r *http.Request) {
	var o Order
	if !readData(w, r, "order", &o) {
		return
	}
	key := r.Header.Get("Idempotency-Key")
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(r.PathValue("shop"))
	if id, ok := sh.idempotency[key]; ok && key != "" {
		writeJSON(w, http.StatusCreated, map[string]any{"data": orderData{*sh.orders.get(id)}})
		return
	}
	now := s.now().UTC()
	o.PlatformID = sh.newID("ord")
	o.PlatformUpdatedAt = now
	if o.PlacedAt.IsZero() {
		o.PlacedAt = now
	}
	if o.OrderNumber == "" {
		// Platforms number orders for people; the example counts from 1001.
		o.OrderNumber = fmt.Sprint(1000 + sh.seq["ord"])
	}
	if o.PlatformFriendlyID == "" {
		o.PlatformFriendlyID = "#" + o.OrderNumber
	}
	sh.orders.put(o.PlatformID, &o)
	if key != "" {
		sh.idempotency[key] = o.PlatformID
	}
	writeJSON(w, http.StatusCreated, map[string]any{"data": orderData{o}})
}

// listOrders answers the orders list, paged like List Customers.
func (s *Server) listOrders(w http.ResponseWriter, r *http.Request) {
	q, err := parsePage(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	page, p := s.shop(r.PathValue("shop")).orders.page(q, func(*Order) bool { return true })
	out := make([]Order, len(page))
	for i, o := range page {
		out[i] = *o
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"orders": out}, "pagination": p})
}

// AddOrder stores o in shop as if it had been placed on the platform, and returns it as
// stored: a missing platform_id, platform_updated_at or placed_at is assigned.
func (s *Server) AddOrder(shop string, o Order) Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(shop)
	o.PlatformID = sh.claim(o.PlatformID, "ord")
	now := s.now().UTC()
	o.PlatformUpdatedAt = orNow(o.PlatformUpdatedAt, now)
	o.PlacedAt = orNow(o.PlacedAt, now)
	sh.orders.put(o.PlatformID, &o)
	return o
}

func orNow(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return t
}
