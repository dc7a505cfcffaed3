package service_test

import (
	"context"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

// An update that sets a nullable column to a value assigns it once: PostgreSQL refuses an
// UPDATE that clears and sets the same column.
func TestUpdatesSetNullableFieldsToValuesOnEveryDatabase(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		ctx := context.Background()
		svc := service.New(db)
		created, err := svc.CreateShop(ctx, service.CreateShopInput{Identifier: "shop-a"})
		if err != nil {
			t.Fatal(err)
		}
		sh := created.Shop
		el, err := svc.CreateLifeElement(ctx, sh, service.LifeElementInput{Location: service.Of("shipping"), InputType: service.Of("text"),
			MetaDataField: service.Of("gate"), OrderAsc: service.Of(1), InputRequired: service.Of(false)})
		if err != nil {
			t.Fatal(err)
		}
		el, err = svc.UpdateLifeElement(ctx, sh, el.PublicID, service.LifeElementInput{InputLabel: service.Of("Gate code"),
			InputDefault: service.Of("0000"), InputPlaceholder: service.Of("1234"), InputRegex: service.Of("[0-9]+"), InputRequired: service.Of(true)})
		if err != nil || *el.InputLabel != "Gate code" || *el.InputRegex != "[0-9]+" || !*el.InputRequired {
			t.Fatalf("element update: %v %v", el, err)
		}
		el, err = svc.UpdateLifeElement(ctx, sh, el.PublicID, service.LifeElementInput{InputLabel: service.Nullable[string]{Set: true}})
		if err != nil || el.InputLabel != nil {
			t.Fatalf("clearing the label: %v %v", el, err)
		}

		str := func(s string) *string { return &s }
		yes := true
		in := service.ExternalPaymentGatewayInput{Name: str("Pay"), BaseURL: str("https://pay.example.com"), PartialCapture: &yes,
			AdditionalOrderDetails: &yes, ProviderID: str("p"), Currency: str("USD")}
		g, err := svc.CreateExternalPaymentGateway(ctx, sh, in)
		if err != nil {
			t.Fatal(err)
		}
		in.IframeURL, in.APIToken = str("https://pay.example.com/frame"), service.Of("secret")
		if g, err = svc.UpdateExternalPaymentGateway(ctx, sh, g.PublicID, in); err != nil || *g.IframeURL != "https://pay.example.com/frame" {
			t.Fatalf("gateway update: %v %v", g, err)
		}

		dc, err := svc.CreateDiscountCode(ctx, sh, service.DiscountCodeInput{Code: "TEN", Kind: discountcode.KindPercentage, Value: 1000})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
		if dc, err = svc.UpdateDiscountCode(ctx, sh, dc.ID, service.DiscountCodePatch{StartsAt: service.Of(start)}); err != nil || !dc.StartsAt.Equal(start) {
			t.Fatalf("discount update: %v %v", dc, err)
		}
	})
}
