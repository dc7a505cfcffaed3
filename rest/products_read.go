package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/problem"
)

// registerProductReads serves the products' read interfaces (API.md "Read interfaces"), with
// the shop's access token.
func (a *API) registerProductReads(mux router) {
	const base = "/products/v2/shops/{shop}"
	mux.Handle("GET "+base+"/products", a.withShop(a.listProducts))
	mux.Handle("GET "+base+"/products/pid/{platform_id}", a.withShop(a.getProductByPlatformID))
	mux.Handle("GET "+base+"/products/{id}", a.withShop(a.getProduct))
	mux.Handle("GET "+base+"/categories", a.withShop(a.listCategories))
	mux.Handle("GET "+base+"/variants", a.withShop(a.listVariants))
}

// platformIDJSON is the spec's platform id of a product: the id as text, and as a number when
// it is one (null otherwise).
type platformIDJSON struct {
	StringValue string `json:"string_value"`
	Int64Value  *int64 `json:"int64_value"`
}

func platformIDBody(id string) platformIDJSON {
	out := platformIDJSON{StringValue: id}
	if n, err := strconv.ParseInt(id, 10, 64); err == nil {
		out.Int64Value = &n
	}
	return out
}

// productJSON is the spec's service product.
type productJSON struct {
	ID                       int            `json:"id"`
	ShopIdentifier           string         `json:"shop_identifier"`
	PlatformID               platformIDJSON `json:"platform_id"`
	Name                     string         `json:"name"`
	Handle                   string         `json:"handle"`
	Description              string         `json:"description"`
	Type                     string         `json:"type"`
	Vendor                   string         `json:"vendor"`
	InventoryQuantity        int            `json:"inventory_quantity"`
	InventoryTrackingService string         `json:"inventory_tracking_service"`
	InventoryTrackingEntity  string         `json:"inventory_tracking_entity"`
	Tags                     string         `json:"tags"`
	CreatedAt                time.Time      `json:"created_at"`
	UpdatedAt                time.Time      `json:"updated_at"`
	Published                bool           `json:"published"`
	URL                      string         `json:"url"`
	TaxCode                  string         `json:"tax_code"`
	LocalizedNames           map[string]any `json:"localized_names"`
	LocalizedDescriptions    map[string]any `json:"localized_descriptions"`
}

// variantJSON is the spec's variant of a service product; what checkoutd does not keep of the
// connector variant (option values, cost, backorders, the image's id) is empty or null.
type variantJSON struct {
	ID                int              `json:"id"`
	ProductID         int              `json:"product_id"`
	PlatformID        string           `json:"platform_id"`
	Name              string           `json:"name"`
	SKU               string           `json:"sku"`
	OptionValues      []map[string]any `json:"option_values"`
	Price             string           `json:"price"`
	Cost              *string          `json:"cost"`
	CompareAtPrice    string           `json:"compare_at_price"`
	Weight            string           `json:"weight"`
	WeightUnit        string           `json:"weight_unit"`
	Grams             int              `json:"grams"`
	ImageID           *int             `json:"image_id"`
	ImageURL          string           `json:"image_url"`
	AllowBackorder    bool             `json:"allow_backorder"`
	RequireShipping   bool             `json:"require_shipping"`
	TaxExempt         bool             `json:"tax_exempt"`
	InventoryTracked  bool             `json:"inventory_tracked"`
	InventoryQuantity int              `json:"inventory_quantity"`
	CreatedAt         time.Time        `json:"created_at"`
	UpdatedAt         time.Time        `json:"updated_at"`
}

// categoryJSON is the spec's category of a service product.
type categoryJSON struct {
	ID             int       `json:"id"`
	ShopIdentifier string    `json:"shop_identifier"`
	PlatformID     string    `json:"platform_id"`
	Name           string    `json:"name"`
	ImageURL       string    `json:"image_url"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

// bundleJSON is a product bundle: the product alone, or (deep) with its images, variants,
// options and categories.
type bundleJSON struct {
	Product    productJSON       `json:"product"`
	Images     *[]map[string]any `json:"images,omitempty"`
	Variants   *[]variantJSON    `json:"variants,omitempty"`
	Options    *[]map[string]any `json:"options,omitempty"`
	Categories *[]categoryJSON   `json:"categories,omitempty"`
}

func dataText(data map[string]any, key string) string {
	s, _ := data[key].(string)
	return s
}

func dataObjects(data map[string]any, key string) []map[string]any {
	out := []map[string]any{}
	list, _ := data[key].([]any)
	for _, v := range list {
		if m, ok := v.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func productBody(sh *ent.Shop, p *ent.Product) productJSON {
	d := p.PlatformData
	out := productJSON{ID: p.ID, ShopIdentifier: sh.Identifier, PlatformID: platformIDBody(p.PlatformID), Name: p.Title,
		Handle: dataText(d, "handle"), Description: p.Description, Type: dataText(d, "type"), Vendor: p.Vendor,
		InventoryTrackingService: dataText(d, "inventory_tracking_service"), InventoryTrackingEntity: dataText(d, "inventory_tracking_entity"),
		Tags: p.Tags, CreatedAt: p.CreatedAt.UTC(), UpdatedAt: p.UpdatedAt.UTC(), URL: dataText(d, "url"), TaxCode: dataText(d, "tax_code"),
		LocalizedNames: map[string]any{}, LocalizedDescriptions: map[string]any{}}
	if n, ok := d["inventory_quantity"].(float64); ok {
		out.InventoryQuantity = int(n)
	}
	out.Published, _ = d["published"].(bool)
	if m, ok := d["localized_names"].(map[string]any); ok {
		out.LocalizedNames = m
	}
	if m, ok := d["localized_descriptions"].(map[string]any); ok {
		out.LocalizedDescriptions = m
	}
	return out
}

// minorDecimal is minor units as the currency writes them ("12.50").
func minorDecimal(minor int64, code string) string {
	a, err := currency.NewAmountFromInt64(minor, code)
	if err != nil {
		return strconv.FormatInt(minor, 10)
	}
	return a.Number()
}

func variantBody(sh *ent.Shop, v *ent.Variant) variantJSON {
	return variantJSON{ID: v.ID, ProductID: v.ProductID, PlatformID: v.PlatformID, Name: v.Title, SKU: v.Sku,
		OptionValues: []map[string]any{}, Price: minorDecimal(v.Price, sh.Currency), CompareAtPrice: minorDecimal(v.CompareAtPrice, sh.Currency),
		Weight: strconv.Itoa(v.Weight), WeightUnit: v.WeightUnit, Grams: grams(v), ImageURL: v.ImageURL,
		RequireShipping: v.RequiresShipping, TaxExempt: !v.Taxable, InventoryTracked: v.InventoryTracked,
		InventoryQuantity: v.InventoryQuantity, CreatedAt: v.CreatedAt.UTC(), UpdatedAt: v.UpdatedAt.UTC()}
}

// grams is the variant's weight in grams, rounded.
func grams(v *ent.Variant) int {
	switch v.WeightUnit {
	case "kg":
		return v.Weight * 1000
	case "lb":
		return int(float64(v.Weight)*453.59237 + 0.5)
	case "oz":
		return int(float64(v.Weight)*28.349523125 + 0.5)
	}
	return v.Weight
}

func categoryBody(sh *ent.Shop, c *ent.Category) categoryJSON {
	return categoryJSON{ID: c.ID, ShopIdentifier: sh.Identifier, PlatformID: c.PlatformID, Name: c.Name, ImageURL: c.ImageURL,
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
}

func bundleBody(sh *ent.Shop, b catalog.Bundle) bundleJSON {
	out := bundleJSON{Product: productBody(sh, b.Product)}
	if !b.Deep {
		return out
	}
	images, options := dataObjects(b.Product.PlatformData, "images"), dataObjects(b.Product.PlatformData, "options")
	for _, o := range options {
		// The spec's options carry their values as values; the connector's as option_values.
		if _, ok := o["values"]; !ok {
			if vs, ok := o["option_values"]; ok && vs != nil {
				o["values"] = vs
			} else {
				o["values"] = []any{}
			}
		}
	}
	variants := make([]variantJSON, len(b.Variants))
	for i, v := range b.Variants {
		variants[i] = variantBody(sh, v)
	}
	categories := make([]categoryJSON, len(b.Categories))
	for i, c := range b.Categories {
		categories[i] = categoryBody(sh, c)
	}
	out.Images, out.Options, out.Variants, out.Categories = &images, &options, &variants, &categories
	return out
}

func (a *API) listProducts(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	page, err := a.svc.Catalog.ListProducts(r.Context(), sh, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	data := make([]bundleJSON, len(page.Products))
	for i, b := range page.Products {
		data[i] = bundleBody(sh, b)
	}
	writeJSON(w, http.StatusOK, map[string]any{"pagination": paginationBody(r, page.Pagination), "data": data})
}

func (a *API) getProduct(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id <= 0 {
		writeError(w, r, problem.NotFoundError("product.not_found", "the shop has no product "+strconv.Quote(clipText(r.PathValue("id")))))
		return
	}
	b, err := a.svc.Catalog.GetProduct(r.Context(), sh, id, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": bundleBody(sh, *b)})
}

func (a *API) getProductByPlatformID(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	b, err := a.svc.Catalog.GetProductByPlatformID(r.Context(), sh, r.PathValue("platform_id"), r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": bundleBody(sh, *b)})
}

func (a *API) listVariants(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	page, err := a.svc.Catalog.ListVariants(r.Context(), sh, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	data := make([]variantJSON, len(page.Variants))
	for i, v := range page.Variants {
		data[i] = variantBody(sh, v)
	}
	writeJSON(w, http.StatusOK, map[string]any{"pagination": paginationBody(r, page.Pagination), "data": data})
}

func (a *API) listCategories(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	page, err := a.svc.Catalog.ListCategories(r.Context(), sh, r.URL.Query())
	if err != nil {
		writeError(w, r, err)
		return
	}
	data := make([]categoryJSON, len(page.Categories))
	for i, c := range page.Categories {
		data[i] = categoryBody(sh, c)
	}
	writeJSON(w, http.StatusOK, map[string]any{"pagination": paginationBody(r, page.Pagination), "data": data})
}
