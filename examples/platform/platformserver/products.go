package platformserver

import (
	"net/http"
	"time"
)

// AddProduct stores p in shop as if it had been saved on the platform, and returns it as
// stored: a missing platform_id or platform_updated_at is assigned. Its categories are stored
// too, so that Categories lists them.
func (s *Server) AddProduct(shop string, p Product) Product {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(shop)
	now := s.now().UTC()
	p.PlatformID = sh.claim(p.PlatformID, "prd")
	p.PlatformUpdatedAt = orNow(p.PlatformUpdatedAt, now)
	for i := range p.Categories {
		p.Categories[i] = sh.putCategory(p.Categories[i], now)
	}
	sh.products.put(p.PlatformID, &p)
	return p
}

// AddCategory stores c in shop and returns it as stored, like AddProduct.
func (s *Server) AddCategory(shop string, c Category) Category {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shop(shop).putCategory(c, s.now().UTC())
}

func (sh *shop) putCategory(c Category, now time.Time) Category {
	c.PlatformID = sh.claim(c.PlatformID, "cat")
	c.PlatformUpdatedAt = orNow(c.PlatformUpdatedAt, now)
	sh.categories.put(c.PlatformID, &c)
	return c
}

// Products returns every product of shop in ascending platform_id order.
func (s *Server) Products(shop string) []Product {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := &s.shop(shop).products
	out := make([]Product, 0, len(x.ids))
	for _, id := range x.ids {
		out = append(out, *x.byID[id])
	}
	return out
}

// Categories returns every category of shop in ascending platform_id order.
func (s *Server) Categories(shop string) []Category {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := &s.shop(shop).categories
	out := make([]Category, 0, len(x.ids))
	for _, id := range x.ids {
		out = append(out, *x.byID[id])
	}
	return out
}

// listProducts answers the products list, paged like List Customers, so that a product sync
// can page through the catalogue.
func (s *Server) listProducts(w http.ResponseWriter, r *http.Request) {
	q, err := parsePage(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	page, p := s.shop(r.PathValue("shop")).products.page(q, func(*Product) bool { return true })
	out := make([]Product, len(page))
	for i, pr := range page {
		out[i] = *pr
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"products": out}, "pagination": p})
}
