package service

import (
	"context"

	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/shops"
)

// EnsureDemoShop creates the demo shop with sample configuration unless it exists, and returns
// a fresh access token for it.
func (s *Service) EnsureDemoShop(ctx context.Context, identifier string) (string, error) {
	if _, err := s.Shops.ShopByIdentifier(ctx, identifier); err == nil {
		return s.Shops.IssueAccessToken(ctx, identifier)
	}
	created, err := s.Shops.CreateShop(ctx, shops.CreateShopInput{Identifier: identifier, Name: "Demo Shop", Domain: "demo.localhost"})
	if err != nil {
		return "", err
	}
	if _, err := s.Shops.AddCorsDomain(ctx, created.Shop, "http://localhost:5173"); err != nil {
		return "", err
	}
	if _, err := s.Shops.CreateLifeElement(ctx, created.Shop, shops.LifeElementInput{
		Location: input.Of("customer_info"), InputType: input.Of("checkbox"), InputLabel: input.Of("Send me the newsletter"),
		InputRequired: input.Of(false), MetaDataField: input.Of("newsletter"), OrderAsc: input.Of(1),
	}); err != nil {
		return "", err
	}
	if _, err := s.Catalog.CreateProduct(ctx, created.Shop, catalog.ProductInput{PlatformID: "demo-mug", Title: "Enamel mug", Vendor: "checkoutd",
		Variants: []catalog.VariantInput{
			{PlatformID: "demo-mug-white", SKU: "MUG-WHITE", Title: "White", Price: 1500, Weight: 350, InventoryTracked: true, InventoryQuantity: 25},
			{PlatformID: "demo-mug-black", SKU: "MUG-BLACK", Title: "Black", Price: 1500, Weight: 350, InventoryTracked: true, InventoryQuantity: 10},
		}}); err != nil {
		return "", err
	}
	return created.AccessToken, nil
}
