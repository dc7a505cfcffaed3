package service_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
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
