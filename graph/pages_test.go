package graph_test

import (
	"fmt"
	"testing"

	"github.com/checkoutd/checkoutd/graph"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/problem"
)

const discountCodesPage = `query($first: Int, $last: Int) { shop { discountCodes(first: $first, last: $last) {
  totalCount edges { node { code } } pageInfo { hasNextPage } } } }`

// withDiscountCodes is a shop with n discount codes, and its token.
func withDiscountCodes(t *testing.T, url string, svc *service.Service, n int) string {
	t.Helper()
	token := newShop(t, svc, "shop-a")
	for i := range n {
		r := query(t, url, token, fmt.Sprintf(`mutation { createDiscountCode(input: {code: "CODE-%d", text: "Code", kind: percentage, value: 1000}) { id } }`, i), nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	return token
}

func TestAListAskedForNeitherFirstNorLastReadsItsDefaultPage(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := withDiscountCodes(t, url, svc, graph.DefaultPage+3)
		r := query(t, url, token, discountCodesPage, nil)
		if len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
		codes := get(r.Data, "shop", "discountCodes").(map[string]any)
		if n := len(codes["edges"].([]any)); n != graph.DefaultPage {
			t.Errorf("%d codes read, want the default page of %d", n, graph.DefaultPage)
		}
		if codes["totalCount"] != float64(graph.DefaultPage+3) || codes["pageInfo"].(map[string]any)["hasNextPage"] != true {
			t.Errorf("totalCount %v, pageInfo %v: the page must say more follow", codes["totalCount"], codes["pageInfo"])
		}
	})
}

func TestFirstOrLastOverTheMaximumPageIsRefused(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := withDiscountCodes(t, url, svc, 1)
		for _, arg := range []string{"first", "last"} {
			r := query(t, url, token, discountCodesPage, map[string]any{arg: graph.MaxPage + 1})
			wantCode(t, r, problem.CodeValidation, "request.page_too_large")
		}
		if r := query(t, url, token, discountCodesPage, map[string]any{"first": graph.MaxPage}); len(r.Errors) > 0 {
			t.Fatalf("a page at the maximum: %v", r.Errors)
		}
	})
}

func TestAPagedListCountsEachRowOfItsPageTowardsTheComplexityLimit(t *testing.T) {
	eachGraph(t, func(t *testing.T, url string, svc *service.Service) {
		token := newShop(t, svc, "shop-a")
		// Four lists of 100 codes with a few fields each: some 2,800 under the 1,000 allowed.
		q := `{ shop { a: discountCodes(first: 100) { edges { node { code text kind value } } }
  b: discountCodes(first: 100) { edges { node { code text kind value } } }
  c: discountCodes(first: 100) { edges { node { code text kind value } } }
  d: discountCodes(first: 100) { edges { node { code text kind value } } } } }`
		r := query(t, url, token, q, nil)
		if len(r.Errors) == 0 || r.Errors[0]["extensions"].(map[string]any)["code"] != "COMPLEXITY_LIMIT_EXCEEDED" {
			t.Fatalf("400 rows of four fields answered %v", r.Errors)
		}
		one := `{ shop { discountCodes(first: 10) { edges { node { code text kind value } } } } }`
		if r := query(t, url, token, one, nil); len(r.Errors) > 0 {
			t.Fatalf("a page of 10: %v", r.Errors)
		}
	})
}
