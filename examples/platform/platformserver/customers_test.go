package platformserver

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestCustomerAndAddressCRUD(t *testing.T) {
	f := newFixture(t)
	var created customerAnswer
	resp := f.do("POST", "customers", data("customer", map[string]any{
		"first_name": "Ada", "last_name": "Lovelace", "phone": "+15550001", "email": "ada@example.com",
		"addresses": []map[string]any{{"street_1": "1 Analytical Way", "city": "London", "country_code": "GB", "is_default": true}},
	}), &created)
	wantStatus(t, resp, http.StatusCreated)
	c := created.Data.Customer
	if c.PlatformID == "" || c.PlatformCreatedAt.IsZero() || !c.PlatformUpdatedAt.Equal(testNow) || c.FirstName != "Ada" {
		t.Fatalf("created %+v", c)
	}
	if len(c.Addresses) != 1 || c.Addresses[0].PlatformID == "" || c.Addresses[0].PlatformCustomerID != c.PlatformID {
		t.Fatalf("created addresses %+v", c.Addresses)
	}

	// Partial update: only the phone changes.
	var updated customerAnswer
	wantStatus(t, f.do("PATCH", "customers/"+c.PlatformID, data("customer", map[string]any{"phone": "+15559999"}), &updated), http.StatusOK)
	u := updated.Data.Customer
	if u.Phone != "+15559999" || u.FirstName != "Ada" || u.Email != "ada@example.com" || len(u.Addresses) != 1 || u.Addresses[0].PlatformID != c.Addresses[0].PlatformID {
		t.Fatalf("updated %+v", u)
	}

	// Addresses.
	var a addressAnswer
	wantStatus(t, f.do("POST", "customers/"+c.PlatformID+"/addresses", data("address", map[string]any{"street_1": "2 Difference St", "city": "Paris"}), &a), http.StatusCreated)
	addr := a.Data.Address
	if addr.PlatformID == "" || addr.PlatformCustomerID != c.PlatformID || addr.PlatformID == c.Addresses[0].PlatformID {
		t.Fatalf("created address %+v", addr)
	}
	wantStatus(t, f.do("PATCH", "customers/"+c.PlatformID+"/addresses/"+addr.PlatformID, data("address", map[string]any{"postal_code": "75001"}), &a), http.StatusOK)
	if a.Data.Address.PostalCode != "75001" || a.Data.Address.City != "Paris" || a.Data.Address.Street1 != "2 Difference St" {
		t.Fatalf("updated address %+v", a.Data.Address)
	}
	wantStatus(t, f.do("DELETE", "customers/"+c.PlatformID+"/addresses/"+addr.PlatformID, nil, nil), http.StatusNoContent)
	wantStatus(t, f.do("DELETE", "customers/"+c.PlatformID+"/addresses/"+addr.PlatformID, nil, nil), http.StatusNotFound)
	wantStatus(t, f.do("PATCH", "customers/"+c.PlatformID+"/addresses/"+addr.PlatformID, data("address", map[string]any{}), nil), http.StatusNotFound)

	// The deleted address is kept, marked, and no longer answered.
	stored, _ := f.srv.Customer(testShop, c.PlatformID)
	if len(stored.Addresses) != 2 || stored.Addresses[1].PlatformDeletedAt.IsZero() {
		t.Fatalf("stored addresses %+v", stored.Addresses)
	}
	var found customersAnswer
	wantStatus(t, f.do("GET", "customers?email=ADA@example.com", nil, &found), http.StatusOK)
	if len(found.Data.Customers) != 1 || found.Data.Customers[0].PlatformID != c.PlatformID || len(found.Data.Customers[0].Addresses) != 1 {
		t.Fatalf("by email %+v", found.Data.Customers)
	}

	// Customer delete.
	wantStatus(t, f.do("DELETE", "customers/"+c.PlatformID, nil, nil), http.StatusNoContent)
	wantStatus(t, f.do("DELETE", "customers/"+c.PlatformID, nil, nil), http.StatusNotFound)
	if got := f.srv.Customers(testShop); len(got) != 1 || got[0].PlatformDeletedAt.IsZero() {
		t.Fatalf("deleted customer not kept and marked: %+v", got)
	}
	found = customersAnswer{}
	wantStatus(t, f.do("GET", "customers?email=ada@example.com", nil, &found), http.StatusOK)
	if len(found.Data.Customers) != 0 {
		t.Fatalf("a deleted customer is still found: %+v", found.Data.Customers)
	}
}

func TestUnknownIDs(t *testing.T) {
	f := newFixture(t)
	c := f.srv.AddCustomer(testShop, Customer{FirstName: "Grace"})
	for _, call := range []struct{ method, path string }{
		{"PATCH", "customers/nope"},
		{"DELETE", "customers/nope"},
		{"POST", "customers/nope/validate"},
		{"POST", "customers/nope/addresses"},
		{"PATCH", "customers/nope/addresses/adr_1"},
		{"DELETE", "customers/" + c.PlatformID + "/addresses/nope"},
	} {
		// One body that every operation can read, so that only the unknown id can fail.
		body := map[string]any{"data": map[string]any{"customer": map[string]any{}, "address": map[string]any{}, "token_info": map[string]any{"token": "x"}}}
		var e errorAnswer
		resp := f.do(call.method, call.path, body, &e)
		if resp.StatusCode != http.StatusNotFound || len(e.Errors) != 1 || e.Errors[0].Message == "" {
			t.Errorf("%s %s: %d %+v, want 404 with an error", call.method, call.path, resp.StatusCode, e)
		}
	}
}

func TestUnreadableBodies(t *testing.T) {
	f := newFixture(t)
	for _, body := range []string{"{", `{"data":{}}`, `{"data":{"customer":"ada"}}`, ""} {
		req := f.request("POST", "customers", nil)
		req.Body = io.NopCloser(strings.NewReader(body))
		var e errorAnswer
		if resp := f.send(req, &e); resp.StatusCode != http.StatusBadRequest || len(e.Errors) != 1 {
			t.Errorf("body %q: status %d, want 400", body, resp.StatusCode)
		}
	}
	if n := len(f.srv.Customers(testShop)); n != 0 {
		t.Fatalf("%d customers created from bad bodies", n)
	}
}

func TestValidateCustomerToken(t *testing.T) {
	f := newFixture(t)
	a := f.srv.AddCustomer(testShop, Customer{FirstName: "A"})
	b := f.srv.AddCustomer(testShop, Customer{FirstName: "B"})
	tok := f.srv.IssueCustomerToken(testShop, a.PlatformID)
	for _, tc := range []struct {
		customer, token string
		active          bool
	}{
		{a.PlatformID, tok, true},
		{b.PlatformID, tok, false},
		{a.PlatformID, "made-up", false},
		{a.PlatformID, "", false},
	} {
		var ans struct {
			Data struct {
				TokenStatus struct {
					Active *bool `json:"active"`
				} `json:"token_status"`
			} `json:"data"`
		}
		wantStatus(t, f.do("POST", "customers/"+tc.customer+"/validate", data("token_info", map[string]any{"token": tc.token}), &ans), http.StatusOK)
		if ans.Data.TokenStatus.Active == nil || *ans.Data.TokenStatus.Active != tc.active {
			t.Errorf("customer %s token %q: active %v, want %v", tc.customer, tc.token, ans.Data.TokenStatus.Active, tc.active)
		}
	}
}

func TestUpdateReplacesAddressesKeepingKnownIDs(t *testing.T) {
	f := newFixture(t)
	c := f.srv.AddCustomer(testShop, Customer{Addresses: []Address{{City: "Old"}, {City: "Gone"}}})
	keep := c.Addresses[0]
	keep.City = "New"
	var u customerAnswer
	wantStatus(t, f.do("PATCH", "customers/"+c.PlatformID, data("customer", map[string]any{
		"addresses": []any{keep, map[string]any{"city": "Added"}},
	}), &u), http.StatusOK)
	got := u.Data.Customer.Addresses
	if len(got) != 2 || got[0].PlatformID != keep.PlatformID || got[0].City != "New" || got[1].City != "Added" || got[1].PlatformID == c.Addresses[1].PlatformID {
		t.Fatalf("addresses %+v", got)
	}
}

func TestAssignedIDsSkipThoseATestChose(t *testing.T) {
	f := newFixture(t)
	f.srv.AddCustomer(testShop, Customer{PlatformID: "cus_000000000001", FirstName: "Chosen"})
	var created customerAnswer
	wantStatus(t, f.do("POST", "customers", data("customer", map[string]any{"first_name": "New"}), &created), http.StatusCreated)
	if created.Data.Customer.PlatformID == "cus_000000000001" {
		t.Fatal("a created customer took the id a test chose")
	}
	if c, _ := f.srv.Customer(testShop, "cus_000000000001"); c.FirstName != "Chosen" {
		t.Fatalf("the chosen customer was replaced: %+v", c)
	}
}
