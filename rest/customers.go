package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/problem"
)

// registerCustomers serves the customers' read interfaces (API.md "Read interfaces"), with the
// shop's access token.
func (a *API) registerCustomers(mux router) {
	const base = "/customers/v2/shops/{shop}/customers"
	mux.Handle("GET "+base, a.withShop(a.listCustomers))
	mux.Handle("GET "+base+"/{id}", a.withShop(a.getShopCustomer))
	// .../pid/{platform_id} and .../{customer_id}/addresses overlap (a customer "pid", the
	// platform id "addresses"), which ServeMux refuses to register: one route per depth reads
	// the first segment, where "pid" is never a customer id.
	mux.Handle("GET "+base+"/{first}/{second}", a.withShop(a.customerPathOfTwo))
	mux.Handle("GET "+base+"/{first}/{second}/{third}", a.withShop(a.customerPathOfThree))
}

// customerPathOfTwo serves .../pid/{platform_id} and .../{customer_id}/addresses.
func (a *API) customerPathOfTwo(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	switch {
	case r.PathValue("first") == "pid":
		a.getCustomerByPlatformID(w, r, sh, r.PathValue("second"))
	case r.PathValue("second") == "addresses":
		a.listCustomerAddresses(w, r, sh, r.PathValue("first"))
	default:
		routeNotFound(w, r)
	}
}

// customerPathOfThree serves .../pid/{platform_id}/validate and .../{customer_id}/addresses/{id}.
func (a *API) customerPathOfThree(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	switch {
	case r.PathValue("first") == "pid" && r.PathValue("third") == "validate":
		a.validateCustomerToken(w, r, sh, r.PathValue("second"))
	case r.PathValue("first") != "pid" && r.PathValue("second") == "addresses":
		a.getCustomerAddress(w, r, sh, r.PathValue("first"), r.PathValue("third"))
	default:
		routeNotFound(w, r)
	}
}

// customerJSON is the spec's service customer.
type customerJSON struct {
	ID                int           `json:"id"`
	ShopIdentifier    string        `json:"shop_identifier"`
	PlatformID        string        `json:"platform_id"`
	PlatformType      string        `json:"platform_type"`
	FirstName         string        `json:"first_name"`
	LastName          string        `json:"last_name"`
	Email             string        `json:"email"`
	Phone             string        `json:"phone"`
	Tags              string        `json:"tags"`
	Labels            []any         `json:"labels"`
	Groups            []any         `json:"groups"`
	Addresses         []addressJSON `json:"addresses"`
	DefaultAddress    *addressJSON  `json:"default_address"`
	PlatformCreatedAt *time.Time    `json:"platform_created_at"`
	CreatedAt         time.Time     `json:"created_at"`
	UpdatedAt         time.Time     `json:"updated_at"`
	DeletedAt         *time.Time    `json:"deleted_at"`
}

// addressJSON is the spec's service address.
type addressJSON struct {
	ID                 int        `json:"id"`
	ShopIdentifier     string     `json:"shop_identifier"`
	PlatformID         string     `json:"platform_id"`
	PlatformCustomerID string     `json:"platform_customer_id"`
	PlatformType       string     `json:"platform_type"`
	ServiceCustomerID  int        `json:"service_customer_id"`
	AddressType        string     `json:"address_type"`
	AddressUse         string     `json:"address_use"`
	AddressSource      string     `json:"address_source"`
	IsDefault          bool       `json:"is_default"`
	Company            string     `json:"company"`
	Street1            string     `json:"street_1"`
	Street2            string     `json:"street_2"`
	City               string     `json:"city"`
	Province           string     `json:"province"`
	ProvinceCode       string     `json:"province_code"`
	Country            string     `json:"country"`
	CountryISO2        string     `json:"country_iso2"`
	Zip                string     `json:"zip"`
	FirstName          string     `json:"first_name"`
	LastName           string     `json:"last_name"`
	Phone              string     `json:"phone"`
	CreatedAt          time.Time  `json:"created_at"`
	UpdatedAt          time.Time  `json:"updated_at"`
	DeletedAt          *time.Time `json:"deleted_at"`
}

func customerBody(sh *ent.Shop, c *ent.Customer) customerJSON {
	out := customerJSON{ID: c.ID, ShopIdentifier: sh.Identifier, PlatformID: c.PlatformID, PlatformType: sh.PlatformType,
		FirstName: c.FirstName, LastName: c.LastName, Email: c.Email, Phone: c.Phone, Labels: []any{}, Groups: []any{},
		Addresses: make([]addressJSON, 0, len(c.Edges.Addresses)), PlatformCreatedAt: utc(c.PlatformCreatedAt),
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(), DeletedAt: utc(c.PlatformDeletedAt)}
	for _, a := range c.Edges.Addresses {
		out.Addresses = append(out.Addresses, addressBody(sh, c, a))
		if a.IsDefault && out.DefaultAddress == nil {
			d := addressBody(sh, c, a)
			out.DefaultAddress = &d
		}
	}
	return out
}

func addressBody(sh *ent.Shop, c *ent.Customer, a *ent.CustomerAddress) addressJSON {
	return addressJSON{ID: a.ID, ShopIdentifier: sh.Identifier, PlatformID: a.PlatformID, PlatformCustomerID: c.PlatformID,
		PlatformType: sh.PlatformType, ServiceCustomerID: c.ID, AddressType: a.AddressType, AddressUse: a.AddressUse,
		AddressSource: "platform", IsDefault: a.IsDefault, Company: a.Company, Street1: a.Street1, Street2: a.Street2,
		City: a.City, Province: a.Province, ProvinceCode: a.ProvinceCode, Country: a.Country, CountryISO2: a.CountryCode,
		Zip: a.PostalCode, FirstName: a.FirstName, LastName: a.LastName, Phone: a.Phone, CreatedAt: a.CreatedAt.UTC(),
		UpdatedAt: a.UpdatedAt.UTC(), DeletedAt: utc(c.PlatformDeletedAt)}
}

func (a *API) listCustomers(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	page, err := a.svc.Customers.List(r.Context(), sh, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]customerJSON, len(page.Customers))
	for i, c := range page.Customers {
		out[i] = customerBody(sh, c)
	}
	writeJSON(w, http.StatusOK, map[string]any{"pagination": paginationBody(r, page.Pagination), "customers": out})
}

// pathID reads a path id; one that is not a number names nothing the shop has.
func pathID(v, typ, what string) (int, error) {
	id, err := strconv.Atoi(v)
	if err != nil || id <= 0 {
		return 0, problem.NotFoundError(typ, "the shop has no "+what+" "+strconv.Quote(clipText(v)))
	}
	return id, nil
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func (a *API) getShopCustomer(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := pathID(r.PathValue("id"), "customer.not_found", "customer")
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.svc.Customers.Get(r.Context(), sh, id, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"customer": customerBody(sh, c)})
}

func (a *API) getCustomerByPlatformID(w http.ResponseWriter, r *http.Request, sh *ent.Shop, pid string) {
	c, err := a.svc.Customers.GetByPlatformID(r.Context(), sh, pid, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"customer": customerBody(sh, c)})
}

func (a *API) validateCustomerToken(w http.ResponseWriter, r *http.Request, sh *ent.Shop, pid string) {
	if err := a.svc.Connector.CheckCustomerToken(r.Context(), sh, pid, r.URL.Query().Get("jwt")); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"platform_id": pid, "valid": true})
}

func (a *API) listCustomerAddresses(w http.ResponseWriter, r *http.Request, sh *ent.Shop, customer string) {
	id, err := pathID(customer, "customer.not_found", "customer")
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.svc.Customers.Addresses(r.Context(), sh, id, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]addressJSON, len(c.Edges.Addresses))
	for i, ad := range c.Edges.Addresses {
		out[i] = addressBody(sh, c, ad)
	}
	writeJSON(w, http.StatusOK, map[string]any{"addresses": out})
}

func (a *API) getCustomerAddress(w http.ResponseWriter, r *http.Request, sh *ent.Shop, customer, address string) {
	customerID, err := pathID(customer, "customer.not_found", "customer")
	if err != nil {
		writeError(w, r, err)
		return
	}
	id, err := pathID(address, "customer_address.not_found", "customer address")
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, ad, err := a.svc.Customers.Address(r.Context(), sh, customerID, id, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"address": addressBody(sh, c, ad)})
}
