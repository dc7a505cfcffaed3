package service

import (
	"context"
)

// EnsureDemoShop creates the demo shop with sample configuration unless it exists, and returns
// a fresh access token for it.
func (s *Service) EnsureDemoShop(ctx context.Context, identifier string) (string, error) {
	if _, err := s.ShopByIdentifier(ctx, identifier); err == nil {
		return s.IssueAccessToken(ctx, identifier)
	}
	created, err := s.CreateShop(ctx, CreateShopInput{Identifier: identifier, Name: "Demo Shop", Domain: "demo.localhost"})
	if err != nil {
		return "", err
	}
	if _, err := s.AddCorsDomain(ctx, created.Shop, "http://localhost:5173"); err != nil {
		return "", err
	}
	if _, err := s.CreateLifeElement(ctx, created.Shop, LifeElementInput{
		Location: Of("customer_info"), InputType: Of("checkbox"), InputLabel: Of("Send me the newsletter"),
		InputRequired: Of(false), MetaDataField: Of("newsletter"), OrderAsc: Of(1),
	}); err != nil {
		return "", err
	}
	if _, err := s.CreateProduct(ctx, created.Shop, ProductInput{PlatformID: "demo-mug", Title: "Enamel mug", Vendor: "checkoutd",
		Variants: []VariantInput{
			{PlatformID: "demo-mug-white", SKU: "MUG-WHITE", Title: "White", Price: 1500, Weight: 350, InventoryTracked: true, InventoryQuantity: 25},
			{PlatformID: "demo-mug-black", SKU: "MUG-BLACK", Title: "Black", Price: 1500, Weight: 350, InventoryTracked: true, InventoryQuantity: 10},
		}}); err != nil {
		return "", err
	}
	return created.AccessToken, nil
}
