package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

// An update that sets a nullable column to a value assigns it once: PostgreSQL refuses an
// UPDATE that clears and sets the same column.
func TestUpdatesSetNullableFieldsToValuesOnEveryDatabase(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		sh := created.Shop
		el, err := svc.Shops.CreateLifeElement(ctx, sh, shops.LifeElementInput{Location: input.Of("shipping"), InputType: input.Of("text"),
			MetaDataField: input.Of("gate"), OrderAsc: input.Of(1), InputRequired: input.Of(false)})
		if err != nil {
			t.Fatal(err)
		}
		el, err = svc.Shops.UpdateLifeElement(ctx, sh, el.PublicID, shops.LifeElementInput{InputLabel: input.Of("Gate code"),
			InputDefault: input.Of("0000"), InputPlaceholder: input.Of("1234"), InputRegex: input.Of("[0-9]+"), InputRequired: input.Of(true)})
		if err != nil || *el.InputLabel != "Gate code" || *el.InputRegex != "[0-9]+" || !*el.InputRequired {
			t.Fatalf("element update: %v %v", el, err)
		}
		el, err = svc.Shops.UpdateLifeElement(ctx, sh, el.PublicID, shops.LifeElementInput{InputLabel: input.Nullable[string]{Set: true}})
		if err != nil || el.InputLabel != nil {
			t.Fatalf("clearing the label: %v %v", el, err)
		}

		str := func(s string) *string { return &s }
		yes := true
		in := shops.ExternalPaymentGatewayInput{Name: str("Pay"), BaseURL: str("https://pay.example.com"), PartialCapture: &yes,
			AdditionalOrderDetails: &yes, ProviderID: str("p"), Currency: str("USD")}
		g, err := svc.Shops.CreateExternalPaymentGateway(ctx, sh, in)
		if err != nil {
			t.Fatal(err)
		}
		in.IframeURL, in.APIToken = str("https://pay.example.com/frame"), input.Of("secret")
		if g, err = svc.Shops.UpdateExternalPaymentGateway(ctx, sh, g.PublicID, in); err != nil || *g.IframeURL != "https://pay.example.com/frame" {
			t.Fatalf("gateway update: %v %v", g, err)
		}

		dc, err := svc.Shops.CreateDiscountCode(ctx, sh, shops.DiscountCodeInput{Code: "TEN", Kind: discountcode.KindPercentage, Value: 1000})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		if dc, err = svc.Shops.UpdateDiscountCode(ctx, sh, dc.ID, shops.DiscountCodePatch{StartsAt: input.Of(start)}); err != nil || !dc.StartsAt.Equal(start) {
			t.Fatalf("discount update: %v %v", dc, err)
		}
	})
}
