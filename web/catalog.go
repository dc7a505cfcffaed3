package web

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/shippingrate"
	"github.com/checkoutd/checkoutd/service/catalog"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) catalogRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/products", c.admin(c.products))
	mux.Handle("POST /admin/products", c.admin(c.createProduct))
	mux.Handle("GET /admin/products/{id}/delete", c.admin(c.confirmDeleteProduct))
	mux.Handle("POST /admin/products/{id}/delete", c.admin(c.deleteProduct))
	mux.Handle("GET /admin/variants/{id}", c.admin(c.editVariant))
	mux.Handle("POST /admin/variants/{id}", c.admin(c.updateVariant))
	mux.Handle("GET /admin/shipping-zones", c.admin(c.shippingZones))
	mux.Handle("POST /admin/shipping-zones", c.admin(c.createShippingZone))
	mux.Handle("POST /admin/shipping-zones/address-requirements", c.admin(c.setAddressRequirements))
}

// productsPage lists the shop's products by name, a page at a time by keyset, through the REST
// product list's read (catalog.ListProducts): its search is filtercolumn=name's, which htmx
// asks as the search is typed. A search the list refuses says why in place of the list; the
// new product form below stays as it was (f).
func (c *Console) productsPage(q *request, status int, f form) error {
	query := url.Values{"limit": {strconv.Itoa(perPage)}, "deep": {"true"}, "ordercolumn": {"name"}}
	for _, k := range []string{"after", "before", "page"} {
		if v := q.r.URL.Query().Get(k); v != "" {
			query.Set(k, v)
		}
	}
	search := strings.TrimSpace(q.r.URL.Query().Get("search"))
	if search != "" {
		query.Set("filtercolumn", "name")
		query.Set("filtervalue", search)
	}
	page, err := c.svc.Catalog.ListProducts(q.ctx(), q.shop, query)
	if p, ok := problem.As(err); ok && p.Kind == problem.Malformed {
		return q.render(status, productsPage(search, &catalog.ProductPage{}, keysetLinks{}, searchRefusal(p), f))
	}
	if err != nil {
		return err
	}
	return q.render(status, productsPage(search, page, keysetLinksOf(q.r, page.Pagination), "", f))
}

// searchRefusal is the list's refusal in the console's words: its search field is "search".
func searchRefusal(p *problem.Error) string {
	if p.Details["field"] == "filtervalue" {
		return "search" + strings.TrimPrefix(p.Message, "filtervalue")
	}
	return p.Message
}

func (c *Console) products(q *request) error { return c.productsPage(q, http.StatusOK, newForm(nil)) }

// productFieldNames maps the service's names of the one variant the form creates to the form's.
var productFieldNames = map[string]string{"variants[0].platform_id": "variant_platform_id", "variants[0].price": "price",
	"variants[0]": "inventory_quantity", "variants": "variant_platform_id"}

func (c *Console) createProduct(q *request) error {
	d := newDecoder(q.r.PostForm)
	v := catalog.VariantInput{PlatformID: d.str("variant_platform_id"), SKU: d.str("sku"), Title: d.str("variant_title"),
		InventoryTracked: d.checkbox("inventory_tracked")}
	if p := d.money("price", q.shop.Currency); p != nil {
		v.Price = *p
	}
	if n := d.integer("inventory_quantity"); n != nil {
		v.InventoryQuantity = *n
	}
	shipping, taxable := d.checkbox("requires_shipping"), d.checkbox("taxable")
	v.RequiresShipping, v.Taxable = &shipping, &taxable
	if !d.ok() {
		return c.productsPage(q, http.StatusUnprocessableEntity, d.form())
	}
	p, err := c.svc.Catalog.CreateProduct(q.ctx(), q.shop, catalog.ProductInput{PlatformID: d.str("platform_id"), Title: d.str("title"),
		Description: d.str("description"), Vendor: d.str("vendor"), Tags: d.str("tags"), Variants: []catalog.VariantInput{v}})
	if err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.productsPage(q, http.StatusUnprocessableEntity, f.renamed(productFieldNames))
	}
	return q.redirect("/admin/products", "Product "+p.Title+" created.")
}

func (c *Console) product(q *request) (*ent.Product, error) {
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if err != nil {
		return nil, &problem.Error{Kind: problem.NotFound, Type: "product.not_found", Message: "no product with that id"}
	}
	return c.svc.Catalog.Product(q.ctx(), q.shop, id)
}

func (c *Console) confirmDeleteProduct(q *request) error {
	p, err := c.product(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete product", "Delete "+p.Title+" and its variants from the catalog? Orders keep their lines.",
		"/admin/products/"+strconv.Itoa(p.ID)+"/delete", "/admin/products", "Delete product", nil))
}

func (c *Console) deleteProduct(q *request) error {
	p, err := c.product(q)
	if err != nil {
		return err
	}
	if err := c.svc.Catalog.DeleteProduct(q.ctx(), q.shop, p.ID); err != nil {
		return err
	}
	return q.redirect("/admin/products", "Product "+p.Title+" deleted.")
}

func (c *Console) editVariant(q *request) error {
	v, err := c.variant(q)
	if err != nil {
		return err
	}
	f := newForm(url.Values{"sku": {v.Sku}, "variant_title": {v.Title}, "price": {majorUnits(v.Price, q.shop.Currency)},
		"compare_at_price": {majorUnits(v.CompareAtPrice, q.shop.Currency)}, "inventory_quantity": {strconv.Itoa(v.InventoryQuantity)}})
	if v.InventoryTracked {
		f.Values.Set("inventory_tracked", "1")
	}
	return q.render(http.StatusOK, variantPage(v, f))
}

func (c *Console) variant(q *request) (*ent.Variant, error) {
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if err != nil {
		return nil, &problem.Error{Kind: problem.NotFound, Type: "product.variant_not_found", Message: "no variant with that id"}
	}
	return c.svc.Catalog.Variant(q.ctx(), q.shop, id)
}

func (c *Console) updateVariant(q *request) error {
	v, err := c.variant(q)
	if err != nil {
		return err
	}
	d := newDecoder(q.r.PostForm)
	tracked := d.checkbox("inventory_tracked")
	sku, title := d.str("sku"), d.str("variant_title")
	patch := catalog.VariantPatch{Price: d.money("price", q.shop.Currency), CompareAtPrice: d.money("compare_at_price", q.shop.Currency),
		InventoryTracked: &tracked, InventoryQuantity: d.integer("inventory_quantity"), SKU: &sku, Title: &title}
	if !d.ok() {
		return q.render(http.StatusUnprocessableEntity, variantPage(v, d.form()))
	}
	if _, err := c.svc.Catalog.UpdateVariant(q.ctx(), q.shop, v.ID, patch); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		if len(f.Errors) == 0 {
			f.Errors["price"] = f.Message
		}
		return q.render(http.StatusUnprocessableEntity, variantPage(v, f))
	}
	return q.redirect("/admin/products", "Variant saved.")
}

func (c *Console) shippingZonesPage(q *request, status int, f form) error {
	page, err := c.svc.Admin.ShippingZones(q.ctx(), q.shop, pageRequest(q.r))
	if err != nil {
		return err
	}
	if f.Values == nil {
		f = newForm(url.Values{"rate_kind": {string(shippingrate.KindFlat)}})
	}
	return q.render(status, shippingZonesPage(page.Items, f, paginationOf(q.r, page)))
}

// setAddressRequirements saves whether orders' addresses need a business name and a phone number.
func (c *Console) setAddressRequirements(q *request) error {
	d := newDecoder(q.r.PostForm)
	business, phone := d.checkbox("require_business_name"), d.checkbox("require_phone_number")
	if _, err := c.svc.Shops.UpdateSettings(q.ctx(), q.shop, shops.SettingsInput{RequireBusinessName: &business, RequirePhoneNumber: &phone}); err != nil {
		return err
	}
	return q.redirect("/admin/shipping-zones", "Address requirements saved.")
}

func (c *Console) shippingZones(q *request) error {
	return c.shippingZonesPage(q, http.StatusOK, form{})
}

var shippingFieldNames = map[string]string{"rates[0]": "rate_name", "rates[0].kind": "rate_kind", "rates": "rate_name"}

func (c *Console) createShippingZone(q *request) error {
	d := newDecoder(q.r.PostForm)
	money := func(name string) int64 {
		if v := d.money(name, q.shop.Currency); v != nil {
			return *v
		}
		return 0
	}
	var countries []string
	for _, cc := range strings.Split(d.str("country_codes"), ",") {
		if cc = strings.TrimSpace(cc); cc != "" {
			countries = append(countries, cc)
		}
	}
	kind := shippingrate.Kind(d.str("rate_kind"))
	// A weight rate's bounds are grams; the other kinds' are money.
	bound := money
	if kind == shippingrate.KindByWeight {
		bound = func(name string) int64 {
			if v := d.int64(name); v != nil {
				return *v
			}
			return 0
		}
	}
	rate := shops.ShippingRateInput{Name: d.str("rate_name"), Code: d.str("rate_code"), Kind: kind,
		Amount: money("rate_amount"), Min: bound("rate_min"), Max: bound("rate_max"), FreeAbove: money("rate_free_above")}
	if !d.ok() {
		return c.shippingZonesPage(q, http.StatusUnprocessableEntity, d.form())
	}
	z, err := c.svc.Shops.CreateShippingZone(q.ctx(), q.shop, shops.ShippingZoneInput{Name: d.str("name"), CountryCodes: countries, Rates: []shops.ShippingRateInput{rate}})
	if err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.shippingZonesPage(q, http.StatusUnprocessableEntity, f.renamed(shippingFieldNames))
	}
	return q.redirect("/admin/shipping-zones", "Shipping zone "+z.Name+" created.")
}

func shippingKinds() []option {
	return []option{{string(shippingrate.KindFlat), "Flat"}, {string(shippingrate.KindBySubtotal), "By subtotal"}, {string(shippingrate.KindByWeight), "By weight (grams)"}}
}
