package orders_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

var albany = orders.AddressInput{FirstName: "Ada", LastName: "L", AddressLine1: "1 Main St", City: "Albany",
	CountryCode: "US", ProvinceCode: "NY", PostalCode: "12207"}

// backendSession opens the order for a backend call through svc.
func backendSession(t *testing.T, svc *service.Service, sh *ent.Shop, publicOrderID string) *orders.OrderSession {
	t.Helper()
	sess, err := svc.Orders.BackendOrderSession(context.Background(), sh, publicOrderID)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func TestAChangeAfterInitOrAChangeInTheSameProcessIsWrittenOnTheKeptOrder(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sh := newShop(t, svc)
		v := initMugOrder(t, svc, sh)
		if _, err := svc.Orders.CreateCustomer(ctx, backendSession(t, svc, sh, v.Order.PublicOrderID), orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}, false); err != nil {
			t.Fatal(err)
		}
		changed, err := svc.Orders.SetAddress(ctx, backendSession(t, svc, sh, v.Order.PublicOrderID), orders.ShippingAddress, albany)
		if err != nil {
			t.Fatal(err)
		}
		if kept, locked := svc.Orders.FieldChanges("kept"), svc.Orders.FieldChanges("locked"); kept != 2 || locked != 0 {
			t.Fatalf("changes on the kept order %d, in a transaction %d; want 2 and 0", kept, locked)
		}
		stored, err := db.Client.Order.Get(ctx, v.Order.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Version != changed.Order.Version || stored.Customer == nil || stored.ShippingAddress == nil || len(changed.LineItems) != 1 {
			t.Fatalf("row at version %d with customer %v and address %v; the answer at version %d with %d lines",
				stored.Version, stored.Customer, stored.ShippingAddress, changed.Order.Version, len(changed.LineItems))
		}
	})
}

func TestAChangeOnAKeptOrderThatAnotherProcessChangedKeepsThatChange(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		here, there := service.New(db), service.New(db)
		sh := newShop(t, here)
		v := initMugOrder(t, here, sh)
		id := v.Order.PublicOrderID
		if _, err := here.Orders.CreateCustomer(ctx, backendSession(t, here, sh, id), orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}, false); err != nil {
			t.Fatal(err)
		}
		if _, err := there.Orders.SetAddress(ctx, backendSession(t, there, sh, id), orders.BillingAddress, albany); err != nil {
			t.Fatal(err)
		}
		changed, err := here.Orders.SetAddress(ctx, backendSession(t, here, sh, id), orders.ShippingAddress, albany)
		if err != nil {
			t.Fatal(err)
		}
		if changed.Order.BillingAddress == nil || changed.Order.ShippingAddress == nil || changed.Order.Customer == nil {
			t.Fatalf("the answer lost a change: customer %v, billing %v, shipping %v", changed.Order.Customer, changed.Order.BillingAddress, changed.Order.ShippingAddress)
		}
		stored, err := db.Client.Order.Get(ctx, v.Order.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.BillingAddress == nil || stored.ShippingAddress == nil || stored.Version != changed.Order.Version {
			t.Fatalf("the row lost a change: billing %v, shipping %v, version %d (answer %d)", stored.BillingAddress, stored.ShippingAddress, stored.Version, changed.Order.Version)
		}
	})
}

func TestAChangeTheKeptOrderRefusesIsMadeWhenTheRowAllowsIt(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		here, there := service.New(db), service.New(db)
		sh := newShop(t, here)
		id := initMugOrder(t, here, sh).Order.PublicOrderID
		ada := orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}
		if _, err := here.Orders.CreateCustomer(ctx, backendSession(t, here, sh, id), ada, false); err != nil {
			t.Fatal(err)
		}
		// Here, the kept order still has its customer; the row no longer does.
		if _, err := there.Orders.DeleteCustomer(ctx, backendSession(t, there, sh, id)); err != nil {
			t.Fatal(err)
		}
		changed, err := here.Orders.CreateCustomer(ctx, backendSession(t, here, sh, id), ada, false)
		if err != nil {
			t.Fatalf("a customer for an order whose row has none: %v", err)
		}
		if changed.Order.Customer == nil {
			t.Fatal("the answer has no customer")
		}
		// And the refusal the row does call for is still made.
		if _, err := here.Orders.CreateCustomer(ctx, backendSession(t, here, sh, id), ada, false); err == nil {
			t.Fatal("a second customer was accepted")
		}
	})
}
