package catalog

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
)

// Reserve takes quantity off a tracked variant's stock, in tx. The decrement only happens while
// the stock covers it, in one statement, so two orders can never both take the last unit. It
// reports false when the variant is tracked and short; an untracked or unknown variant has no
// stock to take.
func (s *Service) Reserve(ctx context.Context, tx *ent.Tx, shopID int, variantID string, quantity int) (bool, error) {
	n, err := tx.Variant.Update().Where(variant.ShopID(shopID), variant.PlatformID(variantID), variant.InventoryTracked(true),
		variant.InventoryQuantityGTE(quantity)).AddInventoryQuantity(-quantity).Save(ctx)
	if err != nil || n > 0 {
		return err == nil, err
	}
	tracked, err := tx.Variant.Query().Where(variant.ShopID(shopID), variant.PlatformID(variantID), variant.InventoryTracked(true)).Exist(ctx)
	return !tracked, err
}

// Release gives quantity back to a tracked variant's stock, in tx: a reservation undone, or
// units returned. Stock given back for a variant that is gone changes nothing.
func (s *Service) Release(ctx context.Context, tx *ent.Tx, shopID int, variantID string, quantity int) error {
	_, err := tx.Variant.Update().Where(variant.ShopID(shopID), variant.PlatformID(variantID), variant.InventoryTracked(true)).
		AddInventoryQuantity(quantity).Save(ctx)
	return err
}

// TrackedVariants are the shop's variants among platformIDs whose stock is tracked, read through c.
func (s *Service) TrackedVariants(ctx context.Context, c *ent.Client, shopID int, platformIDs []string) ([]*ent.Variant, error) {
	return c.Variant.Query().Where(variant.ShopID(shopID), variant.PlatformIDIn(platformIDs...), variant.InventoryTracked(true)).All(ctx)
}

// GiftCardProducts are the platform ids, among productIDs, of the shop's products that are gift
// cards, read in tx.
func (s *Service) GiftCardProducts(ctx context.Context, tx *ent.Tx, shopID int, productIDs []string) ([]string, error) {
	return tx.Product.Query().Where(product.ShopID(shopID), product.PlatformIDIn(productIDs...), product.GiftCard(true)).
		Select(product.FieldPlatformID).Strings(ctx)
}

// VariantFor is the shop's variant (with its product) of platform id platformID, or else of
// sku, read through c; nil when there is none.
func (s *Service) VariantFor(ctx context.Context, c *ent.Client, shopID int, platformID, sku string) (*ent.Variant, error) {
	q := c.Variant.Query().Where(variant.ShopID(shopID)).WithProduct()
	switch {
	case platformID != "":
		q = q.Where(variant.PlatformID(platformID))
	case sku != "":
		q = q.Where(variant.Sku(sku))
	default:
		return nil, nil
	}
	vs, err := q.Limit(1).All(ctx)
	if err != nil || len(vs) == 0 {
		return nil, err
	}
	return vs[0], nil
}
