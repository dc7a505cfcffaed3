package catalog

import (
	"context"
	"fmt"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// VariantInput is one variant of a new product.
type VariantInput struct {
	PlatformID        string `json:"platform_id"`
	SKU               string `json:"sku"`
	Title             string `json:"title"`
	Price             int64  `json:"price"`
	CompareAtPrice    int64  `json:"compare_at_price"`
	Weight            int    `json:"weight"`
	WeightUnit        string `json:"weight_unit"`
	RequiresShipping  *bool  `json:"requires_shipping"`
	Taxable           *bool  `json:"taxable"`
	InventoryTracked  bool   `json:"inventory_tracked"`
	InventoryQuantity int    `json:"inventory_quantity"`
	ImageURL          string `json:"image_url"`
}

// ProductInput is a new product with its variants.
type ProductInput struct {
	PlatformID  string         `json:"platform_id"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Vendor      string         `json:"vendor"`
	Tags        string         `json:"tags"`
	ImageURL    string         `json:"image_url"`
	GiftCard    bool           `json:"gift_card"`
	Variants    []VariantInput `json:"variants"`
}

// WeightUnits are the units a weight may be given in.
var WeightUnits = map[string]bool{"g": true, "kg": true, "lb": true, "oz": true}

func (in ProductInput) validate() error {
	p := input.Problems{}
	if strings.TrimSpace(in.PlatformID) == "" {
		p.Add("platform_id", "is required")
	}
	if strings.TrimSpace(in.Title) == "" {
		p.Add("title", "is required")
	}
	if len(in.Variants) == 0 {
		p.Add("variants", "needs at least one variant")
	}
	if len(in.Variants) > input.MaxVariants {
		p.Add("variants", fmt.Sprintf("has more than %d variants", input.MaxVariants))
	}
	p.Text("platform_id", in.PlatformID, input.MaxShortText)
	p.Text("title", in.Title, input.MaxShortText)
	p.Text("description", in.Description, input.MaxLongText)
	p.Text("vendor", in.Vendor, input.MaxShortText)
	p.Text("tags", in.Tags, input.MaxLongText)
	p.Text("image_url", in.ImageURL, input.MaxURLText)
	seen := map[string]bool{}
	for i, v := range in.Variants {
		f := fmt.Sprintf("variants[%d]", i)
		if v.PlatformID == "" {
			p.Add(f+".platform_id", "is required")
		} else if seen[v.PlatformID] {
			p.Add(f+".platform_id", "is used by another variant")
		}
		seen[v.PlatformID] = true
		if input.AmountOutOfBounds(v.Price) || input.AmountOutOfBounds(v.CompareAtPrice) {
			p.Add(f+".price", "price and compare_at_price "+input.AmountBoundText)
		}
		if v.WeightUnit != "" && !WeightUnits[v.WeightUnit] {
			p.Add(f+".weight_unit", "must be g, kg, lb or oz")
		}
		if v.Weight < 0 || v.Weight > input.MaxWeight || v.InventoryQuantity < 0 || v.InventoryQuantity > input.MaxInventory {
			p.Add(f, fmt.Sprintf("weight must be between 0 and %d, and inventory_quantity between 0 and %d", input.MaxWeight, input.MaxInventory))
		}
		p.Text(f+".platform_id", v.PlatformID, input.MaxShortText)
		p.Text(f+".sku", v.SKU, input.MaxShortText)
		p.Text(f+".title", v.Title, input.MaxShortText)
		p.Text(f+".image_url", v.ImageURL, input.MaxURLText)
	}
	if len(p) > 0 {
		return problem.Validation("product.invalid_product_data", "invalid product: "+p.Message(), p.Details())
	}
	return nil
}

// CreateProduct adds a product and its variants to the shop's catalog.
func (s *Service) CreateProduct(ctx context.Context, sh *ent.Shop, in ProductInput) (*ent.Product, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	var out *ent.Product
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		taken, err := tx.Product.Query().Where(product.ShopID(sh.ID), product.PlatformID(in.PlatformID)).Exist(ctx)
		if err != nil {
			return err
		}
		ids := make([]string, len(in.Variants))
		for i, v := range in.Variants {
			ids[i] = v.PlatformID
		}
		variantTaken, err := tx.Variant.Query().Where(variant.ShopID(sh.ID), variant.PlatformIDIn(ids...)).Exist(ctx)
		if err != nil {
			return err
		}
		if taken || variantTaken {
			return problem.Validation("product.platform_id_taken", "a product or variant with this platform_id exists", map[string]any{"field": "platform_id"})
		}
		out, err = tx.Product.Create().SetShopID(sh.ID).SetPlatformID(in.PlatformID).SetTitle(in.Title).
			SetDescription(in.Description).SetVendor(in.Vendor).SetTags(in.Tags).SetImageURL(in.ImageURL).SetGiftCard(in.GiftCard).Save(ctx)
		if err != nil {
			return err
		}
		for _, v := range in.Variants {
			unit := v.WeightUnit
			if unit == "" {
				unit = "g"
			}
			if err := tx.Variant.Create().SetShopID(sh.ID).SetProductID(out.ID).SetPlatformID(v.PlatformID).SetSku(v.SKU).
				SetTitle(v.Title).SetPrice(v.Price).SetCompareAtPrice(v.CompareAtPrice).SetWeight(v.Weight).SetWeightUnit(unit).
				SetNillableRequiresShipping(v.RequiresShipping).SetNillableTaxable(v.Taxable).SetInventoryTracked(v.InventoryTracked).
				SetInventoryQuantity(v.InventoryQuantity).SetImageURL(v.ImageURL).Exec(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

// VariantPatch changes a variant's price and stock; absent fields stay.
type VariantPatch struct {
	Price             *int64 `json:"price"`
	CompareAtPrice    *int64 `json:"compare_at_price"`
	InventoryTracked  *bool  `json:"inventory_tracked"`
	InventoryQuantity *int   `json:"inventory_quantity"`
	SKU               *string
	Title             *string
}

// UpdateVariant changes one variant of the shop's catalog.
func (s *Service) UpdateVariant(ctx context.Context, sh *ent.Shop, id int, in VariantPatch) (*ent.Variant, error) {
	if (in.Price != nil && input.AmountOutOfBounds(*in.Price)) || (in.CompareAtPrice != nil && input.AmountOutOfBounds(*in.CompareAtPrice)) ||
		(in.InventoryQuantity != nil && (*in.InventoryQuantity < 0 || *in.InventoryQuantity > input.MaxInventory)) ||
		(in.SKU != nil && input.TooLong(*in.SKU, input.MaxShortText)) || (in.Title != nil && input.TooLong(*in.Title, input.MaxShortText)) {
		return nil, problem.Validation("product.invalid_variant_data",
			fmt.Sprintf("price and compare_at_price %s, inventory_quantity between 0 and %d, sku and title at most %d characters", input.AmountBoundText, input.MaxInventory, input.MaxShortText), nil)
	}
	n, err := s.p.DB.Client.Variant.Update().Where(variant.ShopID(sh.ID), variant.ID(id)).
		SetNillablePrice(in.Price).SetNillableCompareAtPrice(in.CompareAtPrice).SetNillableInventoryTracked(in.InventoryTracked).
		SetNillableInventoryQuantity(in.InventoryQuantity).SetNillableSku(in.SKU).SetNillableTitle(in.Title).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, problem.NotFoundError("product.variant_not_found", "no variant with that id")
	}
	return s.p.DB.Read.Variant.Get(ctx, id)
}
