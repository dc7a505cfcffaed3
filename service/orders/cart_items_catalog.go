package orders

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
)

// resolveCartItem completes a cart item from the catalog, by variant platform_id or sku. A
// line that carries title and price inline is taken as it is (a platform keeping its own catalog).
func (s *Service) resolveCartItem(ctx context.Context, c *ent.Client, shopID int, it CartItem) (CartItem, bool, error) {
	if it.Title != nil && it.Price != nil {
		return it, true, nil
	}
	v, err := s.catalog.VariantFor(ctx, c, shopID, it.PlatformID, it.SKU)
	if err != nil || v == nil {
		return it, false, err
	}
	title := v.Edges.Product.Title
	if v.Title != "" && v.Title != "Default" {
		title += " - " + v.Title
	}
	price := v.Price
	it.Title, it.Price = &title, &price
	it.PlatformID, it.SKU = v.PlatformID, v.Sku
	it.CompareAtPrice, it.Weight, it.WeightUnit = v.CompareAtPrice, v.Weight, v.WeightUnit
	it.RequiresShipping, it.Taxable = &v.RequiresShipping, &v.Taxable
	it.Vendor, it.ImageURL = v.Edges.Product.Vendor, v.ImageURL
	if it.ImageURL == "" {
		it.ImageURL = v.Edges.Product.ImageURL
	}
	it.productPlatformID = v.Edges.Product.PlatformID
	return it, true, nil
}
