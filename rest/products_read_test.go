package rest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func productsPath(a *api, suffix string) string { return "/products/v2/shops/" + a.shop + suffix }

// stock puts products in the shop's catalog as a sync page does: names "Product 00", ... with
// one variant each.
func stock(t *testing.T, a *api, from, n int) {
	t.Helper()
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("Product %02d", from+i)
	}
	stockNamed(t, a, from, names...)
}

// stockNamed puts products of those names in the shop's catalog as a sync page does, numbered
// from from, with one variant each.
func stockNamed(t *testing.T, a *api, from int, names ...string) {
	t.Helper()
	ctx := context.Background()
	sh, err := a.svc.Shops.CachedByIdentifier(ctx, a.shop)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]catalog.ConnectorProduct, len(names))
	for i := range rows {
		k := from + i
		name, sku, price := names[i], fmt.Sprintf("SKU-%02d", k), "12.50"
		rows[i] = catalog.ConnectorProduct{PlatformID: fmt.Sprint(1000 + k), PlatformUpdatedAt: "2026-11-01T10:00:00Z", Name: &name,
			Variants: &[]catalog.ConnectorVariant{{PlatformID: fmt.Sprint("v", k), SKU: &sku, Price: &price}}}
	}
	tx, err := a.svc.Client().Tx(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.svc.Catalog.ImportProducts(ctx, tx, sh, rows); err != nil {
		_ = tx.Rollback()
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func productNames(t *testing.T, r response) []string {
	t.Helper()
	var out []string
	for _, b := range r.Body["data"].([]any) {
		out = append(out, b.(map[string]any)["product"].(map[string]any)["name"].(string))
	}
	return out
}

func TestProductListPaginationTotalsAndLinksOnTheFirstAMiddleAndTheLastPage(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stock(t, a, 0, 7)
		first := a.do("GET", productsPath(a, "/products?limit=3&ordercolumn=name"), nil).wantStatus(t, 200)
		check := func(r response, page, count int, previous, next bool) map[string]any {
			t.Helper()
			p := pagination(t, r)
			if p["total"] != 7.0 || p["total_pages"] != 3.0 || p["per_page"] != 3.0 || p["current_page"] != float64(page) ||
				p["count"] != float64(count) || (p["previous_url"] != nil) != previous || (p["next_url"] != nil) != next {
				t.Fatalf("page %d: %v", page, p)
			}
			return p
		}
		p1 := check(first, 1, 3, false, true)
		middle := follow(t, a, p1["next_url"])
		p2 := check(middle, 2, 3, true, true)
		last := follow(t, a, p2["next_url"])
		p3 := check(last, 3, 1, true, false)
		if got := productNames(t, last); len(got) != 1 || got[0] != "Product 06" {
			t.Fatalf("last page: %v", got)
		}
		back := follow(t, a, p3["previous_url"])
		if fmt.Sprint(productNames(t, back)) != fmt.Sprint(productNames(t, middle)) {
			t.Fatalf("previous of the last page %v, the middle page %v", productNames(t, back), productNames(t, middle))
		}
		// A page asked for by number answers as the one reached by link.
		byNumber := a.do("GET", productsPath(a, "/products?limit=3&ordercolumn=name&page=2"), nil).wantStatus(t, 200)
		check(byNumber, 2, 3, true, true)
		if fmt.Sprint(productNames(t, byNumber)) != fmt.Sprint(productNames(t, middle)) {
			t.Fatalf("page=2 %v, next of page 1 %v", productNames(t, byNumber), productNames(t, middle))
		}
	})
}

func TestWalkingNextURLWhileProductsAreAddedYieldsEachOnce(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stock(t, a, 0, 8)
		seen := map[string]int{}
		r := a.do("GET", productsPath(a, "/products?limit=3&deep=true"), nil).wantStatus(t, 200)
		for added := 0; ; added++ {
			if added > 20 {
				t.Fatal("the walk does not end")
			}
			for _, name := range productNames(t, r) {
				seen[name]++
			}
			stock(t, a, 50+added, 1)
			next := pagination(t, r)["next_url"]
			if next == nil {
				break
			}
			r = follow(t, a, next)
		}
		for name, n := range seen {
			if n != 1 {
				t.Errorf("%s seen %d times", name, n)
			}
		}
		for i := range 8 {
			if seen[fmt.Sprintf("Product %02d", i)] != 1 {
				t.Errorf("Product %02d not seen", i)
			}
		}
	})
}

// filtercolumn=name with filtervalue is a fuzzy search: a misspelled name finds the product, a
// word unlike every name finds nothing, and the products found are listed in the list's order,
// a page at a time through next_url with the search kept.
func TestTheProductNameSearchFindsAMisspelledNameAndPagesInTheListsOrder(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stockNamed(t, a, 0, "Green Tea", "Black Tea", "Milk Oolong", "Tea Cup", "Grey Mug", "Gren Tin")
		search := func(value, more string) response {
			return a.do("GET", productsPath(a, "/products?filtercolumn=name&filtervalue="+url.QueryEscape(value)+more), nil).wantStatus(t, 200)
		}
		for _, c := range []struct {
			value string
			want  string
		}{
			{"Gren Tea", "[Green Tea]"},
			{"Oolnog", "[Milk Oolong]"},
			{"BLAKC", "[Black Tea]"},
			{"tea cup", "[Tea Cup]"},
			{"xqz", "[]"},
			{"tex", "[]"},
		} {
			if got := fmt.Sprint(productNames(t, search(c.value, ""))); got != c.want {
				t.Errorf("%q: %s, want %s", c.value, got, c.want)
			}
		}
		var walked []string
		r := search("green", "&limit=2&ordercolumn=name&orderdirection=desc")
		for pages := 0; ; pages++ {
			if pages > 5 {
				t.Fatal("the walk does not end")
			}
			p := r.Body["pagination"].(map[string]any)
			if p["total"] != 3.0 {
				t.Fatalf("total %v", p["total"])
			}
			walked = append(walked, productNames(t, r)...)
			if p["next_url"] == nil {
				break
			}
			r = follow(t, a, p["next_url"])
		}
		if got := fmt.Sprint(walked); got != "[Grey Mug Gren Tin Green Tea]" {
			t.Fatalf("the pages of green: %s", got)
		}
	})
}

func TestProductByPlatformIDGivesThePlatformIDAsTextAndNumberDeepOrShallow(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stock(t, a, 0, 1)
		shallow := a.do("GET", productsPath(a, "/products/pid/1000"), nil).wantStatus(t, 200).data(t)
		p := shallow["product"].(map[string]any)
		pid := p["platform_id"].(map[string]any)
		if pid["string_value"] != "1000" || pid["int64_value"] != 1000.0 || p["name"] != "Product 00" {
			t.Fatalf("product %v", p)
		}
		if _, ok := shallow["variants"]; ok {
			t.Fatalf("a shallow bundle carries variants: %v", shallow)
		}
		deep := a.do("GET", productsPath(a, "/products/pid/1000?deep=true"), nil).wantStatus(t, 200).data(t)
		vs := deep["variants"].([]any)
		if len(vs) != 1 || vs[0].(map[string]any)["price"] != "12.50" || vs[0].(map[string]any)["sku"] != "SKU-00" {
			t.Fatalf("deep variants %v", deep["variants"])
		}
		for _, k := range []string{"images", "options", "categories"} {
			if _, ok := deep[k].([]any); !ok {
				t.Fatalf("a deep bundle lacks %s: %v", k, deep)
			}
		}
		id := int(p["id"].(float64))
		byID := a.do("GET", productsPath(a, fmt.Sprintf("/products/%d", id)), nil).wantStatus(t, 200).data(t)
		if byID["product"].(map[string]any)["name"] != "Product 00" {
			t.Fatalf("by id: %v", byID)
		}
		a.do("GET", productsPath(a, "/products/pid/nope"), nil).wantError(t, 404, problem.CodeNotFound, "product.not_found")
		a.do("GET", productsPath(a, "/products/abc"), nil).wantError(t, 404, problem.CodeNotFound, "product.not_found")
	})
}

func TestProductReadsWithAnotherShopsTokenAre401AndRevealNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stock(t, a, 0, 2)
		other, err := a.svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		sameID := http.Header{"X-Request-Id": {"probe"}}
		for _, path := range []string{"/products", "/products/pid/1000", "/products/1", "/categories", "/variants"} {
			a.token = other.AccessToken
			known := a.doWithHeader("GET", productsPath(a, path), nil, sameID)
			known.wantError(t, 401, problem.CodeUnauthorized, "")
			a.shop = "no-such-shop"
			unknown := a.doWithHeader("GET", productsPath(a, path), nil, sameID)
			a.shop = "shop-a"
			if known.Raw != unknown.Raw || strings.Contains(known.Raw, "Product") {
				t.Fatalf("%s: answers differ for an existing and a missing shop, or tell of the products:\n%s\n%s", path, known.Raw, unknown.Raw)
			}
			// The other shop's own token, on its own path, sees none of shop-a's products.
			a.shop = "shop-b"
			if path == "/products" {
				r := a.do("GET", productsPath(a, path), nil).wantStatus(t, 200)
				if pagination(t, r)["total"] != 0.0 {
					t.Fatalf("shop-b lists shop-a's products: %s", r.Raw)
				}
			}
			a.shop = "shop-a"
		}
	})
}

func TestABadProductQueryIs400NamingTheProblem(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for _, c := range []struct{ query, typ, says string }{
			{"filter=" + url.QueryEscape("eq(colour:red)"), "filter.invalid", "colour"},
			{"filter=" + url.QueryEscape("gt(created_at:soon)"), "filter.invalid", "not an RFC 3339 time"},
			{"filter=" + url.QueryEscape("eq(name:x"), "filter.invalid", "parenthes"},
			{"ordercolumn=price", "query.invalid", "ordercolumn"},
			{"limit=1000", "query.invalid", "limit"},
			{"filtercolumn=handle&filtervalue=abc", "query.invalid", "filtercolumn"},
		} {
			e := a.do("GET", productsPath(a, "/products?"+c.query), nil).wantError(t, 400, problem.CodeBadRequest, c.typ)
			if !strings.Contains(e["message"].(string), c.says) {
				t.Errorf("%s: %v", c.query, e["message"])
			}
		}
		a.do("GET", productsPath(a, "/variants?filter="+url.QueryEscape("like(price:1*)")), nil).wantError(t, 400, problem.CodeBadRequest, "filter.invalid")
		a.do("GET", productsPath(a, "/categories?filter="+url.QueryEscape("eq(sku:x)")), nil).wantError(t, 400, problem.CodeBadRequest, "filter.invalid")
	})
}

func TestCategoriesAndVariantsAreListedWithPagination(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		stock(t, a, 0, 4)
		ctx := context.Background()
		sh, err := a.svc.Shops.CachedByIdentifier(ctx, a.shop)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"Tea", "Cups", "Pots"} {
			if err := a.svc.Client().Category.Create().SetShopID(sh.ID).SetPlatformID("cat_" + name).SetName(name).
				SetPlatformUpdatedAt(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
		cs := a.do("GET", productsPath(a, "/categories?limit=2&ordercolumn=name"), nil).wantStatus(t, 200)
		if p := pagination(t, cs); p["total"] != 3.0 || p["total_pages"] != 2.0 || p["next_url"] == nil {
			t.Fatalf("categories pagination %v", p)
		}
		if d := cs.Body["data"].([]any); d[0].(map[string]any)["name"] != "Cups" || d[0].(map[string]any)["shop_identifier"] != a.shop {
			t.Fatalf("categories %v", d)
		}
		vs := a.do("GET", productsPath(a, "/variants?filter="+url.QueryEscape("in(sku:SKU-01,SKU-03)")+"&orderdirection=desc"), nil).wantStatus(t, 200)
		d := vs.Body["data"].([]any)
		if len(d) != 2 || d[0].(map[string]any)["sku"] != "SKU-03" || d[1].(map[string]any)["sku"] != "SKU-01" {
			t.Fatalf("variants %v", d)
		}
	})
}
