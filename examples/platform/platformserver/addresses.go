package platformserver

import (
	"net/http"
)

type addressData struct {
	Address Address `json:"address"`
}

// createAddress answers Create Address: the address is added to the customer's list with a
// new platform_id.
func (s *Server) createAddress(w http.ResponseWriter, r *http.Request) {
	var a Address
	if !readData(w, r, "address", &a) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh := s.shop(r.PathValue("shop"))
	c := sh.liveCustomer(r.PathValue("platform_customer_id"))
	if c == nil {
		notFound(w, "customer")
		return
	}
	a = sh.adoptAddresses(c.PlatformID, nil, []Address{a})[0]
	c.Addresses = append(c.Addresses, a)
	c.PlatformUpdatedAt = s.now().UTC()
	writeJSON(w, http.StatusCreated, map[string]any{"data": addressData{a}})
}

// liveAddress returns the path's address of the path's customer unless either is missing or
// deleted.
func (s *Server) liveAddress(r *http.Request) (*Customer, *Address) {
	c := s.shop(r.PathValue("shop")).liveCustomer(r.PathValue("platform_customer_id"))
	if c == nil {
		return nil, nil
	}
	id := r.PathValue("platform_id")
	for i := range c.Addresses {
		if a := &c.Addresses[i]; a.PlatformID == id && a.PlatformDeletedAt.IsZero() {
			return c, a
		}
	}
	return c, nil
}

// addressPatch is Update Address's body: nil members were omitted and stay unchanged.
type addressPatch struct {
	AddressType  *string `json:"address_type"`
	AddressUse   *string `json:"address_use"`
	Company      *string `json:"company"`
	City         *string `json:"city"`
	Country      *string `json:"country"`
	CountryCode  *string `json:"country_code"`
	IsDefault    *bool   `json:"is_default"`
	FirstName    *string `json:"first_name"`
	LastName     *string `json:"last_name"`
	Phone        *string `json:"phone"`
	PostalCode   *string `json:"postal_code"`
	Province     *string `json:"province"`
	ProvinceCode *string `json:"province_code"`
	Street1      *string `json:"street_1"`
	Street2      *string `json:"street_2"`
}

func (p addressPatch) apply(a *Address) {
	set(&a.AddressType, p.AddressType)
	set(&a.AddressUse, p.AddressUse)
	set(&a.Company, p.Company)
	set(&a.City, p.City)
	set(&a.Country, p.Country)
	set(&a.CountryCode, p.CountryCode)
	set(&a.IsDefault, p.IsDefault)
	set(&a.FirstName, p.FirstName)
	set(&a.LastName, p.LastName)
	set(&a.Phone, p.Phone)
	set(&a.PostalCode, p.PostalCode)
	set(&a.Province, p.Province)
	set(&a.ProvinceCode, p.ProvinceCode)
	set(&a.Street1, p.Street1)
	set(&a.Street2, p.Street2)
}

// updateAddress answers Update Address.
func (s *Server) updateAddress(w http.ResponseWriter, r *http.Request) {
	var p addressPatch
	if !readData(w, r, "address", &p) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, a := s.liveAddress(r)
	if a == nil {
		notFound(w, "address")
		return
	}
	p.apply(a)
	c.PlatformUpdatedAt = s.now().UTC()
	writeJSON(w, http.StatusOK, map[string]any{"data": addressData{*a}})
}

// deleteAddress answers Delete Address: the address is marked deleted, not forgotten.
func (s *Server) deleteAddress(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, a := s.liveAddress(r)
	if a == nil {
		notFound(w, "address")
		return
	}
	now := s.now().UTC()
	a.PlatformDeletedAt, c.PlatformUpdatedAt = now, now
	w.WriteHeader(http.StatusNoContent)
}
