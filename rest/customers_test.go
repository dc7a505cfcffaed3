package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/examples/platform/platformserver"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/shops"
)

func customersPath(a *api) string { return "/customers/v2/shops/" + a.shop + "/customers" }

// seedCustomers stores customers as a sync would, and answers their ids by platform id.
func seedCustomers(t *testing.T, a *api, rows ...customers.CustomerInput) map[string]int {
	t.Helper()
	ctx := context.Background()
	sh := shopEntity(t, a)
	tx, err := a.svc.Client().Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if invalid, err := a.svc.Customers.ImportCustomers(ctx, tx, sh.ID, rows); err != nil || invalid != 0 {
		_ = tx.Rollback()
		t.Fatalf("import: %d invalid, %v", invalid, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	all, err := a.svc.Client().Customer.Query().Where(customer.ShopID(sh.ID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int{}
	for _, c := range all {
		ids[c.PlatformID] = c.ID
	}
	return ids
}

func person(pid, first, last, email, phone, created string, addresses ...customers.AddressInput) customers.CustomerInput {
	in := customers.CustomerInput{PlatformID: pid, PlatformUpdatedAt: "2026-11-01T10:00:00Z", FirstName: &first, LastName: &last, Email: &email, Phone: &phone}
	if created != "" {
		in.PlatformCreatedAt = &created
	}
	if addresses != nil {
		in.Addresses = &addresses
	}
	return in
}

func numbered(n int, prefix string) []customers.CustomerInput {
	rows := make([]customers.CustomerInput, n)
	for i := range rows {
		rows[i] = person(fmt.Sprintf("%s%03d", prefix, i), "First", fmt.Sprintf("Last%03d", i), "", "", "")
	}
	return rows
}

// listed is the platform ids of a list's customers, in order.
func listed(t *testing.T, r response) []string {
	t.Helper()
	r.wantStatus(t, 200)
	cs, ok := r.Body["customers"].([]any)
	if !ok {
		t.Fatalf("no customers in %s", r.Raw)
	}
	out := []string{}
	for _, c := range cs {
		out = append(out, c.(map[string]any)["platform_id"].(string))
	}
	return out
}

func threeCustomers(t *testing.T, a *api) map[string]int {
	return seedCustomers(t, a,
		person("c1", "John", "Smith", "john.smith@example.com", "+15550104242", "2026-03-01T10:00:00Z",
			customers.AddressInput{PlatformID: "a1", City: strp("Albany"), IsDefault: boolp(true), CountryCode: strp("US"), PostalCode: strp("12207")},
			customers.AddressInput{PlatformID: "a2", City: strp("Boston")}),
		person("c2", "Jane", "Doe", "jane@example.org", "+447700900123", "2026-03-02T23:30:00-02:00"),
		person("c3", "Bob", "Stone", "bob_stone@example.com", "", ""))
}

func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }

func TestEachFilterOperatorOnEachCustomerColumnType(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		ids := threeCustomers(t, a)
		id1, id2 := strconv.Itoa(ids["c1"]), strconv.Itoa(ids["c2"])
		for _, c := range []struct {
			filter string
			want   []string
		}{
			// text
			{"eq(last_name:Doe)", []string{"c2"}},
			{"neq(last_name:Doe)", []string{"c1", "c3"}},
			{"gt(last_name:Smith)", []string{"c3"}},
			{"gte(last_name:Smith)", []string{"c1", "c3"}},
			{"lt(last_name:Smith)", []string{"c2"}},
			{"lte(last_name:Smith)", []string{"c1", "c2"}},
			{"like(email:*@example.com)", []string{"c1", "c3"}},
			{"like(email:bob_*)", []string{"c3"}},
			{"nlike(email:*.com)", []string{"c2"}},
			{"in(first_name:John, Bob)", []string{"c1", "c3"}},
			{"nin(first_name:John, Bob)", []string{"c2"}},
			{"eq(phone:)", []string{"c3"}},
			// whole number
			{"eq(id:" + id1 + ")", []string{"c1"}},
			{"neq(id:" + id1 + ")", []string{"c2", "c3"}},
			{"gt(id:" + id1 + ")", []string{"c2", "c3"}},
			{"gte(id:" + id2 + ")", []string{"c2", "c3"}},
			{"lt(id:" + id2 + ")", []string{"c1"}},
			{"lte(id:" + id2 + ")", []string{"c1", "c2"}},
			{"in(id:" + id1 + "," + id2 + ")", []string{"c1", "c2"}},
			{"nin(id:" + id1 + "," + id2 + ")", []string{"c3"}},
			// time: c2 was created 2026-03-03T01:30:00Z, whatever offset it was written in
			{"eq(platform_created_at:2026-03-03)", []string{"c2"}},
			{"neq(platform_created_at:2026-03-03)", []string{"c1", "c3"}},
			{"gt(platform_created_at:2026-03-01T10:00:00Z)", []string{"c2"}},
			{"gte(platform_created_at:2026-03-01T12:00:00+02:00)", []string{"c1", "c2"}},
			{"lt(platform_created_at:2026-03-02)", []string{"c1"}},
			{"lte(platform_created_at:2026-03-03T01:30:00Z)", []string{"c1", "c2"}},
			{"in(platform_created_at:2026-03-01, 2026-03-03)", []string{"c1", "c2"}},
			{"nin(platform_created_at:2026-03-01)", []string{"c2", "c3"}},
			// combined
			{"like(email:*example.com)+neq(first_name:Bob)", []string{"c1"}},
			{"gte(id:" + id1 + ") lt(id:" + id2 + ")", []string{"c1"}},
		} {
			got := listed(t, a.do("GET", customersPath(a)+"?filter="+url.QueryEscape(c.filter), nil))
			if !slices.Equal(got, c.want) {
				t.Errorf("filter %s: %v, want %v", c.filter, got, c.want)
			}
		}
		// Repeated filter parameters all hold.
		got := listed(t, a.do("GET", customersPath(a)+"?filter=like(email:*.com)&filter=neq(last_name:Smith)", nil))
		if !slices.Equal(got, []string{"c3"}) {
			t.Errorf("repeated filters: %v", got)
		}
		// And with the other query parameters.
		got = listed(t, a.do("GET", customersPath(a)+"?filter=like(email:*.com)&ids="+id1+","+id2+"&search=smith", nil))
		if !slices.Equal(got, []string{"c1"}) {
			t.Errorf("filter, ids and search: %v", got)
		}
	})
}

func TestBadCustomerFiltersAndQueriesAre400NamingTheProblem(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		threeCustomers(t, a)
		for _, c := range []struct{ query, typ, field, says string }{
			{"filter=eq(password:x)", "filter.invalid", "filter", "password"},
			{"filter=approx(email:x)", "filter.invalid", "filter", "approx"},
			{"filter=eq(id:abc)", "filter.invalid", "filter", "whole number"},
			{"filter=like(id:1*)", "filter.invalid", "filter", "like"},
			{"filter=eq(created_at:yesterday)", "filter.invalid", "filter", "RFC 3339"},
			{"filter=eq(email:x", "filter.invalid", "filter", "parenthes"},
			{"limit=101", "query.invalid", "limit", "1 to 100"},
			{"limit=0", "query.invalid", "limit", "1 to 100"},
			{"page=0", "query.invalid", "page", "page"},
			{"page=1001", "query.invalid", "page", "next_url"},
			{"orderby=password", "query.invalid", "orderby", "last_name"},
			{"orderdirection=up", "query.invalid", "orderdirection", "asc"},
			{"since_id=x", "query.invalid", "since_id", "since_id"},
			{"ids=1,x", "query.invalid", "ids", `"x"`},
			{"updated_at_min=monday", "query.invalid", "updated_at_min", "RFC 3339"},
			{"include_deleted=maybe", "query.invalid", "include_deleted", "true or false"},
			{"search=ab", "query.invalid", "search", "3 characters"},
			{"after=bm90LWEtY3Vyc29y", "query.invalid", "after", "cursor"},
		} {
			e := a.do("GET", customersPath(a)+"?"+c.query, nil).wantError(t, 400, "02-00", c.typ)
			if d, _ := e["details"].(map[string]any); d["field"] != c.field || !strings.Contains(e["message"].(string), c.says) {
				t.Errorf("%s: %v, want field %s and a message saying %q", c.query, e, c.field, c.says)
			}
		}
	})
}

func TestCustomerPaginationTotalsAndLinksOnTheFirstAMiddleAndTheLastPage(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		seedCustomers(t, a, numbered(7, "p")...)
		first := a.do("GET", customersPath(a)+"?limit=3&filter=eq(first_name:First)", nil)
		p := pagination(t, first)
		want := func(p map[string]any, total, count, current, pages float64, next, previous bool) {
			t.Helper()
			if p["total"] != total || p["count"] != count || p["per_page"] != 3.0 || p["current_page"] != current || p["total_pages"] != pages ||
				(p["next_url"] != nil) != next || (p["previous_url"] != nil) != previous {
				t.Fatalf("pagination %v", p)
			}
		}
		want(p, 7, 3, 1, 3, true, false)
		if got := listed(t, first); !slices.Equal(got, []string{"p000", "p001", "p002"}) {
			t.Fatalf("page 1: %v", got)
		}
		if !strings.Contains(p["next_url"].(string), "filter=eq%28first_name%3AFirst%29") || !strings.HasPrefix(p["next_url"].(string), a.url) {
			t.Fatalf("next_url %v does not keep the list's filter on its URL", p["next_url"])
		}
		middle := follow(t, a, p["next_url"])
		pm := pagination(t, middle)
		want(pm, 7, 3, 2, 3, true, true)
		if got := listed(t, middle); !slices.Equal(got, []string{"p003", "p004", "p005"}) {
			t.Fatalf("page 2: %v", got)
		}
		last := follow(t, a, pm["next_url"])
		pl := pagination(t, last)
		want(pl, 7, 1, 3, 3, false, true)
		if got := listed(t, last); !slices.Equal(got, []string{"p006"}) {
			t.Fatalf("page 3: %v", got)
		}
		back := follow(t, a, pl["previous_url"])
		want(pagination(t, back), 7, 3, 2, 3, true, true)
		if got := listed(t, back); !slices.Equal(got, []string{"p003", "p004", "p005"}) {
			t.Fatalf("back to page 2: %v", got)
		}
		backFirst := follow(t, a, pagination(t, back)["previous_url"])
		want(pagination(t, backFirst), 7, 3, 1, 3, true, false)
		// page is an offset without a cursor, and the same page.
		if got := listed(t, a.do("GET", customersPath(a)+"?limit=3&page=2", nil)); !slices.Equal(got, []string{"p003", "p004", "p005"}) {
			t.Fatalf("page=2: %v", got)
		}
		// Ordered by a text column, descending, through the cursors.
		desc := a.do("GET", customersPath(a)+"?limit=4&orderby=last_name&orderdirection=desc", nil)
		next := follow(t, a, pagination(t, desc)["next_url"])
		if got := append(listed(t, desc), listed(t, next)...); !slices.Equal(got, []string{"p006", "p005", "p004", "p003", "p002", "p001", "p000"}) {
			t.Fatalf("by last_name desc: %v", got)
		}
		// Past the end: no rows, a way back.
		past := a.do("GET", customersPath(a)+"?limit=3&page=5", nil)
		if pp := pagination(t, past); pp["count"] != 0.0 || pp["next_url"] != nil || pp["previous_url"] == nil {
			t.Fatalf("past the end: %v", pp)
		}
	})
}

func TestSinceIDListsTheCustomersAfterItAfterDeletions(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		ids := seedCustomers(t, a, numbered(6, "s")...)
		ctx := context.Background()
		// s001 is gone from the store, s003 deleted on the platform (kept, hidden).
		if err := a.svc.Client().Customer.DeleteOneID(ids["s001"]).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := a.svc.Client().Customer.UpdateOneID(ids["s003"]).SetPlatformDeletedAt(time.Now()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		r := a.do("GET", customersPath(a)+"?since_id="+strconv.Itoa(ids["s001"])+"&limit=2", nil)
		if got := listed(t, r); !slices.Equal(got, []string{"s002", "s004"}) {
			t.Fatalf("since the deleted s001: %v", got)
		}
		if p := pagination(t, r); p["total"] != 3.0 {
			t.Fatalf("total %v, want 3 (s002, s004, s005)", p["total"])
		}
		if got := listed(t, follow(t, a, pagination(t, r)["next_url"])); !slices.Equal(got, []string{"s005"}) {
			t.Fatalf("next page: %v", got)
		}
		got := listed(t, a.do("GET", customersPath(a)+"?since_id="+strconv.Itoa(ids["s001"])+"&include_deleted=true", nil))
		if !slices.Equal(got, []string{"s002", "s003", "s004", "s005"}) {
			t.Fatalf("with the deleted: %v", got)
		}
	})
}

func TestWalkingNextURLWhileCustomersAreAddedReturnsEveryRowOnce(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		seedCustomers(t, a, numbered(10, "w")...)
		for _, order := range []string{"", "&orderby=created_at", "&orderby=last_name&orderdirection=desc"} {
			seen := map[string]int{}
			r := a.do("GET", customersPath(a)+"?limit=3"+order, nil)
			added := 0
			for pages := 0; ; pages++ {
				for _, pid := range listed(t, r) {
					seen[pid]++
				}
				// Rows added while walking, before and after the position.
				seedCustomers(t, a, person(fmt.Sprintf("x%s%02d", order, added), "First", "Last999", "", "", ""),
					person(fmt.Sprintf("y%s%02d", order, added), "First", "Last", "", "", ""))
				added++
				next := pagination(t, r)["next_url"]
				if next == nil || pages > 30 {
					break
				}
				r = follow(t, a, next)
			}
			for pid, n := range seen {
				if n != 1 {
					t.Fatalf("%s listed %d times (order %q)", pid, n, order)
				}
			}
			for i := range 10 {
				if seen[fmt.Sprintf("w%03d", i)] != 1 {
					t.Fatalf("w%03d not listed (order %q): %v", i, order, seen)
				}
			}
		}
	})
}

func TestFuzzySearchFindsACustomerByAMisspelledNameAndAPartialPhone(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		threeCustomers(t, a)
		seedCustomers(t, a, person("c4", "Johanna", "Smithers", "jo@example.net", "+15559998888", ""))
		for _, c := range []struct {
			search string
			want   []string
		}{
			{"John Smiht", []string{"c1"}},
			{"smiht", []string{"c1"}},
			{"Jnae", nil},
			{"Jane Deo", nil},
			{"Doe", []string{"c2"}},
			{"0104242", []string{"c1"}},
			{"7700 900", []string{"c2"}},
			{"example.org", []string{"c2"}},
			{"SMITH", []string{"c1", "c4"}},
			{"Stoen", []string{"c3"}},
			{"jo smith", []string{"c1", "c4"}},
		} {
			got := listed(t, a.do("GET", customersPath(a)+"?search="+url.QueryEscape(c.search), nil))
			if c.want == nil {
				c.want = []string{}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("search %q: %v, want %v", c.search, got, c.want)
			}
		}
	})
}

func TestCustomerReadsWithATokenOfAnotherShopAre401AndRevealNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		ids := threeCustomers(t, a)
		other, err := a.svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		sameID := http.Header{"X-Request-Id": {"probe"}}
		for _, path := range []string{"", "/" + strconv.Itoa(ids["c1"]), "/pid/c1", "/" + strconv.Itoa(ids["c1"]) + "/addresses", "/pid/c1/validate?jwt=x"} {
			known := a.call(other.AccessToken, "GET", customersPath(a)+path, nil, sameID)
			known.wantError(t, 401, "02-01", "auth.unauthorized")
			unknown := a.call(other.AccessToken, "GET", "/customers/v2/shops/no-such-shop/customers"+path, nil, sameID)
			if known.Raw != unknown.Raw || strings.Contains(known.Raw, "Smith") {
				t.Fatalf("answers differ or reveal: %s\n%s", known.Raw, unknown.Raw)
			}
		}
		// The other shop's own list is empty.
		b := &api{t: t, url: a.url, svc: a.svc, shop: "shop-b", token: other.AccessToken}
		if got := listed(t, b.do("GET", customersPath(b), nil)); len(got) != 0 {
			t.Fatalf("shop-b lists %v", got)
		}
		b.do("GET", customersPath(b)+"/"+strconv.Itoa(ids["c1"]), nil).wantError(t, 404, "02-04", "customer.not_found")
	})
}

func TestACustomerIsReadByIdAndPlatformIdWithItsAddressesAndHiddenOnceDeleted(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		ids := threeCustomers(t, a)
		id := strconv.Itoa(ids["c1"])
		c := a.do("GET", customersPath(a)+"/"+id, nil).wantStatus(t, 200).Body["customer"].(map[string]any)
		if c["platform_id"] != "c1" || c["shop_identifier"] != a.shop || len(c["addresses"].([]any)) != 2 || c["labels"] == nil ||
			c["default_address"].(map[string]any)["city"] != "Albany" || c["platform_created_at"] != "2026-03-01T10:00:00Z" {
			t.Fatalf("customer %v", c)
		}
		byPID := a.do("GET", customersPath(a)+"/pid/c1", nil).wantStatus(t, 200).Body["customer"].(map[string]any)
		if byPID["id"] != c["id"] {
			t.Fatalf("by platform id %v", byPID)
		}
		addresses := a.do("GET", customersPath(a)+"/"+id+"/addresses", nil).wantStatus(t, 200).Body["addresses"].([]any)
		if len(addresses) != 2 {
			t.Fatalf("addresses %v", addresses)
		}
		first := addresses[0].(map[string]any)
		if first["zip"] != "12207" || first["country_iso2"] != "US" || first["platform_customer_id"] != "c1" || first["service_customer_id"] != c["id"] {
			t.Fatalf("address %v", first)
		}
		addressID := strconv.Itoa(int(first["id"].(float64)))
		got := a.do("GET", customersPath(a)+"/"+id+"/addresses/"+addressID, nil).wantStatus(t, 200).Body["address"].(map[string]any)
		if got["platform_id"] != "a1" {
			t.Fatalf("address %v", got)
		}
		a.do("GET", customersPath(a)+"/"+strconv.Itoa(ids["c2"])+"/addresses/"+addressID, nil).wantError(t, 404, "02-04", "customer_address.not_found")
		a.do("GET", customersPath(a)+"/"+id+"/addresses/x", nil).wantError(t, 404, "02-04", "customer_address.not_found")
		a.do("GET", customersPath(a)+"/x", nil).wantError(t, 404, "02-04", "customer.not_found")
		a.do("GET", customersPath(a)+"/pid/nobody", nil).wantError(t, 404, "02-04", "customer.not_found")
		a.do("GET", customersPath(a)+"/"+id+"/other", nil).wantError(t, 404, "02-04", "route.not_found")

		if err := a.svc.Client().Customer.UpdateOneID(ids["c1"]).SetPlatformDeletedAt(time.Now()).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		a.do("GET", customersPath(a)+"/"+id, nil).wantError(t, 404, "02-04", "customer.not_found")
		a.do("GET", customersPath(a)+"/pid/c1", nil).wantError(t, 404, "02-04", "customer.not_found")
		a.do("GET", customersPath(a)+"/"+id+"/addresses", nil).wantError(t, 404, "02-04", "customer.not_found")
		if got := listed(t, a.do("GET", customersPath(a), nil)); !slices.Equal(got, []string{"c2", "c3"}) {
			t.Fatalf("list without the deleted: %v", got)
		}
		deleted := a.do("GET", customersPath(a)+"/"+id+"?include_deleted=true", nil).wantStatus(t, 200).Body["customer"].(map[string]any)
		if deleted["deleted_at"] == nil {
			t.Fatalf("deleted customer %v", deleted)
		}
		// Customers keep no labels: a label lists none.
		if got := listed(t, a.do("GET", customersPath(a)+"?label=vip", nil)); len(got) != 0 {
			t.Fatalf("label: %v", got)
		}
	})
}

func TestValidateCustomerJWTAsksTheShopsPlatform(t *testing.T) {
	eachPlatform(t, func(t *testing.T, a *api, pf *platformserver.Server, url string) {
		a.do("GET", customersPath(a)+"/pid/anyone/validate?jwt=x", nil).wantError(t, 501, "02-51", "customer.no_destination")
		a.do("POST", destinationsPath(a), destinationBody(map[string]any{"topic": "customers", "destination": url})).wantStatus(t, 200)
		c := pf.AddCustomer(a.shop, platformserver.Customer{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"})
		token := pf.IssueCustomerToken(a.shop, c.PlatformID)
		r := a.do("GET", customersPath(a)+"/pid/"+c.PlatformID+"/validate?jwt="+token, nil).wantStatus(t, 200)
		if r.Body["valid"] != true {
			t.Fatalf("validate %s", r.Raw)
		}
		a.do("GET", customersPath(a)+"/pid/"+c.PlatformID+"/validate?jwt=ctok_forged", nil).wantError(t, 400, "02-00", "customer.token_invalid")
		a.do("GET", customersPath(a)+"/pid/"+c.PlatformID+"/validate", nil).wantError(t, 400, "02-00", "query.invalid")
	})
}
