package platformserver

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"
)

func TestListCustomersPagesThroughSeeded(t *testing.T) {
	f := newFixture(t)
	f.srv.SeedCustomers(testShop, 600)
	var ids []string
	var pages []int
	cursor := ""
	for {
		var ans customersAnswer
		wantStatus(t, f.do("GET", "customers?limit=250&cursor="+url.QueryEscape(cursor), nil, &ans), http.StatusOK)
		pages = append(pages, len(ans.Data.Customers))
		for _, c := range ans.Data.Customers {
			ids = append(ids, c.PlatformID)
		}
		if len(pages) > 1 && ans.Pagination.Prev == "" {
			t.Errorf("page %d has no prev cursor", len(pages))
		}
		if ans.Pagination.Next == "" {
			break
		}
		cursor = ans.Pagination.Next
	}
	if fmt.Sprint(pages) != "[250 250 100]" {
		t.Fatalf("page sizes %v, want [250 250 100]", pages)
	}
	seen := map[string]bool{}
	for i, id := range ids {
		if seen[id] {
			t.Fatalf("%s listed twice", id)
		}
		seen[id] = true
		if i > 0 && ids[i-1] >= id {
			t.Fatalf("not ascending: %s then %s", ids[i-1], id)
		}
	}
	if len(seen) != 600 {
		t.Fatalf("%d distinct customers, want 600", len(seen))
	}

	// The seeded customers are predictable.
	var one customersAnswer
	wantStatus(t, f.do("GET", "customers?email=customer42@example.com", nil, &one), http.StatusOK)
	if len(one.Data.Customers) != 1 || one.Data.Customers[0].Phone != "+15550000042" || len(one.Data.Customers[0].Addresses) != 1 {
		t.Fatalf("customer42: %+v", one.Data.Customers)
	}
}

func TestListLimitAndPrev(t *testing.T) {
	f := newFixture(t)
	f.srv.SeedCustomers(testShop, 300)
	for _, limit := range []string{"", "0", "251", "abc", "-3"} {
		var ans customersAnswer
		wantStatus(t, f.do("GET", "customers?limit="+limit, nil, &ans), http.StatusOK)
		if len(ans.Data.Customers) != 250 || ans.Pagination.Prev != "" || ans.Pagination.Next == "" {
			t.Errorf("limit %q: %d customers, pagination %+v; want 250 and a next page", limit, len(ans.Data.Customers), ans.Pagination)
		}
	}
	var p1, p2, back customersAnswer
	f.do("GET", "customers?limit=10", nil, &p1)
	f.do("GET", "customers?limit=10&cursor="+p1.Pagination.Next, nil, &p2)
	f.do("GET", "customers?limit=10&cursor="+p2.Pagination.Prev, nil, &back)
	if len(back.Data.Customers) != 10 || back.Data.Customers[0].PlatformID != p1.Data.Customers[0].PlatformID {
		t.Fatalf("prev of page 2 is not page 1")
	}
	wantStatus(t, f.do("GET", "customers?cursor=garbage!", nil, nil), http.StatusBadRequest)
}

func TestDeletedCustomersAreNotListed(t *testing.T) {
	f := newFixture(t)
	f.srv.SeedCustomers(testShop, 5)
	all := f.srv.Customers(testShop)
	wantStatus(t, f.do("DELETE", "customers/"+all[4].PlatformID, nil, nil), http.StatusNoContent)
	var ans customersAnswer
	f.do("GET", "customers?limit=4", nil, &ans)
	if len(ans.Data.Customers) != 4 || ans.Pagination.Next != "" {
		t.Fatalf("4 live customers should fit one page: %d, %+v", len(ans.Data.Customers), ans.Pagination)
	}
}

func TestListProductsAndOrders(t *testing.T) {
	f := newFixture(t)
	for i := range 3 {
		f.srv.AddProduct(testShop, Product{Name: fmt.Sprint("p", i), Categories: []Category{{Name: "c"}}})
		f.srv.AddOrder(testShop, Order{Total: "1.00"})
	}
	var prods struct {
		Data struct {
			Products []Product `json:"products"`
		} `json:"data"`
		Pagination Pagination `json:"pagination"`
	}
	wantStatus(t, f.do("GET", "products?limit=2", nil, &prods), http.StatusOK)
	if len(prods.Data.Products) != 2 || prods.Pagination.Next == "" || prods.Data.Products[0].Name != "p0" {
		t.Fatalf("products page 1: %+v", prods)
	}
	f.do("GET", "products?limit=2&cursor="+prods.Pagination.Next, nil, &prods)
	if len(prods.Data.Products) != 1 || prods.Pagination.Next != "" || prods.Data.Products[0].Name != "p2" {
		t.Fatalf("products page 2: %+v", prods)
	}
	var orders struct {
		Data struct {
			Orders []Order `json:"orders"`
		} `json:"data"`
		Pagination Pagination `json:"pagination"`
	}
	wantStatus(t, f.do("GET", "orders", nil, &orders), http.StatusOK)
	if len(orders.Data.Orders) != 3 || orders.Pagination.Next != "" {
		t.Fatalf("orders: %+v", orders)
	}
	if n := len(f.srv.Categories(testShop)); n != 3 {
		t.Fatalf("%d categories, want 3", n)
	}
}

func BenchmarkListCustomers100k(b *testing.B) {
	srv := New(map[string][]byte{testShop: testSecret})
	srv.SeedCustomers(testShop, 100_000)
	b.ResetTimer()
	for b.Loop() {
		cursor, n := "", 0
		for {
			req, _ := http.NewRequest("GET", "/v1/shops/demo/customers?cursor="+cursor, nil)
			req.Header.Set("User-Agent", "bench")
			Sign(req.Header, testSecret, time.Now())
			w := newDiscard()
			srv.ServeHTTP(w, req)
			n++
			if w.next == "" {
				break
			}
			cursor = w.next
		}
		if n != 400 {
			b.Fatalf("%d pages, want 400", n)
		}
	}
}
