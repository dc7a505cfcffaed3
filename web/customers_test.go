package web_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/customers"
)

func consoleCustomer(pid, first, last, phone string) customers.CustomerInput {
	return customers.CustomerInput{PlatformID: pid, PlatformUpdatedAt: "2026-11-01T10:00:00Z", FirstName: &first, LastName: &last, Phone: &phone}
}

func TestTheCustomerListIsSearchedAsTheSearchIsTyped(t *testing.T) {
	eachConsole(t, func(t *testing.T, c *console) {
		ctx := context.Background()
		tx, err := c.svc.Client().Tx(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.svc.Customers.ImportCustomers(ctx, tx, c.shopEntity().ID, []customers.CustomerInput{
			consoleCustomer("c1", "John", "Smith", "+15550104242"), consoleCustomer("c2", "Jane", "Doe", "+447700900123"),
		}); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		c.signIn()
		c.visit("/admin/customers")
		c.wantText("#customers", "John Smith")
		c.wantText("#customers", "Jane Doe")
		c.typeIn("#search", "Smiht")
		c.waitText("#customers-list", "1 in all")
		c.wantText("#customers", "John Smith")
		c.wantNoText("#customers", "Jane Doe")
		// The typed search is the page's address: reloading it shows the same list.
		c.visit("/admin/customers?search=ab")
		c.waitText("#search-refused", "3 characters")
	})
}
