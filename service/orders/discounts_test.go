package orders_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

func shopWithCode(t *testing.T, svc *service.Service, in shops.DiscountCodeInput) (*ent.Shop, *ent.DiscountCode) {
	t.Helper()
	created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-a"})
	if err != nil {
		t.Fatal(err)
	}
	dc, err := svc.Shops.CreateDiscountCode(context.Background(), created.Shop, in)
	if err != nil {
		t.Fatal(err)
	}
	return created.Shop, dc
}

// orderWithCode starts a 1000 order and applies the code to it.
func orderWithCode(t *testing.T, svc *service.Service, sh *ent.Shop, code string) *orders.OrderView {
	t.Helper()
	ctx := context.Background()
	title, price := "Mug", int64(1000)
	v, err := svc.Orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: []orders.CartItem{{Quantity: 1, Title: &title, Price: &price, LineItemKey: "k1"}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err = svc.Orders.ApplyDiscountCode(ctx, &orders.OrderSession{Shop: sh, Order: v.Order}, code)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func usageOf(t *testing.T, db *platform.Database, dc *ent.DiscountCode) int {
	t.Helper()
	got, err := db.Client.DiscountCode.Get(context.Background(), dc.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got.UsageCount
}

func TestOrdersRacingForACodesLastUsesCannotExceedItsLimit(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db)
		sh, dc := shopWithCode(t, svc, shops.DiscountCodeInput{Code: "LAST", Kind: discountcode.KindFixedAmount, Value: 100, UsageLimit: 2})
		const racers = 6
		views := make([]*orders.OrderView, racers)
		for i := range views {
			views[i] = orderWithCode(t, svc, sh, "LAST")
		}
		start := make(chan struct{})
		errs := make([]error, racers)
		var wg sync.WaitGroup
		for i, v := range views {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = svc.Orders.RedeemDiscountCodesOf(context.Background(), v)
			}()
		}
		close(start)
		wg.Wait()
		redeemed := 0
		for _, err := range errs {
			if err == nil {
				redeemed++
				continue
			}
			if e, ok := problem.As(err); !ok || e.Kind != problem.Invalid || e.Type != "discount.usage_limit_reached" {
				t.Fatalf("losing order got %v", err)
			}
		}
		if redeemed != 2 || usageOf(t, db, dc) != 2 {
			t.Fatalf("%d orders redeemed, usage_count %d; want 2 and 2", redeemed, usageOf(t, db, dc))
		}
	})
}

func TestReleasingAFailedOrdersCodeGivesItsUseBack(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sh, dc := shopWithCode(t, svc, shops.DiscountCodeInput{Code: "ONCE", Kind: discountcode.KindPercentage, Value: 1000, UsageLimit: 1})
		first := orderWithCode(t, svc, sh, "ONCE")
		second := orderWithCode(t, svc, sh, "ONCE")
		if err := svc.Orders.RedeemDiscountCodes(ctx, sh, first.Order.PublicOrderID); err != nil {
			t.Fatal(err)
		}
		if err := svc.Orders.RedeemDiscountCodesOf(ctx, second); err == nil {
			t.Fatalf("the used-up code was redeemed twice")
		}
		if err := svc.Orders.ReleaseDiscountCodes(ctx, sh, first.Order.PublicOrderID); err != nil {
			t.Fatal(err)
		}
		if usageOf(t, db, dc) != 0 {
			t.Fatalf("usage_count %d after release", usageOf(t, db, dc))
		}
		if err := svc.Orders.RedeemDiscountCodesOf(ctx, second); err != nil {
			t.Fatalf("the released use cannot be taken: %v", err)
		}
	})
}

func TestRedeemingRechecksTheCodeWhenTheOrderIsProcessed(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		clock := servicetest.NewClock(time.Now())
		svc := service.New(db, service.WithClock(clock.Now))
		ends := clock.Now().Add(time.Hour)
		sh, dc := shopWithCode(t, svc, shops.DiscountCodeInput{Code: "TODAY", Kind: discountcode.KindPercentage, Value: 1000, EndsAt: &ends})
		v := orderWithCode(t, svc, sh, "TODAY")
		if v.Pricing.DiscountTotal != 100 {
			t.Fatalf("discount %d", v.Pricing.DiscountTotal)
		}
		clock.Set(ends.Add(time.Second))
		err := svc.Orders.RedeemDiscountCodesOf(ctx, v)
		if e, ok := problem.As(err); !ok || e.Kind != problem.Invalid || e.Type != "discount.expired" {
			t.Fatalf("redeem of an expired code: %v", err)
		}
		if usageOf(t, db, dc) != 0 {
			t.Fatalf("a refused redemption took a use")
		}
	})
}

func TestCodesThatDiscountNothingTakeNoUse(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		sh, dc := shopWithCode(t, svc, shops.DiscountCodeInput{Code: "SHIPFREE", Kind: discountcode.KindFreeShipping, UsageLimit: 1})
		v := orderWithCode(t, svc, sh, "SHIPFREE") // no shipping line selected: nothing to waive
		if err := svc.Orders.RedeemDiscountCodesOf(ctx, v); err != nil {
			t.Fatal(err)
		}
		if usageOf(t, db, dc) != 0 {
			t.Fatalf("a code that saved nothing took a use")
		}
	})
}

func TestProcessedOrderKeepsItsDiscountAfterTheCodeEndsOrIsUsedUp(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		clock := servicetest.NewClock(time.Now())
		svc := service.New(db, service.WithClock(clock.Now))
		ends := clock.Now().Add(time.Hour)
		sh, _ := shopWithCode(t, svc, shops.DiscountCodeInput{Code: "LASTONE", Kind: discountcode.KindPercentage, Value: 1000, UsageLimit: 1, EndsAt: &ends})
		v := orderWithCode(t, svc, sh, "LASTONE")
		if err := svc.Orders.RedeemDiscountCodesOf(ctx, v); err != nil {
			t.Fatal(err)
		}
		if err := db.Client.Order.UpdateOne(v.Order).SetStatus("processed").SetProcessedAt(clock.Now()).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Set(ends.Add(24 * time.Hour))
		after, err := svc.Orders.LoadOrder(ctx, sh, v.Order.PublicOrderID)
		if err != nil {
			t.Fatal(err)
		}
		if after.Pricing.DiscountTotal != 100 || after.Pricing.Total != 900 {
			t.Fatalf("processed order lost its discount: %+v", after.Pricing)
		}
	})
}

func TestAFailedOrdersUseIsGivenBackEvenAfterTheCodeHasEnded(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		clock := servicetest.NewClock(time.Now())
		svc := service.New(db, service.WithClock(clock.Now))
		ends := clock.Now().Add(time.Hour)
		sh, dc := shopWithCode(t, svc, shops.DiscountCodeInput{Code: "ENDING", Kind: discountcode.KindPercentage, Value: 1000, EndsAt: &ends})
		o := orderWithCode(t, svc, sh, "ENDING")
		if err := svc.Orders.RedeemDiscountCodes(ctx, sh, o.Order.PublicOrderID); err != nil {
			t.Fatal(err)
		}
		clock.Set(clock.Now().Add(2 * time.Hour))
		if err := svc.Orders.ReleaseDiscountCodes(ctx, sh, o.Order.PublicOrderID); err != nil {
			t.Fatal(err)
		}
		if usageOf(t, db, dc) != 0 {
			t.Fatalf("usage_count %d after releasing past the end date, want 0", usageOf(t, db, dc))
		}
	})
}
