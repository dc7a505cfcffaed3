package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/category"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

// shelf is the catalog the read tests list: three products of two vendors, in two categories,
// each with one variant.
func shelf(t *testing.T, svc *service.Service, sh *ent.Shop) {
	t.Helper()
	ctx := context.Background()
	for _, c := range []catalog.ConnectorCategory{
		{PlatformID: "cat_tea", PlatformUpdatedAt: "2026-11-01T09:00:00Z", Name: str("Tea")},
		{PlatformID: "cat_cups", PlatformUpdatedAt: "2026-11-01T09:00:00Z", Name: str("Cups")},
	} {
		if err := svc.Catalog.ApplyCategorySaved(ctx, sh, c); err != nil {
			t.Fatal(err)
		}
	}
	product := func(id, at, name, vendor, sku, price string, cats ...string) catalog.ConnectorProduct {
		cs := []catalog.ConnectorCategory{}
		for _, c := range cats {
			cs = append(cs, catalog.ConnectorCategory{PlatformID: c, PlatformUpdatedAt: "2026-11-01T09:00:00Z"})
		}
		return catalog.ConnectorProduct{PlatformID: id, PlatformUpdatedAt: at, Name: str(name), Vendor: str(vendor),
			Handle: str(strings.ToLower(strings.ReplaceAll(name, " ", "-"))), Categories: &cs,
			Images:   &[]map[string]any{{"platform_id": "img_" + id, "name": name, "position": 1}},
			Options:  &[]map[string]any{{"platform_id": "opt_" + id, "name": "Size", "position": 1, "option_values": []any{map[string]any{"label": "100 g"}}}},
			Variants: &[]catalog.ConnectorVariant{{PlatformID: "var_" + id, SKU: str(sku), Name: str("Default"), Price: str(price)}}}
	}
	apply(t, svc, sh,
		product("101", "2026-11-01T10:00:00Z", "Green Tea", "Leafworks", "TEA-GREEN", "12.50", "cat_tea"),
		product("102", "2026-11-02T10:00:00+02:00", "Black Tea", "Leafworks", "TEA-BLACK", "9.00", "cat_tea"),
		product("cup_3", "2026-11-03T10:00:00Z", "Tea Cup", "Claymakers", "CUP-WHITE", "20.00", "cat_cups", "cat_tea"),
	)
}

// names are the names of a product page's products, in order.
func names(p *catalog.ProductPage) []string {
	out := []string{}
	for _, b := range p.Products {
		out = append(out, b.Product.Title)
	}
	return out
}

func list(t *testing.T, svc *service.Service, sh *ent.Shop, query string) *catalog.ProductPage {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	p, err := svc.Catalog.ListProducts(context.Background(), sh, q)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return p
}

func productID(t *testing.T, svc *service.Service, sh *ent.Shop, platformID string) int {
	t.Helper()
	b, err := svc.Catalog.GetProductByPlatformID(context.Background(), sh, platformID, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b.Product.ID
}

func TestEachFilterOperatorOnEachProductColumnType(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		green, black := productID(t, svc, sh, "101"), productID(t, svc, sh, "102")
		for _, c := range []struct {
			filter string
			want   []string
		}{
			// text
			{"eq(vendor:Leafworks)", []string{"Green Tea", "Black Tea"}},
			{"neq(vendor:Leafworks)", []string{"Tea Cup"}},
			{"gt(name:Green Tea)", []string{"Tea Cup"}},
			{"gte(name:Green Tea)", []string{"Green Tea", "Tea Cup"}},
			{"lt(name:Green Tea)", []string{"Black Tea"}},
			{"lte(name:Green Tea)", []string{"Green Tea", "Black Tea"}},
			{"like(name:*tea)", []string{"Green Tea", "Black Tea"}},
			{"nlike(name:tea*)", []string{"Green Tea", "Black Tea"}},
			{"in(platform_id:101, cup_3)", []string{"Green Tea", "Tea Cup"}},
			{"nin(platform_id:101, cup_3)", []string{"Black Tea"}},
			// whole number
			{fmt.Sprintf("eq(id:%d)", green), []string{"Green Tea"}},
			{fmt.Sprintf("neq(id:%d)", green), []string{"Black Tea", "Tea Cup"}},
			{fmt.Sprintf("gt(id:%d)", green), []string{"Black Tea", "Tea Cup"}},
			{fmt.Sprintf("gte(id:%d)", black), []string{"Black Tea", "Tea Cup"}},
			{fmt.Sprintf("lt(id:%d)", black), []string{"Green Tea"}},
			{fmt.Sprintf("lte(id:%d)", black), []string{"Green Tea", "Black Tea"}},
			{fmt.Sprintf("in(id:%d,%d)", green, black), []string{"Green Tea", "Black Tea"}},
			{fmt.Sprintf("nin(id:%d,%d)", green, black), []string{"Tea Cup"}},
			// true or false
			{"eq(gift_card:false)", []string{"Green Tea", "Black Tea", "Tea Cup"}},
			{"neq(gift_card:false)", []string{}},
			{"in(gift_card:true)", []string{}},
			{"nin(gift_card:true)", []string{"Green Tea", "Black Tea", "Tea Cup"}},
			// time: the second product was updated at 08:00 UTC, written with an offset
			{"eq(platform_updated_at:2026-11-02)", []string{"Black Tea"}},
			{"eq(platform_updated_at:2026-11-02T08:00:00Z)", []string{"Black Tea"}},
			{"neq(platform_updated_at:2026-11-02)", []string{"Green Tea", "Tea Cup"}},
			{"gt(platform_updated_at:2026-11-02)", []string{"Tea Cup"}},
			{"gte(platform_updated_at:2026-11-02T09:00:00+01:00)", []string{"Black Tea", "Tea Cup"}},
			{"lt(platform_updated_at:2026-11-02T08:00:00Z)", []string{"Green Tea"}},
			{"lte(platform_updated_at:2026-11-02)", []string{"Green Tea", "Black Tea"}},
			{"in(platform_updated_at:2026-11-01, 2026-11-03)", []string{"Green Tea", "Tea Cup"}},
			{"nin(platform_updated_at:2026-11-01, 2026-11-03)", []string{"Black Tea"}},
		} {
			got := names(list(t, svc, sh, url.Values{"filter": {c.filter}}.Encode()))
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.filter, got, c.want)
			}
		}
	})
}

func TestCombinedFiltersKeepTheProductsMeetingEveryCondition(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		cat, err := svc.Client().Category.Query().Where(category.ShopID(sh.ID), category.PlatformID("cat_tea")).Only(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			query string
			want  []string
		}{
			{url.Values{"filter": {"eq(vendor:Leafworks)+like(name:g*)"}}.Encode(), []string{"Green Tea"}},
			{url.Values{"filter": {"eq(vendor:Leafworks)", "lt(platform_updated_at:2026-11-02)"}}.Encode(), []string{"Green Tea"}},
			{url.Values{"filter": {"like(name:*tea*)"}, "filtercolumn": {"sku"}, "filtervalue": {"CUP"}}.Encode(), []string{"Tea Cup"}},
			{url.Values{"categoryid": {fmt.Sprint(cat.ID)}, "filter": {"neq(vendor:Leafworks)"}}.Encode(), []string{"Tea Cup"}},
		} {
			if got := names(list(t, svc, sh, c.query)); !slices.Equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.query, got, c.want)
			}
		}
	})
}

func TestCategoryIDKeepsTheProductsInThatCategory(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		cups, err := svc.Client().Category.Query().Where(category.ShopID(sh.ID), category.PlatformID("cat_cups")).Only(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := names(list(t, svc, sh, fmt.Sprintf("categoryid=%d", cups.ID))); !slices.Equal(got, []string{"Tea Cup"}) {
			t.Fatalf("cups: %v", got)
		}
		if got := names(list(t, svc, sh, "categoryid=999999")); len(got) != 0 {
			t.Fatalf("a category the shop does not have: %v", got)
		}
	})
}

// A word of the name search is found in a name holding it in any case, or holding a word spelt
// alike (pg_trgm's word similarity of 0.3 or more, among the names sharing three letters in a
// row with it); a short word unlike any name finds nothing.
func TestFuzzySearchFindsAProductByAnyPartOfItsNameOrAMisspelling(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: "104", PlatformUpdatedAt: "2026-11-04T10:00:00Z", Name: str("Milk Oolong")})
		for _, c := range []struct {
			column, value string
			want          []string
		}{
			{"name", "TEA", []string{"Green Tea", "Black Tea", "Tea Cup"}},
			{"name", "reen", []string{"Green Tea"}},
			{"name", "cup tea", []string{"Tea Cup"}},
			{"name", "ack te", []string{"Black Tea"}}, // "te" is under three characters: left out
			{"name", "Gren Tea", []string{"Green Tea"}},
			{"name", "gren", []string{"Green Tea"}},
			{"name", "Oolnog", []string{"Milk Oolong"}},
			{"name", "blakc tea", []string{"Black Tea"}},
			{"name", "oolong", []string{"Milk Oolong"}},
			{"name", "sencha", []string{}},
			{"name", "xqz", []string{}},
			{"name", "tex", []string{}}, // a word of three letters is found as it is
			{"name", "gren oolnog", []string{}},
			{"name", "te!!", []string{}},
			{"sku", "TEA-", []string{"Green Tea", "Black Tea"}},
			{"sku", "TEA-G", []string{"Green Tea"}},
			{"sku", "tea-", []string{}},
		} {
			got := names(list(t, svc, sh, url.Values{"filtercolumn": {c.column}, "filtervalue": {c.value}}.Encode()))
			if !slices.Equal(got, c.want) {
				t.Errorf("%s %q: %v, want %v", c.column, c.value, got, c.want)
			}
		}
	})
}

// The products a search finds are listed in the list's order, and walking next_url yields each
// of them once, in that order, with the total of those found.
func TestAFuzzySearchIsPagedInTheListsOrder(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		for i, name := range []string{"Green Tea", "Earl Grey", "Tea Cup", "Gren Tin", "Greem Mug", "Black Tea"} {
			apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: fmt.Sprint("p", i), PlatformUpdatedAt: "2026-11-01T10:00:00Z", Name: str(name)})
		}
		for _, c := range []struct {
			order string
			want  []string
		}{
			{"", []string{"Green Tea", "Earl Grey", "Gren Tin", "Greem Mug"}},
			{"ordercolumn=name", []string{"Earl Grey", "Greem Mug", "Green Tea", "Gren Tin"}},
			{"ordercolumn=name&orderdirection=desc", []string{"Gren Tin", "Green Tea", "Greem Mug", "Earl Grey"}},
		} {
			q, _ := url.ParseQuery(c.order + "&limit=3&filtercolumn=name&filtervalue=green")
			var got []string
			for pages := 0; ; pages++ {
				if pages > 5 {
					t.Fatal("the walk does not end")
				}
				p, err := svc.Catalog.ListProducts(context.Background(), sh, q)
				if err != nil {
					t.Fatal(err)
				}
				if p.Pagination.Total != 4 {
					t.Errorf("%s: total %d", c.order, p.Pagination.Total)
				}
				got = append(got, names(p)...)
				if p.Pagination.Next == nil {
					break
				}
				for k, v := range p.Pagination.Next {
					if v == nil {
						q.Del(k)
					} else {
						q[k] = v
					}
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("%q: %v, want %v", c.order, got, c.want)
			}
		}
	})
}

func TestProductSearchIndexFollowsEveryChange(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: "101", PlatformUpdatedAt: "2026-11-05T10:00:00Z", Name: str("Sencha")})
		search := func(v string) []string {
			return names(list(t, svc, sh, url.Values{"filtercolumn": {"name"}, "filtervalue": {v}}.Encode()))
		}
		if got := search("green"); len(got) != 0 {
			t.Fatalf("the old name is still found: %v", got)
		}
		if got := search("sench"); !slices.Equal(got, []string{"Sencha"}) {
			t.Fatalf("the new name: %v", got)
		}
		apply(t, svc, sh, catalog.DeletedInput{PlatformID: "101", PlatformDeletedAt: "2026-11-06T10:00:00Z"})
		if got := search("sencha"); len(got) != 0 {
			t.Fatalf("a deleted product is found: %v", got)
		}
	})
}

func TestDeepBundlesCarryVariantsOptionsImagesAndCategoriesAndShallowOnesDoNot(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		shallow := list(t, svc, sh, "filter=eq(platform_id:cup_3)")
		if b := shallow.Products[0]; b.Deep || b.Variants != nil || b.Categories != nil {
			t.Fatalf("shallow: %+v", b)
		}
		deep := list(t, svc, sh, "deep=true&filter=eq(platform_id:cup_3)")
		b := deep.Products[0]
		if !b.Deep || len(b.Variants) != 1 || b.Variants[0].Sku != "CUP-WHITE" || b.Variants[0].Price != 2000 {
			t.Fatalf("deep variants: %+v", b.Variants)
		}
		var cats []string
		for _, c := range b.Categories {
			cats = append(cats, c.Name)
		}
		if !slices.Equal(cats, []string{"Cups", "Tea"}) {
			t.Fatalf("deep categories: %v", cats)
		}
		if b.Product.PlatformData["options"] == nil || b.Product.PlatformData["images"] == nil || b.Product.PlatformData["handle"] != "tea-cup" {
			t.Fatalf("platform data: %v", b.Product.PlatformData)
		}
		one, err := svc.Catalog.GetProduct(context.Background(), sh, b.Product.ID, url.Values{"deep": {"1"}})
		if err != nil || len(one.Variants) != 1 || len(one.Categories) != 2 {
			t.Fatalf("get deep: %+v %v", one, err)
		}
	})
}

func TestPaginationTotalsOnTheFirstAMiddleAndTheLastPage(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		for i := range 7 {
			apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: fmt.Sprint("p", i), PlatformUpdatedAt: "2026-11-01T10:00:00Z", Name: str(fmt.Sprint("Product ", i))})
		}
		for _, c := range []struct {
			page, count    int
			previous, next bool
		}{{1, 3, false, true}, {2, 3, true, true}, {3, 1, true, false}} {
			p := list(t, svc, sh, fmt.Sprintf("limit=3&page=%d", c.page)).Pagination
			if p.Total != 7 || p.TotalPages != 3 || p.PerPage != 3 || p.CurrentPage != c.page || p.Count != c.count ||
				(p.Previous != nil) != c.previous || (p.Next != nil) != c.next {
				t.Errorf("page %d: %+v", c.page, p)
			}
		}
	})
}

func TestWalkingNextWhileProductsAreAddedYieldsEachOnce(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		for i := range 10 {
			apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: fmt.Sprint("p", i), PlatformUpdatedAt: "2026-11-01T10:00:00Z", Name: str(fmt.Sprintf("Product %02d", i))})
		}
		for _, order := range []string{"ordercolumn=id", "ordercolumn=name&orderdirection=desc"} {
			q, _ := url.ParseQuery(order + "&limit=3")
			seen := map[string]int{}
			added := 0
			for pages := 0; ; pages++ {
				if pages > 20 {
					t.Fatal("the walk does not end")
				}
				p, err := svc.Catalog.ListProducts(context.Background(), sh, q)
				if err != nil {
					t.Fatal(err)
				}
				for _, b := range p.Products {
					seen[b.Product.PlatformID]++
				}
				// A product added during the walk is met once at most; those there from the start once each.
				apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: fmt.Sprint(order, "-new", added), PlatformUpdatedAt: "2026-11-01T10:00:00Z", Name: str(fmt.Sprint("New ", added))})
				added++
				if p.Pagination.Next == nil {
					break
				}
				for k, v := range p.Pagination.Next {
					if v == nil {
						q.Del(k)
					} else {
						q[k] = v
					}
				}
			}
			for i := range 10 {
				if n := seen[fmt.Sprint("p", i)]; n != 1 {
					t.Errorf("%s: p%d seen %d times", order, i, n)
				}
			}
			for id, n := range seen {
				if n != 1 {
					t.Errorf("%s: %s seen %d times", order, id, n)
				}
			}
		}
	})
}

func TestGetByPlatformIDFindsTheShopsProductOnly(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		b, err := svc.Catalog.GetProductByPlatformID(context.Background(), sh, "cup_3", nil)
		if err != nil || b.Product.Title != "Tea Cup" {
			t.Fatalf("%+v %v", b, err)
		}
		other, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "other"})
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Catalog.GetProductByPlatformID(context.Background(), other.Shop, "cup_3", nil)
		var pe *problem.Error
		if !errors.As(err, &pe) || pe.Type != "product.not_found" {
			t.Fatalf("another shop's product: %v", err)
		}
		if _, err := svc.Catalog.GetProduct(context.Background(), other.Shop, b.Product.ID, nil); !errors.As(err, &pe) || pe.Type != "product.not_found" {
			t.Fatalf("another shop's product by id: %v", err)
		}
	})
}

func TestIncludeDeletedIsAcceptedAndADeletedProductIsGone(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		apply(t, svc, sh, catalog.DeletedInput{PlatformID: "102", PlatformDeletedAt: "2026-11-05T10:00:00Z"})
		for _, q := range []string{"", "include_deleted=false", "include_deleted=true"} {
			if got := names(list(t, svc, sh, q)); !slices.Equal(got, []string{"Green Tea", "Tea Cup"}) {
				t.Errorf("%q: %v", q, got)
			}
		}
		_, err := svc.Catalog.GetProductByPlatformID(context.Background(), sh, "102", url.Values{"include_deleted": {"true"}})
		var pe *problem.Error
		if !errors.As(err, &pe) || pe.Type != "product.not_found" {
			t.Fatalf("a deleted product by platform id: %v", err)
		}
	})
}

func TestBadQueriesAre400sNamingTheProblem(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		for _, c := range []struct{ query, field, says string }{
			{"filter=eq(colour:red)", "filter", "colour"},
			{"filter=eq(id:abc)", "filter", "not a whole number"},
			{"filter=like(gift_card:t*)", "filter", "like"},
			{"filter=eq(name:x", "filter", "parenthes"},
			{"ordercolumn=vendor", "ordercolumn", "ordercolumn"},
			{"orderdirection=up", "orderdirection", "asc or desc"},
			{"limit=101", "limit", "100"},
			{"deep=maybe", "deep", "true or false"},
			{"include_deleted=2", "include_deleted", "true or false"},
			{"es_optimize=yes", "es_optimize", "true or false"},
			{"categoryid=x", "categoryid", "category id"},
			{"filtercolumn=handle&filtervalue=abc", "filtercolumn", "name, sku"},
			{"filtercolumn=name", "filtercolumn", "together"},
			{"filtercolumn=name&filtervalue=ab", "filtervalue", "3 characters"},
			{"updated_at_min=yesterday", "updated_at_min", "RFC 3339"},
		} {
			q, _ := url.ParseQuery(c.query)
			_, err := svc.Catalog.ListProducts(context.Background(), sh, q)
			var pe *problem.Error
			if !errors.As(err, &pe) || pe.Code != problem.CodeBadRequest || pe.Details["field"] != c.field || !strings.Contains(pe.Message, c.says) {
				t.Errorf("%s: %v (%+v)", c.query, err, pe)
			}
		}
	})
}

func TestVariantsAndCategoriesListWithTheirOwnColumns(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		shelf(t, svc, sh)
		ctx := context.Background()
		vs, err := svc.Catalog.ListVariants(ctx, sh, url.Values{"filter": {"gte(price:1250)"}, "ordercolumn": {"price"}, "orderdirection": {"desc"}})
		if err != nil {
			t.Fatal(err)
		}
		var skus []string
		for _, v := range vs.Variants {
			skus = append(skus, v.Sku)
		}
		if !slices.Equal(skus, []string{"CUP-WHITE", "TEA-GREEN"}) || vs.Pagination.Total != 2 {
			t.Fatalf("variants: %v %+v", skus, vs.Pagination)
		}
		cs, err := svc.Catalog.ListCategories(ctx, sh, url.Values{"filter": {"like(name:t*)"}})
		if err != nil || len(cs.Categories) != 1 || cs.Categories[0].Name != "Tea" {
			t.Fatalf("categories: %+v %v", cs, err)
		}
		if _, err := svc.Catalog.ListCategories(ctx, sh, url.Values{"filter": {"eq(price:1)"}}); err == nil {
			t.Fatal("a variant column in a category filter is accepted")
		}
		if _, err := svc.Catalog.ListVariants(ctx, sh, url.Values{"ordercolumn": {"name"}}); err == nil {
			t.Fatal("an order not in the variants' allowlist is accepted")
		}
	})
}
