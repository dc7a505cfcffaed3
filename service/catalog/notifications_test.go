package catalog_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/shops"
)

func eachCatalog(t *testing.T, fn func(t *testing.T, svc *service.Service, sh *ent.Shop)) {
	t.Parallel()
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		svc := service.New(db)
		created, err := svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "catalog"})
		if err != nil {
			t.Fatal(err)
		}
		fn(t, svc, created.Shop)
	})
}

func str(s string) *string { return &s }

func tea(at, name, price string) catalog.ConnectorProduct {
	return catalog.ConnectorProduct{PlatformID: "prod_tea", PlatformUpdatedAt: at, Name: str(name),
		Variants: &[]catalog.ConnectorVariant{{PlatformID: "var_tea_100g", SKU: str("TEA-100"), Name: str("100 g"), Price: str(price)}}}
}

func apply(t *testing.T, svc *service.Service, sh *ent.Shop, ins ...any) {
	t.Helper()
	for _, in := range ins {
		var err error
		switch v := in.(type) {
		case catalog.ConnectorProduct:
			err = svc.Catalog.ApplyProductSaved(context.Background(), sh, v)
		case catalog.DeletedInput:
			err = svc.Catalog.ApplyProductDeleted(context.Background(), sh, v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func teaVariant(t *testing.T, svc *service.Service, sh *ent.Shop) *ent.Variant {
	t.Helper()
	v, err := svc.Client().Variant.Query().Where(variant.ShopID(sh.ID), variant.PlatformID("var_tea_100g")).WithProduct().Only(context.Background())
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestASavedProductLandsInTheCatalogWithItsDecimalPricesInMinorUnits(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		apply(t, svc, sh, tea("2026-11-01T10:00:00Z", "Green tea", "12.50"))
		v := teaVariant(t, svc, sh)
		if v == nil || v.Price != 1250 || v.Sku != "TEA-100" || v.Edges.Product.Title != "Green tea" {
			t.Fatalf("variant %+v", v)
		}
		// A later save without variants keeps them; one with another set replaces it.
		apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: "prod_tea", PlatformUpdatedAt: "2026-11-02T10:00:00Z", Name: str("Sencha")})
		if v := teaVariant(t, svc, sh); v == nil || v.Edges.Product.Title != "Sencha" || v.Price != 1250 {
			t.Fatalf("after a save without variants: %+v", v)
		}
		apply(t, svc, sh, catalog.ConnectorProduct{PlatformID: "prod_tea", PlatformUpdatedAt: "2026-11-03T10:00:00Z",
			Variants: &[]catalog.ConnectorVariant{{PlatformID: "var_tea_250g", Price: str("25.00")}}})
		if v := teaVariant(t, svc, sh); v != nil {
			t.Fatalf("a variant the platform no longer has is still sold: %+v", v)
		}
	})
}

func TestAnOlderProductSaveNeverOverwritesANewerCopy(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		newer := tea("2026-11-02T10:00:00Z", "New", "15.00")
		apply(t, svc, sh, newer, tea("2026-11-01T10:00:00Z", "Old", "10.00"), newer)
		if v := teaVariant(t, svc, sh); v.Price != 1500 || v.Edges.Product.Title != "New" {
			t.Fatalf("variant %+v", v)
		}
	})
}

func TestADeletedProductIsNoLongerSoldAndAnOlderSaveDoesNotBringItBack(t *testing.T) {
	eachCatalog(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		apply(t, svc, sh, tea("2026-11-01T10:00:00Z", "Tea", "12.50"),
			catalog.DeletedInput{PlatformID: "prod_tea", PlatformDeletedAt: "2026-11-03T10:00:00Z"},
			tea("2026-11-02T10:00:00Z", "Ghost", "1.00"))
		if v := teaVariant(t, svc, sh); v != nil {
			t.Fatalf("a deleted product is sold: %+v", v)
		}
		if n, _ := svc.Client().Product.Query().Where(product.ShopID(sh.ID)).Count(context.Background()); n != 0 {
			t.Fatalf("%d products after the delete", n)
		}
		apply(t, svc, sh, tea("2026-11-04T10:00:00Z", "Back", "13.00"))
		if v := teaVariant(t, svc, sh); v == nil || v.Price != 1300 {
			t.Fatalf("a save after the delete: %+v", v)
		}
	})
}
