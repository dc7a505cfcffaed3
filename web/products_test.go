package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/checkoutd/checkoutd/service/catalog"
)

// The catalog page lists the shop's products by name, 20 a page, and searches them as the
// search is typed with the REST product list's name search (docs/filters.md): every word is
// found in the name in any case, or spelt alike (a misspelled name finds the product), and a
// search the list refuses says why.
func TestTheProductListIsSearchedByNameAsTheSearchIsTypedAPageAtATime(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		ctx, sh := context.Background(), c.shopEntity()
		titles := []string{"Green Tea", "Black Tea", "Tea Cup"}
		for i := 1; i <= 21; i++ {
			titles = append(titles, fmt.Sprintf("Mug %02d", i))
		}
		for i, title := range titles {
			if _, err := c.svc.Catalog.CreateProduct(ctx, sh, catalog.ProductInput{PlatformID: fmt.Sprintf("p-%d", i), Title: title,
				Variants: []catalog.VariantInput{{PlatformID: fmt.Sprintf("v-%d", i), SKU: fmt.Sprintf("SKU-%d", i), Price: 1000}}}); err != nil {
				t.Fatal(err)
			}
		}
		c.signIn()
		c.visit("/admin/products")
		c.wantText("#products-list", "24 in all · page 1 of 2")
		c.wantText("#products", "Black Tea")
		c.wantNoText("#products", "Tea Cup") // by name: Tea Cup comes after the mugs, on page 2

		c.retype("#search", "GREE tea")
		c.waitText("#products-list", "1 in all")
		c.wantText("#products", "Green Tea")
		c.wantNoText("#products", "Black Tea")

		c.retype("#search", "Gren Tae")
		c.waitText("#products-list", "No product's name holds every word of the search, or a word spelt alike.")

		c.retype("#search", "Gren Tea")
		c.waitText("#products-list", "1 in all")
		c.wantText("#products", "Green Tea")
		c.wantNoText("#products", "Black Tea")

		c.retype("#search", "mug")
		c.waitText("#products-list", "21 in all · page 1 of 2")
		c.wantNoText("#products", "Mug 21")
		// The search is the page's address, and the next page keeps it.
		c.submitAndWait("#next-page", "#products")
		c.wantText("#products-list", "21 in all · page 2 of 2")
		c.wantText("#products", "Mug 21")
		c.wantNoText("#products", "Tea")
		if got := c.value("#search"); got != "mug" {
			t.Fatalf("the search box of page 2 holds %q", got)
		}

		c.retype("#search", "te")
		c.waitText("#search-refused", "search has no word of at least 3 characters")
	})
}
