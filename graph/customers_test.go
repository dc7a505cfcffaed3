package graph_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/customers"
)

func seedGraphCustomers(t *testing.T, svc *service.Service, shop string, rows ...customers.CustomerInput) {
	t.Helper()
	ctx := context.Background()
	sh, err := svc.Shops.ShopByIdentifier(ctx, shop)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := svc.Client().Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Customers.ImportCustomers(ctx, tx, sh.ID, rows); err != nil {
		_ = tx.Rollback()
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func graphCustomer(pid, first, last string) customers.CustomerInput {
	return customers.CustomerInput{PlatformID: pid, PlatformUpdatedAt: "2026-11-01T10:00:00Z", FirstName: &first, LastName: &last}
}

const customersQuery = `query($first: Int, $after: String, $filter: [String!], $search: String) {
	customers(first: $first, after: $after, filter: $filter, search: $search, orderBy: LAST_NAME, orderDirection: DESC) {
		totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { platformID lastName addresses { city } } } } }`

func TestCustomersAreAConnectionWithTheListsFilterSearchAndPages(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		var rows []customers.CustomerInput
		for i := range 5 {
			rows = append(rows, graphCustomer(fmt.Sprintf("c%d", i), "Ann", fmt.Sprintf("Smith%d", i)))
		}
		seedGraphCustomers(t, svc, "shop-a", append(rows, graphCustomer("other", "Bob", "Stone"))...)
		otherToken := newShop(t, svc, "shop-b")
		seedGraphCustomers(t, svc, "shop-b", graphCustomer("b1", "Ann", "Smith9"))

		var seen []string
		vars := map[string]any{"first": 2, "filter": []string{"like(last_name:smith*)"}}
		for pages := 0; pages < 5; pages++ {
			r := query(t, url, token, customersQuery, vars)
			if len(r.Errors) > 0 {
				t.Fatalf("errors %v", r.Errors)
			}
			conn := get(r.Data, "customers").(map[string]any)
			if conn["totalCount"] != 5.0 {
				t.Fatalf("totalCount %v", conn["totalCount"])
			}
			for _, e := range conn["edges"].([]any) {
				seen = append(seen, get(e, "node", "platformID").(string))
			}
			if get(conn, "pageInfo", "hasNextPage") != true {
				break
			}
			vars["after"] = get(conn, "pageInfo", "endCursor")
		}
		if !slices.Equal(seen, []string{"c4", "c3", "c2", "c1", "c0"}) {
			t.Fatalf("walked %v", seen)
		}
		r := query(t, url, token, customersQuery, map[string]any{"search": "Stoen"})
		if edges := get(r.Data, "customers", "edges").([]any); len(edges) != 1 || get(edges[0], "node", "platformID") != "other" {
			t.Fatalf("search: %v %v", r.Data, r.Errors)
		}
		// Another shop's token lists that shop's customers only.
		r = query(t, url, otherToken, customersQuery, nil)
		if edges := get(r.Data, "customers", "edges").([]any); len(edges) != 1 || get(edges[0], "node", "platformID") != "b1" {
			t.Fatalf("shop-b: %v", r.Data)
		}
		r = query(t, url, token, customersQuery, map[string]any{"filter": []string{"eq(password:x)"}})
		if len(r.Errors) == 0 || get(r.Errors[0], "extensions", "type") != "filter.invalid" {
			t.Fatalf("bad filter: %v", r.Errors)
		}
	})
}
