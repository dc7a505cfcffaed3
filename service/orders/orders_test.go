package orders_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

func newShop(t *testing.T, svc *service.Service) *ent.Shop {
	t.Helper()
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-a"})
	if err != nil {
		t.Fatal(err)
	}
	return created.Shop
}

// initMugOrder opens an order of one inline-priced mug.
func initMugOrder(t *testing.T, svc *service.Service, sh *ent.Shop) *orders.OrderView {
	t.Helper()
	title, price := "Mug", int64(1000)
	v, err := svc.Orders.InitOrder(context.Background(), sh, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price}}})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestProcessedOrCancelledOrderCannotBeResumed(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sh := newShop(t, svc)
		for _, status := range []order.Status{order.StatusProcessed, order.StatusCancelled} {
			v := initMugOrder(t, svc, sh)
			if err := db.Client.Order.UpdateOne(v.Order).SetStatus(status).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			_, err := svc.Orders.ResumeOrder(ctx, sh, v.Order.PublicOrderID)
			if e, ok := problem.As(err); !ok || e.Kind != problem.Invalid || e.Type != "order.not_resumable" {
				t.Fatalf("%s order resumed: %v", status, err)
			}
		}
	})
}

// A storefront session is opened without reading the order; a token the shop signed for an
// order that does not exist is still refused like a bad token, by a read and by a change.
func TestOrderJWTForAnOrderThatDoesNotExistIsUnauthorized(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sh := newShop(t, svc)
		token, err := svc.Orders.IssueOrderJWT(sh, "no-such-order")
		if err != nil {
			t.Fatal(err)
		}
		sess, err := svc.Orders.AuthenticateOrder(ctx, "shop-a", "no-such-order", token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Orders.SessionState(ctx, sess); err != problem.ErrUnauthorized {
			t.Fatalf("read: %v, want unauthorized", err)
		}
		in := orders.CustomerInput{FirstName: "Ada", LastName: "Lovelace", EmailAddress: "ada@example.com"}
		if _, err := svc.Orders.CreateCustomer(ctx, sess, in, false); err != problem.ErrUnauthorized {
			t.Fatalf("change: %v, want unauthorized", err)
		}
	})
}

// GraphQL resolves a query's fields side by side; reads through one storefront session, whose
// order is read on first need, may run at once.
func TestOneStorefrontSessionServesConcurrentReads(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sh := newShop(t, svc)
		v := initMugOrder(t, svc, sh)
		sess, err := svc.Orders.AuthenticateOrder(ctx, "shop-a", v.Order.PublicOrderID, v.JWT)
		if err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 4)
		for range cap(errs) {
			go func() {
				_, err := svc.Orders.SessionState(ctx, sess)
				errs <- err
			}()
		}
		for range cap(errs) {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if sess.PublicOrderID() != v.Order.PublicOrderID {
			t.Fatalf("session names %s", sess.PublicOrderID())
		}
	})
}

func TestAnOrderChangedThroughAnotherProcessIsAnsweredWithItsNewLineItems(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		here, there := service.New(db), service.New(db)
		sh := newShop(t, here)
		v := initMugOrder(t, here, sh)
		sess := func(svc *service.Service) *orders.OrderSession {
			return backendSession(t, svc, sh, v.Order.PublicOrderID)
		}
		// This process keeps the order's children from its answer...
		if _, err := here.Orders.CreateCustomer(ctx, sess(here), orders.CustomerInput{FirstName: "Ada", LastName: "L", EmailAddress: "ada@example.com"}, false); err != nil {
			t.Fatal(err)
		}
		// ...another adds a line...
		title, price := "Saucer", int64(500)
		if _, err := there.Orders.AddLineItem(ctx, sess(there), orders.CartItem{LineItemKey: "saucer", Quantity: 1, Title: &title, Price: &price}); err != nil {
			t.Fatal(err)
		}
		// ...and both this process's next change and its next read show it.
		changed, err := here.Orders.SetAddress(ctx, sess(here), orders.ShippingAddress, orders.AddressInput{FirstName: "Ada", LastName: "L",
			AddressLine1: "1 Main St", City: "Albany", CountryCode: "US", ProvinceCode: "NY", PostalCode: "12207"})
		if err != nil {
			t.Fatal(err)
		}
		read, err := here.Orders.OrderState(ctx, sess(here))
		if err != nil {
			t.Fatal(err)
		}
		if len(changed.LineItems) != 2 || len(read.LineItems) != 2 {
			t.Fatalf("after another process added a line: the change answers %d lines, a read %d", len(changed.LineItems), len(read.LineItems))
		}
	})
}
