package platformserver

import (
	"crypto/rand"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Customers returns every customer of shop in ascending platform_id order, deleted ones and
// deleted addresses included (with platform_deleted_at set), as copies.
func (s *Server) Customers(shop string) []Customer {
	s.mu.Lock()
	defer s.mu.Unlock()
	x := &s.shop(shop).customers
	out := make([]Customer, 0, len(x.ids))
	for _, id := range x.ids {
		out = append(out, cloneCustomer(*x.byID[id]))
	}
	return out
}

// Customer returns one customer of shop as stored (deleted or not), and whether it exists.
func (s *Server) Customer(shop, platformID string) (Customer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.shop(shop).customers.get(platformID)
	if c == nil {
		return Customer{}, false
	}
	return cloneCustomer(*c), true
}

// AddCustomer stores c in shop as if it had been created on the platform, and returns it as
// stored. It keeps c's platform ids when set (replacing a customer with the same id) and
// assigns the missing ones and zero timestamps.
func (s *Server) AddCustomer(shop string, c Customer) Customer {
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(shop)
	now := s.now().UTC()
	c = cloneCustomer(c)
	c.PlatformID = sh.claim(c.PlatformID, "cus")
	if c.PlatformCreatedAt.IsZero() {
		c.PlatformCreatedAt = now
	}
	if c.PlatformUpdatedAt.IsZero() {
		c.PlatformUpdatedAt = now
	}
	for i := range c.Addresses {
		c.Addresses[i].PlatformID = sh.claim(c.Addresses[i].PlatformID, "adr")
		c.Addresses[i].PlatformCustomerID = c.PlatformID
	}
	sh.customers.put(c.PlatformID, &c)
	return cloneCustomer(c)
}

// tokenOwner is the customer a token was issued for.
type tokenOwner struct{ shop, platformID string }

// IssueCustomerToken returns a new token that Validate Customer JWT reports active for that
// customer of shop, and inactive for any other customer. The example's rule stands in for a
// platform's own customer login tokens: any string it did not issue is inactive.
func (s *Server) IssueCustomerToken(shop, platformID string) string {
	tok := "ctok_" + rand.Text()
	s.mu.Lock()
	s.tokens[tok] = tokenOwner{shop, platformID}
	s.mu.Unlock()
	return tok
}

func cloneCustomer(c Customer) Customer {
	c.Addresses = slices.Clone(c.Addresses)
	return c
}

// live is c as answered: without its deleted addresses. addresses is never null on the wire.
func live(c *Customer) Customer {
	out := *c
	out.Addresses = make([]Address, 0, len(c.Addresses))
	for _, a := range c.Addresses {
		if a.PlatformDeletedAt.IsZero() {
			out.Addresses = append(out.Addresses, a)
		}
	}
	return out
}

func notDeleted(c *Customer) bool { return c.PlatformDeletedAt.IsZero() }

// liveCustomer returns the customer named by the path's id unless it is missing or deleted.
func (sh *shop) liveCustomer(id string) *Customer {
	c := sh.customers.get(id)
	if c == nil || !notDeleted(c) {
		return nil
	}
	return c
}

type customerData struct {
	Customer Customer `json:"customer"`
}

type customersData struct {
	Customers []Customer `json:"customers"`
}

// listCustomers answers List Customers: a page in ascending platform_id order, or with email
// the one live customer with that email (compared without regard to case).
func (s *Server) listCustomers(w http.ResponseWriter, r *http.Request) {
	q, err := parsePage(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(r.PathValue("shop"))
	out := []Customer{}
	var p Pagination
	if email := r.URL.Query().Get("email"); email != "" {
		for _, id := range sh.customers.ids {
			if c := sh.customers.byID[id]; notDeleted(c) && strings.EqualFold(c.Email, email) {
				out = append(out, live(c))
				break
			}
		}
	} else {
		page, pg := sh.customers.page(q, notDeleted)
		for _, c := range page {
			out = append(out, live(c))
		}
		p = pg
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": customersData{out}, "pagination": p})
}

// createCustomer answers Create Customer: the complete customer is stored with new platform
// ids; ids and timestamps in the body are ignored.
func (s *Server) createCustomer(w http.ResponseWriter, r *http.Request) {
	var c Customer
	if !readData(w, r, "customer", &c) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(r.PathValue("shop"))
	now := s.now().UTC()
	c.PlatformID = sh.newID("cus")
	c.PlatformCreatedAt, c.PlatformUpdatedAt, c.PlatformDeletedAt = now, now, time.Time{}
	c.Addresses = sh.adoptAddresses(c.PlatformID, nil, c.Addresses)
	sh.customers.put(c.PlatformID, &c)
	writeJSON(w, http.StatusCreated, map[string]any{"data": customerData{live(&c)}})
}

// adoptAddresses makes given the customer's address list: an address naming one of the
// customer's current addresses keeps its id, any other gets a new one.
func (sh *shop) adoptAddresses(customerID string, current, given []Address) []Address {
	out := make([]Address, len(given))
	for i, a := range given {
		known := a.PlatformID != "" && slices.ContainsFunc(current, func(c Address) bool { return c.PlatformID == a.PlatformID })
		if !known {
			a.PlatformID = sh.newID("adr")
		}
		a.PlatformCustomerID = customerID
		a.PlatformDeletedAt = time.Time{}
		out[i] = a
	}
	return out
}

// customerPatch is Update Customer's body: nil members were omitted and stay unchanged.
type customerPatch struct {
	FirstName *string    `json:"first_name"`
	LastName  *string    `json:"last_name"`
	Phone     *string    `json:"phone"`
	Email     *string    `json:"email"`
	Addresses *[]Address `json:"addresses"`
}

// updateCustomer answers Update Customer. Given addresses replace the customer's list.
func (s *Server) updateCustomer(w http.ResponseWriter, r *http.Request) {
	var p customerPatch
	if !readData(w, r, "customer", &p) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(r.PathValue("shop"))
	c := sh.liveCustomer(r.PathValue("platform_id"))
	if c == nil {
		notFound(w, "customer")
		return
	}
	set(&c.FirstName, p.FirstName)
	set(&c.LastName, p.LastName)
	set(&c.Phone, p.Phone)
	set(&c.Email, p.Email)
	if p.Addresses != nil {
		c.Addresses = sh.adoptAddresses(c.PlatformID, c.Addresses, *p.Addresses)
	}
	c.PlatformUpdatedAt = s.now().UTC()
	writeJSON(w, http.StatusOK, map[string]any{"data": customerData{live(c)}})
}

func set[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// deleteCustomer answers Delete Customer: the customer is marked deleted, not forgotten.
func (s *Server) deleteCustomer(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.shop(r.PathValue("shop")).liveCustomer(r.PathValue("platform_id"))
	if c == nil {
		notFound(w, "customer")
		return
	}
	now := s.now().UTC()
	c.PlatformDeletedAt, c.PlatformUpdatedAt = now, now
	w.WriteHeader(http.StatusNoContent)
}

type tokenInfo struct {
	Token string `json:"token"`
}

// validateCustomerToken answers Validate Customer JWT: active when the token was issued by
// IssueCustomerToken for this very customer.
func (s *Server) validateCustomerToken(w http.ResponseWriter, r *http.Request) {
	var t tokenInfo
	if !readData(w, r, "token_info", &t) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	shop, id := r.PathValue("shop"), r.PathValue("platform_id")
	if s.shop(shop).liveCustomer(id) == nil {
		notFound(w, "customer")
		return
	}
	owner, ok := s.tokens[t.Token]
	active := ok && owner == tokenOwner{shop, id}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"token_status": map[string]bool{"active": active}}})
}
