package customers_test

import (
	"context"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

func eachStore(t *testing.T, fn func(t *testing.T, svc *service.Service, sh *ent.Shop)) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "store"})
		if err != nil {
			t.Fatal(err)
		}
		fn(t, svc, created.Shop)
	})
}

func str(s string) *string { return &s }

func saved(id, at, first string, addresses ...customers.AddressInput) customers.CustomerInput {
	in := customers.CustomerInput{PlatformID: id, PlatformUpdatedAt: at, FirstName: str(first)}
	if addresses != nil {
		in.Addresses = &addresses
	}
	return in
}

func mustGet(t *testing.T, svc *service.Service, sh *ent.Shop, id string) *ent.Customer {
	t.Helper()
	c, err := svc.Customers.Customer(context.Background(), sh, id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func apply(t *testing.T, svc *service.Service, sh *ent.Shop, ins ...any) {
	t.Helper()
	for _, in := range ins {
		var err error
		switch v := in.(type) {
		case customers.CustomerInput:
			err = svc.Customers.ApplySaved(context.Background(), sh, v)
		case customers.DeletedInput:
			err = svc.Customers.ApplyDeleted(context.Background(), sh, v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestASavedCustomerReplacesTheFieldsGivenAndKeepsTheOthers(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		first := saved("c1", "2026-11-01T10:00:00Z", "Ada", customers.AddressInput{PlatformID: "a1", City: str("London")},
			customers.AddressInput{PlatformID: "a2", City: str("Paris")})
		first.LastName, first.Phone = str("Lovelace"), str("+44 20 0000")
		apply(t, svc, sh, first)
		// A later save: a new first name, no last name given, one address changed, one gone.
		apply(t, svc, sh, saved("c1", "2026-11-02T10:00:00Z", "Augusta", customers.AddressInput{PlatformID: "a1", Street1: str("12 St James's Sq")}))
		c := mustGet(t, svc, sh, "c1")
		if c.FirstName != "Augusta" || c.LastName != "Lovelace" || c.Phone != "+44 20 0000" {
			t.Fatalf("customer %+v", c)
		}
		if as := c.Edges.Addresses; len(as) != 1 || as[0].City != "London" || as[0].Street1 != "12 St James's Sq" {
			t.Fatalf("addresses %+v", as)
		}
	})
}

func TestAnOlderSaveNeverOverwritesANewerCopyAndTheSameSaveTwiceAppliesOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		newer := saved("c1", "2026-11-02T10:00:00Z", "New")
		apply(t, svc, sh, newer, saved("c1", "2026-11-01T10:00:00Z", "Old"), newer)
		// An offset other than Z is the same instant.
		apply(t, svc, sh, saved("c1", "2026-11-02T05:00:00-05:00", "Same instant"))
		if c := mustGet(t, svc, sh, "c1"); c.FirstName != "New" {
			t.Fatalf("first name %q, want New", c.FirstName)
		}
	})
}

func TestASaveOlderThanADeleteDoesNotBringTheCustomerBack(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		// The delete arrives first, the older save after it.
		apply(t, svc, sh, customers.DeletedInput{PlatformID: "c1", PlatformDeletedAt: "2026-11-03T10:00:00Z"},
			saved("c1", "2026-11-02T10:00:00Z", "Ghost"))
		if c := mustGet(t, svc, sh, "c1"); c.PlatformDeletedAt == nil || c.FirstName == "Ghost" {
			t.Fatalf("customer %+v", c)
		}
		// A save after the delete is the platform making the customer again.
		apply(t, svc, sh, saved("c1", "2026-11-04T10:00:00Z", "Back"))
		if c := mustGet(t, svc, sh, "c1"); c.PlatformDeletedAt != nil || c.FirstName != "Back" {
			t.Fatalf("customer %+v", c)
		}
		// A delete older than the copy is ignored.
		apply(t, svc, sh, customers.DeletedInput{PlatformID: "c1", PlatformDeletedAt: "2026-11-03T12:00:00Z"})
		if c := mustGet(t, svc, sh, "c1"); c.PlatformDeletedAt != nil {
			t.Fatalf("an older delete applied: %+v", c)
		}
	})
}

func TestAnInvalidNotificationIsRefusedNamingTheField(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		long := string(make([]byte, 256))
		for field, in := range map[string]customers.CustomerInput{
			"data.customer.platform_id":              {PlatformUpdatedAt: "2026-11-01T10:00:00Z"},
			"data.customer.platform_updated_at":      {PlatformID: "c1", PlatformUpdatedAt: "yesterday"},
			"data.customer.first_name":               {PlatformID: "c1", PlatformUpdatedAt: "2026-11-01T10:00:00Z", FirstName: &long},
			"data.customer.addresses[0].platform_id": saved("c1", "2026-11-01T10:00:00Z", "A", customers.AddressInput{}),
		} {
			err := svc.Customers.CustomerSaved(context.Background(), sh, in)
			if err == nil {
				t.Fatalf("%s: accepted", field)
			}
			if !strings.Contains(err.Error(), field) {
				t.Fatalf("%s: %v", field, err)
			}
		}
	})
}
