package rest_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func discountCode(t *testing.T, a *api, in shops.DiscountCodeInput) *ent.DiscountCode {
	t.Helper()
	sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := a.svc.Shops.CreateDiscountCode(context.Background(), sh, in)
	if err != nil {
		t.Fatal(err)
	}
	return dc
}

var (
	save10   = shops.DiscountCodeInput{Code: "SAVE10", Text: "10% off", Kind: discountcode.KindPercentage, Value: 1000}
	freeShip = shops.DiscountCodeInput{Code: "FREESHIP", Text: "Free shipping", Kind: discountcode.KindFreeShipping}
)

// discounts reads a list of discount lines as code -> value.
func discounts(t *testing.T, list any) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, e := range list.([]any) {
		m := e.(map[string]any)
		out[m["code"].(string)] = m["value"].(float64)
	}
	return out
}

func TestPercentageCodeTakesBasisPointsOffEachLine(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, save10)
		id, jwt, _ := initOrder(t, a)
		r := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/discounts", map[string]any{"code": "SAVE10"}).wantStatus(t, 200)
		state := stateOf(t, r)
		if got := discounts(t, state["discounts"]); len(got) != 1 || got["SAVE10"] != 450 {
			t.Fatalf("discounts %v", got)
		}
		if discounts(t, lineByKey(t, state, "k1")["discounts"])["SAVE10"] != 250 || discounts(t, lineByKey(t, state, "k2")["discounts"])["SAVE10"] != 200 {
			t.Fatalf("line discounts %v", state["line_items"])
		}
		if state["order_total"].(float64) != 4050 {
			t.Fatalf("total %v", state["order_total"])
		}
	})
}

func TestDiscountCodesAreCaseInsensitive(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, save10)
		id, jwt, _ := initOrder(t, a)
		state := stateOf(t, storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/discounts", map[string]any{"code": " save10 "}).wantStatus(t, 200))
		if got := discounts(t, state["discounts"]); got["SAVE10"] != 450 {
			t.Fatalf("discounts %v", got)
		}
	})
}

func TestFixedAmountCodeNeverTakesMoreThanTheSubtotal(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, shops.DiscountCodeInput{Code: "BIG", Kind: discountcode.KindFixedAmount, Value: 10_000})
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", usAddress()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", base+"/shipping_lines", map[string]any{"code": "standard"}).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": "BIG"}).wantStatus(t, 200))
		if got := discounts(t, state["discounts"]); got["BIG"] != 4500 {
			t.Fatalf("discounts %v", got)
		}
		if state["order_total"].(float64) != 1000 {
			t.Fatalf("total %v, want the shipping alone", state["order_total"])
		}
	})
}

func TestFreeShippingCodeWaivesTheSelectedShipping(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, freeShip)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", usAddress()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", base+"/shipping_lines", map[string]any{"code": "standard"}).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": "freeship"}).wantStatus(t, 200))
		shipping := state["shipping"].(map[string]any)
		if got := discounts(t, shipping["discounts"]); got["FREESHIP"] != 1000 {
			t.Fatalf("shipping discounts %v", got)
		}
		if got := discounts(t, state["discounts"]); got["FREESHIP"] != 1000 {
			t.Fatalf("order discounts %v", got)
		}
		if state["order_total"].(float64) != 4500 {
			t.Fatalf("total %v", state["order_total"])
		}
	})
}

func TestUnusableCodesAre422WithDistinctTypesNamingTheCodeField(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		now := a.clock.Now()
		later, earlier := now.Add(time.Hour), now.Add(-time.Hour)
		discountCode(t, a, shops.DiscountCodeInput{Code: "SOON", Kind: discountcode.KindPercentage, Value: 500, StartsAt: &later})
		discountCode(t, a, shops.DiscountCodeInput{Code: "OVER", Kind: discountcode.KindPercentage, Value: 500, EndsAt: &earlier})
		discountCode(t, a, shops.DiscountCodeInput{Code: "BIGSPEND", Kind: discountcode.KindPercentage, Value: 500, MinimumSubtotal: 10_000})
		used := discountCode(t, a, shops.DiscountCodeInput{Code: "ONCE", Kind: discountcode.KindPercentage, Value: 500, UsageLimit: 1})
		if err := a.svc.Client().DiscountCode.UpdateOne(used).SetUsageCount(1).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/discounts"
		for code, typ := range map[string]string{
			"NOPE": "discount.invalid_code", "SOON": "discount.not_started", "OVER": "discount.expired",
			"BIGSPEND": "discount.minimum_not_met", "ONCE": "discount.usage_limit_reached", "": "discount.code_required",
		} {
			e := storefront(t, a, jwt, "POST", path, map[string]any{"code": code}).wantError(t, 422, problem.CodeValidation, typ)
			if e["details"].(map[string]any)["field"] != "code" {
				t.Fatalf("%s: details %v", code, e["details"])
			}
		}
	})
}

func TestCodeDatesAreCheckedWithTheServiceClock(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		// Within the order JWT's hour.
		starts, ends := a.clock.Now().Add(10*time.Minute), a.clock.Now().Add(40*time.Minute)
		discountCode(t, a, shops.DiscountCodeInput{Code: "WEEKEND", Kind: discountcode.KindPercentage, Value: 1000, StartsAt: &starts, EndsAt: &ends})
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": "WEEKEND"}).wantError(t, 422, "", "discount.not_started")
		// PostgreSQL keeps microseconds, rounded: step past the instant, not onto it.
		a.clock.Advance(10*time.Minute + time.Second)
		storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": "WEEKEND"}).wantStatus(t, 200)
		a.clock.Advance(30 * time.Minute)
		state := stateOf(t, storefront(t, a, jwt, "GET", base+"/refresh", nil).wantStatus(t, 200))
		if len(state["discounts"].([]any)) != 0 || state["order_total"].(float64) != 4500 {
			t.Fatalf("expired code still discounts: %v, total %v", state["discounts"], state["order_total"])
		}
		storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": "WEEKEND"}).wantError(t, 422, "", "discount.expired")
	})
}

func TestCodeBelowItsMinimumStopsDiscountingUntilTheMinimumHoldsAgain(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, shops.DiscountCodeInput{Code: "OVER40", Kind: discountcode.KindFixedAmount, Value: 500, MinimumSubtotal: 4000})
		catalogVariant(t, a, "t-shirt", "T-shirt", 2000)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": "OVER40"}).wantStatus(t, 200)
		dropped := stateOf(t, storefront(t, a, jwt, "DELETE", base+"/items", map[string]any{"line_item_key": "k2"}).wantStatus(t, 200))
		if len(dropped["discounts"].([]any)) != 0 || dropped["order_total"].(float64) != 2500 {
			t.Fatalf("below minimum: discounts %v, total %v", dropped["discounts"], dropped["order_total"])
		}
		back := stateOf(t, storefront(t, a, jwt, "POST", base+"/items", map[string]any{"line_item_key": "k2", "quantity": 1, "platform_id": "t-shirt"}).wantStatus(t, 200))
		if got := discounts(t, back["discounts"]); got["OVER40"] != 500 || back["order_total"].(float64) != 4000 {
			t.Fatalf("minimum met again: discounts %v, total %v", got, back["order_total"])
		}
	})
}

func TestRemovingACodeTakesItsDiscountOff(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, save10)
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/discounts"
		storefront(t, a, jwt, "POST", path, map[string]any{"code": "SAVE10"}).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "DELETE", path, map[string]any{"code": "save10"}).wantStatus(t, 200))
		if len(state["discounts"].([]any)) != 0 || len(lineByKey(t, state, "k1")["discounts"].([]any)) != 0 || state["order_total"].(float64) != 4500 {
			t.Fatalf("after remove: %v", state)
		}
		storefront(t, a, jwt, "DELETE", path, map[string]any{"code": "SAVE10"}).wantError(t, 422, problem.CodeValidation, "discount.not_applied")
	})
}

func TestValidateDiscountCodeChecksWithoutApplying(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, save10)
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/validate_discount_code?discount_code="
		d := storefront(t, a, jwt, "GET", path+"save10", nil).wantStatus(t, 200).data(t)
		if d["valid"] != true || d["discount_code"].(map[string]any)["code"] != "SAVE10" {
			t.Fatalf("validate %v", d)
		}
		if state := d["application_state"].(map[string]any); len(state["discounts"].([]any)) != 0 || state["order_total"].(float64) != 4500 {
			t.Fatalf("validate applied the code: %v", state)
		}
		storefront(t, a, jwt, "GET", path+"NOPE", nil).wantError(t, 422, problem.CodeValidation, "discount.invalid_code")
	})
}

func TestAnOrderHoldsOneItemsCodeAndOneFreeShippingCode(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		discountCode(t, a, save10)
		discountCode(t, a, freeShip)
		discountCode(t, a, shops.DiscountCodeInput{Code: "FIVEOFF", Kind: discountcode.KindFixedAmount, Value: 500})
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/discounts"
		storefront(t, a, jwt, "POST", path, map[string]any{"code": "SAVE10"}).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", path, map[string]any{"code": "FREESHIP"}).wantStatus(t, 200))
		if got := discounts(t, state["discounts"]); len(got) != 2 {
			t.Fatalf("discounts %v", got)
		}
		e := storefront(t, a, jwt, "POST", path, map[string]any{"code": "FIVEOFF"}).wantError(t, 422, problem.CodeValidation, "discount.cannot_combine")
		if e["details"].(map[string]any)["applied_code"] != "SAVE10" {
			t.Fatalf("details %v", e["details"])
		}
		storefront(t, a, jwt, "POST", path, map[string]any{"code": "SAVE10"}).wantStatus(t, 200)
	})
}

func TestTaxesApplyAfterDiscounts(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		canadaTaxes(t, a)
		discountCode(t, a, save10)
		id, jwt, _ := initOrder(t, a)
		base := "/checkout/storefront/" + a.shop + "/" + id
		storefront(t, a, jwt, "POST", base+"/addresses/shipping", bcAddress()).wantStatus(t, 200)
		storefront(t, a, jwt, "POST", base+"/taxes", nil).wantStatus(t, 200)
		state := stateOf(t, storefront(t, a, jwt, "POST", base+"/discounts", map[string]any{"code": "SAVE10"}).wantStatus(t, 200))
		// Lines after the discount: 2250 and 1800 (docs/taxes.md).
		if got := taxes(t, state["taxes"]); !sameTaxes(got, map[string]float64{"GST": 112 + 90, "BC PST": 158 + 126}) {
			t.Fatalf("taxes %v", got)
		}
		if state["order_total"].(float64) != 4050+202+284 {
			t.Fatalf("total %v", state["order_total"])
		}
	})
}

func TestProcessingAnOrderTakesAUseOfItsCodeAndAFailedOneGivesItBack(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		dc := discountCode(t, a, shops.DiscountCodeInput{Code: "ONCE", Kind: discountcode.KindPercentage, Value: 1000, UsageLimit: 1})
		usage := func() int {
			got, err := a.svc.Client().DiscountCode.Get(context.Background(), dc.ID)
			if err != nil {
				t.Fatal(err)
			}
			return got.UsageCount
		}
		gw := gatewaytest.New(t, gatewayAPIToken)
		gwID := addGateway(t, a, gw, "Test cards")
		declined, winner, late := readyCheckout(t, a, cart()), readyCheckout(t, a, cart()), readyCheckout(t, a, cart())
		for _, c := range []*checkout{declined, winner, late} {
			c.call("POST", "/discounts", map[string]any{"code": "ONCE"}).wantStatus(t, 200)
		}
		declined.pay(gwID, gatewaytest.TokenDecline, 0).wantStatus(t, 200)
		declined.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.declined")
		if usage() != 0 {
			t.Fatalf("a declined order kept the code's use: usage_count %d", usage())
		}
		winner.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		processed := stateOf(t, winner.call("POST", "/process_order", nil).wantStatus(t, 200))
		if got := discounts(t, processed["discounts"]); got["ONCE"] != 450 || usage() != 1 {
			t.Fatalf("processed order: discounts %v, usage_count %d", got, usage())
		}
		late.pay(gwID, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		late.call("POST", "/process_order", nil).wantError(t, 422, problem.CodeValidation, "discount.usage_limit_reached")
		if usage() != 1 || len(gw.Calls("/auth")) != 2 {
			t.Fatalf("usage_count %d, %d authorizations; want 1 and 2", usage(), len(gw.Calls("/auth")))
		}
	})
}
