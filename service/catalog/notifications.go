package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/bojanz/currency"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/catalogtombstone"
	"github.com/checkoutd/checkoutd/ent/category"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Event notifications of products and categories. As for customers (service/customers), each
// is checked, queued (the caller answers 202) and applied by a worker in the order of the
// platform's times, not of arrival: an older save never overwrites a newer copy, and a save
// older than a delete never brings the object back (a tombstone keeps the delete's time; the
// deleted product itself is gone, so checkout no longer sells it). Variants land where checkout
// prices from: a variant's price is the decimal the platform sends, in the shop's currency.

const (
	// MaxVariants, MaxImages, MaxOptions and MaxCategories bound one Product Saved.
	MaxVariants   = 100
	MaxImages     = 100
	MaxOptions    = 20
	MaxCategories = 100
)

// ConnectorVariant is a connector variant; fields left out stay as they are.
type ConnectorVariant struct {
	PlatformID               string            `json:"platform_id"`
	Name                     *string           `json:"name"`
	SKU                      *string           `json:"sku"`
	ImageURL                 *string           `json:"image_url"`
	TaxCode                  *string           `json:"tax_code"`
	WeightUnit               *string           `json:"weight_unit"`
	InventoryTrackingEntity  *string           `json:"inventory_tracking_entity"`
	InventoryTrackingService *string           `json:"inventory_tracking_service"`
	OptionValues             []map[string]any  `json:"option_values"`
	AllowBackorder           *bool             `json:"allow_backorder"`
	RequireShipping          *bool             `json:"require_shipping"`
	TaxExempt                *bool             `json:"tax_exempt"`
	Grams                    *int              `json:"grams"`
	InventoryQuantity        *int              `json:"inventory_quantity"`
	CompareAtPrice           *string           `json:"compare_at_price"`
	Cost                     *string           `json:"cost"`
	Price                    *string           `json:"price"`
	Weight                   *string           `json:"weight"`
	LocalizedNames           map[string]string `json:"localized_names"`
}

// ConnectorCategory is a connector category (Product Category Saved, or a product's category).
type ConnectorCategory struct {
	PlatformID        string  `json:"platform_id"`
	PlatformUpdatedAt string  `json:"platform_updated_at"`
	Name              *string `json:"name"`
	ImageURL          *string `json:"image_url"`
}

// ConnectorProduct is a connector product as Product Saved carries it.
type ConnectorProduct struct {
	PlatformID               string               `json:"platform_id"`
	PlatformUpdatedAt        string               `json:"platform_updated_at"`
	Name                     *string              `json:"name"`
	Handle                   *string              `json:"handle"`
	Description              *string              `json:"description"`
	Type                     *string              `json:"type"`
	Vendor                   *string              `json:"vendor"`
	URL                      *string              `json:"url"`
	TaxCode                  *string              `json:"tax_code"`
	Tags                     *string              `json:"tags"`
	Published                *bool                `json:"published"`
	InventoryQuantity        *int                 `json:"inventory_quantity"`
	InventoryTrackingEntity  *string              `json:"inventory_tracking_entity"`
	InventoryTrackingService *string              `json:"inventory_tracking_service"`
	LocalizedNames           map[string]string    `json:"localized_names"`
	LocalizedDescriptions    map[string]string    `json:"localized_descriptions"`
	Categories               *[]ConnectorCategory `json:"categories"`
	Images                   *[]map[string]any    `json:"images"`
	Options                  *[]map[string]any    `json:"options"`
	Variants                 *[]ConnectorVariant  `json:"variants"`
}

// DeletedInput is Product Deleted's product or Product Category Deleted's category.
type DeletedInput struct {
	PlatformID        string `json:"platform_id"`
	PlatformDeletedAt string `json:"platform_deleted_at"`
}

// minor is a decimal amount of the shop's currency in minor units.
func minor(field, v, code string) (int64, error) {
	a, err := currency.NewAmount(strings.TrimSpace(v), code)
	if err != nil {
		return 0, input.NotificationInvalid(field, "must be a decimal amount in "+code+", like 12.50")
	}
	n, err := a.RoundTo(uint8(currency.DefaultDigits), currency.RoundHalfUp).Int64()
	if err != nil || n < 0 || n > input.MaxAmount {
		return 0, input.NotificationInvalid(field, fmt.Sprintf("must be from 0 to %d minor units", input.MaxAmount))
	}
	return n, nil
}

func (in ConnectorProduct) check(code string) error {
	if err := input.NotificationID("data.product.platform_id", in.PlatformID); err != nil {
		return err
	}
	if _, err := input.NotificationTime("data.product.platform_updated_at", in.PlatformUpdatedAt); err != nil {
		return err
	}
	for f, v := range map[string]*string{"name": in.Name, "handle": in.Handle, "type": in.Type, "vendor": in.Vendor,
		"tax_code": in.TaxCode, "inventory_tracking_entity": in.InventoryTrackingEntity, "inventory_tracking_service": in.InventoryTrackingService} {
		if err := input.NotificationText("data.product."+f, v, input.MaxShortText); err != nil {
			return err
		}
	}
	for f, v := range map[string]*string{"description": in.Description, "tags": in.Tags, "url": in.URL} {
		if err := input.NotificationText("data.product."+f, v, input.MaxLongText); err != nil {
			return err
		}
	}
	if in.Images != nil && len(*in.Images) > MaxImages {
		return input.NotificationInvalid("data.product.images", fmt.Sprintf("has more than %d images", MaxImages))
	}
	if in.Options != nil && len(*in.Options) > MaxOptions {
		return input.NotificationInvalid("data.product.options", fmt.Sprintf("has more than %d options", MaxOptions))
	}
	if in.Categories != nil {
		if len(*in.Categories) > MaxCategories {
			return input.NotificationInvalid("data.product.categories", fmt.Sprintf("has more than %d categories", MaxCategories))
		}
		for i, c := range *in.Categories {
			if err := input.NotificationID(fmt.Sprintf("data.product.categories[%d].platform_id", i), c.PlatformID); err != nil {
				return err
			}
		}
	}
	if in.Variants == nil {
		return nil
	}
	if len(*in.Variants) > MaxVariants {
		return input.NotificationInvalid("data.product.variants", fmt.Sprintf("has more than %d variants", MaxVariants))
	}
	seen := map[string]bool{}
	for i, v := range *in.Variants {
		f := fmt.Sprintf("data.product.variants[%d].", i)
		if err := input.NotificationID(f+"platform_id", v.PlatformID); err != nil {
			return err
		}
		if seen[v.PlatformID] {
			return input.NotificationInvalid(f+"platform_id", "is given twice")
		}
		seen[v.PlatformID] = true
		for name, s := range map[string]*string{"name": v.Name, "sku": v.SKU, "tax_code": v.TaxCode, "weight_unit": v.WeightUnit} {
			if err := input.NotificationText(f+name, s, input.MaxShortText); err != nil {
				return err
			}
		}
		if err := input.NotificationText(f+"image_url", v.ImageURL, input.MaxURLText); err != nil {
			return err
		}
		for name, s := range map[string]*string{"price": v.Price, "compare_at_price": v.CompareAtPrice} {
			if s != nil && *s != "" {
				if _, err := minor(f+name, *s, code); err != nil {
					return err
				}
			}
		}
		if v.Grams != nil && (*v.Grams < 0 || *v.Grams > input.MaxWeight) {
			return input.NotificationInvalid(f+"grams", fmt.Sprintf("must be from 0 to %d", input.MaxWeight))
		}
		if v.InventoryQuantity != nil && (*v.InventoryQuantity < -input.MaxInventory || *v.InventoryQuantity > input.MaxInventory) {
			return input.NotificationInvalid(f+"inventory_quantity", fmt.Sprintf("must be from %d to %d", -input.MaxInventory, input.MaxInventory))
		}
	}
	return nil
}

func (in ConnectorCategory) check(prefix string) error {
	if err := input.NotificationID(prefix+"platform_id", in.PlatformID); err != nil {
		return err
	}
	if _, err := input.NotificationTime(prefix+"platform_updated_at", in.PlatformUpdatedAt); err != nil {
		return err
	}
	if err := input.NotificationText(prefix+"name", in.Name, input.MaxShortText); err != nil {
		return err
	}
	if err := input.NotificationText(prefix+"image_url", in.ImageURL, input.MaxURLText); err != nil {
		return err
	}
	return nil
}

func checkDeleted(prefix string, in DeletedInput) error {
	if err := input.NotificationID(prefix+"platform_id", in.PlatformID); err != nil {
		return err
	}
	_, err := input.NotificationTime(prefix+"platform_deleted_at", in.PlatformDeletedAt)
	return err
}

// notificationArgs is the queue job that applies one catalog notification.
type notificationArgs struct {
	ShopID          int                `json:"shop_id"`
	Currency        string             `json:"currency"`
	ProductSaved    *ConnectorProduct  `json:"product_saved,omitempty"`
	ProductDeleted  *DeletedInput      `json:"product_deleted,omitempty"`
	CategorySaved   *ConnectorCategory `json:"category_saved,omitempty"`
	CategoryDeleted *DeletedInput      `json:"category_deleted,omitempty"`
}

func (notificationArgs) Kind() string { return "catalog_notification" }

func (notificationArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: platform.QueuePlatform}
}

type notificationWorker struct {
	river.WorkerDefaults[notificationArgs]
	s *Service
}

func (w *notificationWorker) Work(ctx context.Context, job *river.Job[notificationArgs]) error {
	a := job.Args
	switch {
	case a.ProductSaved != nil:
		return w.s.applyProductSaved(ctx, a.ShopID, a.Currency, *a.ProductSaved)
	case a.ProductDeleted != nil:
		return w.s.applyDeleted(ctx, a.ShopID, catalogtombstone.KindProduct, *a.ProductDeleted)
	case a.CategorySaved != nil:
		return w.s.applyCategorySaved(ctx, a.ShopID, *a.CategorySaved)
	case a.CategoryDeleted != nil:
		return w.s.applyDeleted(ctx, a.ShopID, catalogtombstone.KindCategory, *a.CategoryDeleted)
	}
	return nil
}

func (s *Service) queue(ctx context.Context, args notificationArgs) error {
	return s.p.Jobs.Insert(ctx, []river.InsertManyParams{{Args: args}})
}

// ProductSaved checks a Product Saved notification and queues it.
func (s *Service) ProductSaved(ctx context.Context, sh *ent.Shop, in ConnectorProduct) error {
	if err := in.check(sh.Currency); err != nil {
		return err
	}
	return s.queue(ctx, notificationArgs{ShopID: sh.ID, Currency: sh.Currency, ProductSaved: &in})
}

// ProductDeleted checks a Product Deleted notification and queues it.
func (s *Service) ProductDeleted(ctx context.Context, sh *ent.Shop, in DeletedInput) error {
	if err := checkDeleted("data.product.", in); err != nil {
		return err
	}
	return s.queue(ctx, notificationArgs{ShopID: sh.ID, ProductDeleted: &in})
}

// CategorySaved checks a Product Category Saved notification and queues it.
func (s *Service) CategorySaved(ctx context.Context, sh *ent.Shop, in ConnectorCategory) error {
	if err := in.check("data.category."); err != nil {
		return err
	}
	return s.queue(ctx, notificationArgs{ShopID: sh.ID, CategorySaved: &in})
}

// CategoryDeleted checks a Product Category Deleted notification and queues it.
func (s *Service) CategoryDeleted(ctx context.Context, sh *ent.Shop, in DeletedInput) error {
	if err := checkDeleted("data.category.", in); err != nil {
		return err
	}
	return s.queue(ctx, notificationArgs{ShopID: sh.ID, CategoryDeleted: &in})
}

// deletedSince reports whether the platform deleted the object at or after t.
func deletedSince(ctx context.Context, tx *ent.Tx, shopID int, kind catalogtombstone.Kind, platformID string, t time.Time) (bool, error) {
	ts, err := tx.CatalogTombstone.Query().Where(catalogtombstone.ShopID(shopID), catalogtombstone.KindEQ(kind),
		catalogtombstone.PlatformID(platformID)).Only(ctx)
	if ent.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return !t.After(ts.DeletedAt), nil
}

func platformData(in ConnectorProduct, old map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range old {
		out[k] = v
	}
	set := func(k string, v any, given bool) {
		if given {
			out[k] = v
		}
	}
	set("handle", in.Handle, in.Handle != nil)
	set("type", in.Type, in.Type != nil)
	set("url", in.URL, in.URL != nil)
	set("tax_code", in.TaxCode, in.TaxCode != nil)
	set("published", in.Published, in.Published != nil)
	set("inventory_quantity", in.InventoryQuantity, in.InventoryQuantity != nil)
	set("inventory_tracking_entity", in.InventoryTrackingEntity, in.InventoryTrackingEntity != nil)
	set("inventory_tracking_service", in.InventoryTrackingService, in.InventoryTrackingService != nil)
	set("localized_names", in.LocalizedNames, in.LocalizedNames != nil)
	set("localized_descriptions", in.LocalizedDescriptions, in.LocalizedDescriptions != nil)
	set("images", in.Images, in.Images != nil)
	set("options", in.Options, in.Options != nil)
	return out
}

// applyProductSaved applies a Product Saved unless the copy is as new or newer, or the product
// was deleted later.
func (s *Service) applyProductSaved(ctx context.Context, shopID int, code string, in ConnectorProduct) error {
	updated, err := time.Parse(time.RFC3339Nano, in.PlatformUpdatedAt)
	if err != nil {
		return nil // checked when queued
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error { return applyProductSavedTx(ctx, tx, shopID, code, in, updated) })
}

// ImportProducts applies one page of a sync in tx, each product as a Product Saved would be,
// and reports how many rows it could not take (not valid connector products).
func (s *Service) ImportProducts(ctx context.Context, tx *ent.Tx, sh *ent.Shop, rows []ConnectorProduct) (invalid int, err error) {
	for _, in := range rows {
		if in.check(sh.Currency) != nil {
			invalid++
			continue
		}
		updated, _ := time.Parse(time.RFC3339Nano, in.PlatformUpdatedAt)
		if err := applyProductSavedTx(ctx, tx, sh.ID, sh.Currency, in, updated); err != nil {
			return 0, err
		}
	}
	return invalid, nil
}

func applyProductSavedTx(ctx context.Context, tx *ent.Tx, shopID int, code string, in ConnectorProduct, updated time.Time) error {
	if gone, err := deletedSince(ctx, tx, shopID, catalogtombstone.KindProduct, in.PlatformID, updated); err != nil || gone {
		return err
	}
	p, err := tx.Product.Query().Where(product.ShopID(shopID), product.PlatformID(in.PlatformID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return err
	}
	var categories []string
	if in.Categories != nil {
		categories = []string{}
		for _, c := range *in.Categories {
			categories = append(categories, c.PlatformID)
		}
	}
	if p == nil {
		title := in.PlatformID
		if in.Name != nil && *in.Name != "" {
			title = *in.Name
		}
		create := tx.Product.Create().SetShopID(shopID).SetPlatformID(in.PlatformID).SetTitle(title).
			SetNillableDescription(in.Description).SetNillableVendor(in.Vendor).SetNillableTags(in.Tags).
			SetPlatformUpdatedAt(updated).SetPlatformData(platformData(in, nil))
		if categories != nil {
			create.SetCategoryIds(categories)
		}
		if p, err = create.Save(ctx); err != nil {
			return err
		}
	} else {
		if p.PlatformUpdatedAt != nil && !updated.After(*p.PlatformUpdatedAt) {
			return nil // as old as the copy
		}
		update := tx.Product.UpdateOne(p).SetNillableDescription(in.Description).SetNillableVendor(in.Vendor).
			SetNillableTags(in.Tags).SetPlatformUpdatedAt(updated).SetPlatformData(platformData(in, p.PlatformData))
		if in.Name != nil && *in.Name != "" {
			update.SetTitle(*in.Name)
		}
		if categories != nil {
			update.SetCategoryIds(categories)
		}
		if err := update.Exec(ctx); err != nil {
			return err
		}
	}
	if in.Variants == nil {
		return nil
	}
	return replaceVariants(ctx, tx, shopID, p.ID, code, *in.Variants)
}

// replaceVariants makes the product's variants those given: each updated with the fields it
// carries (or created), those it no longer has removed. A variant the platform moved from
// another product is moved.
func replaceVariants(ctx context.Context, tx *ent.Tx, shopID, productID int, code string, given []ConnectorVariant) error {
	ids := make([]string, len(given))
	for i, v := range given {
		ids[i] = v.PlatformID
	}
	existing, err := tx.Variant.Query().Where(variant.ShopID(shopID), variant.Or(variant.ProductID(productID), variant.PlatformIDIn(ids...))).All(ctx)
	if err != nil {
		return err
	}
	mine := map[string]*ent.Variant{}
	keep := map[string]bool{}
	for _, v := range given {
		keep[v.PlatformID] = true
	}
	var gone []int
	for _, v := range existing {
		switch {
		case v.ProductID != productID:
			gone = append(gone, v.ID) // moved here from another product
		case !keep[v.PlatformID]:
			gone = append(gone, v.ID)
		default:
			mine[v.PlatformID] = v
		}
	}
	if len(gone) > 0 {
		if _, err := tx.Variant.Delete().Where(variant.IDIn(gone...)).Exec(ctx); err != nil {
			return err
		}
	}
	for _, v := range given {
		// An amount sent empty is one the platform does not set.
		var price, compareAt *int64
		if v.Price != nil && *v.Price != "" {
			n, _ := minor("", *v.Price, code)
			price = &n
		}
		if v.CompareAtPrice != nil && *v.CompareAtPrice != "" {
			n, _ := minor("", *v.CompareAtPrice, code)
			compareAt = &n
		}
		var taxable *bool
		if v.TaxExempt != nil {
			t := !*v.TaxExempt
			taxable = &t
		}
		var tracked *bool
		if v.InventoryTrackingService != nil {
			t := *v.InventoryTrackingService != "" && *v.InventoryTrackingService != "none"
			tracked = &t
		}
		if old, ok := mine[v.PlatformID]; ok {
			update := tx.Variant.UpdateOne(old).SetNillableSku(v.SKU).SetNillableTitle(v.Name).SetNillablePrice(price).
				SetNillableCompareAtPrice(compareAt).SetNillableRequiresShipping(v.RequireShipping).SetNillableTaxable(taxable).
				SetNillableInventoryTracked(tracked).SetNillableInventoryQuantity(v.InventoryQuantity).SetNillableImageURL(v.ImageURL)
			if v.Grams != nil {
				update.SetWeight(*v.Grams).SetWeightUnit("g")
			}
			if err := update.Exec(ctx); err != nil {
				return err
			}
			continue
		}
		var zero int64
		if price == nil {
			price = &zero
		}
		create := tx.Variant.Create().SetShopID(shopID).SetProductID(productID).SetPlatformID(v.PlatformID).SetNillableSku(v.SKU).
			SetNillableTitle(v.Name).SetPrice(*price).SetNillableCompareAtPrice(compareAt).SetNillableRequiresShipping(v.RequireShipping).
			SetNillableTaxable(taxable).SetNillableInventoryTracked(tracked).SetNillableInventoryQuantity(v.InventoryQuantity).
			SetNillableImageURL(v.ImageURL)
		if v.Grams != nil {
			create.SetWeight(*v.Grams).SetWeightUnit("g")
		}
		if err := create.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// applyCategorySaved applies a Product Category Saved unless the copy is as new or newer, or
// the category was deleted later.
func (s *Service) applyCategorySaved(ctx context.Context, shopID int, in ConnectorCategory) error {
	updated, err := time.Parse(time.RFC3339Nano, in.PlatformUpdatedAt)
	if err != nil {
		return nil
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		if gone, err := deletedSince(ctx, tx, shopID, catalogtombstone.KindCategory, in.PlatformID, updated); err != nil || gone {
			return err
		}
		c, err := tx.Category.Query().Where(category.ShopID(shopID), category.PlatformID(in.PlatformID)).Only(ctx)
		if ent.IsNotFound(err) {
			return tx.Category.Create().SetShopID(shopID).SetPlatformID(in.PlatformID).SetNillableName(in.Name).
				SetNillableImageURL(in.ImageURL).SetPlatformUpdatedAt(updated).Exec(ctx)
		}
		if err != nil || !updated.After(c.PlatformUpdatedAt) {
			return err
		}
		return tx.Category.UpdateOne(c).SetNillableName(in.Name).SetNillableImageURL(in.ImageURL).SetPlatformUpdatedAt(updated).Exec(ctx)
	})
}

// applyDeleted removes a product (with its variants) or a category unless a save newer than
// the delete came first, and keeps a tombstone with the delete's time.
func (s *Service) applyDeleted(ctx context.Context, shopID int, kind catalogtombstone.Kind, in DeletedInput) error {
	deleted, err := time.Parse(time.RFC3339Nano, in.PlatformDeletedAt)
	if err != nil {
		return nil
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		ts, err := tx.CatalogTombstone.Query().Where(catalogtombstone.ShopID(shopID), catalogtombstone.KindEQ(kind),
			catalogtombstone.PlatformID(in.PlatformID)).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return err
		}
		if ts != nil && !deleted.After(ts.DeletedAt) {
			return nil // this delete, or a later one, is applied
		}
		var newer bool
		if kind == catalogtombstone.KindProduct {
			p, err := tx.Product.Query().Where(product.ShopID(shopID), product.PlatformID(in.PlatformID)).Only(ctx)
			if err != nil && !ent.IsNotFound(err) {
				return err
			}
			if p != nil && p.PlatformUpdatedAt != nil && p.PlatformUpdatedAt.After(deleted) {
				newer = true
			} else if p != nil {
				if err := tx.Product.DeleteOne(p).Exec(ctx); err != nil {
					return err
				}
			}
		} else {
			c, err := tx.Category.Query().Where(category.ShopID(shopID), category.PlatformID(in.PlatformID)).Only(ctx)
			if err != nil && !ent.IsNotFound(err) {
				return err
			}
			if c != nil && c.PlatformUpdatedAt.After(deleted) {
				newer = true
			} else if c != nil {
				if err := tx.Category.DeleteOne(c).Exec(ctx); err != nil {
					return err
				}
			}
		}
		if newer {
			return nil // the platform made it again after this delete
		}
		if ts != nil {
			return tx.CatalogTombstone.UpdateOne(ts).SetDeletedAt(deleted).Exec(ctx)
		}
		return tx.CatalogTombstone.Create().SetShopID(shopID).SetKind(kind).SetPlatformID(in.PlatformID).SetDeletedAt(deleted).Exec(ctx)
	})
}
