package catalog

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/category"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// The read interfaces of the catalog (the spec's "Read interfaces" and "Service product"):
// products (a list, by id, by platform id), categories and variants. A product the platform
// deleted is gone from the catalog (notifications.go), so include_deleted finds nothing more
// (docs/api.md "Products").

// ProductColumns are the columns a product list's filter may name (docs/filters.md "Products").
var ProductColumns = filter.Columns{
	"id":                  filter.Int(product.FieldID),
	"platform_id":         filter.Text(product.FieldPlatformID),
	"name":                filter.Text(product.FieldTitle),
	"description":         filter.Text(product.FieldDescription),
	"vendor":              filter.Text(product.FieldVendor),
	"tags":                filter.Text(product.FieldTags),
	"gift_card":           filter.Bool(product.FieldGiftCard),
	"platform_updated_at": filter.Time(product.FieldPlatformUpdatedAt),
	"created_at":          filter.Time(product.FieldCreatedAt),
	"updated_at":          filter.Time(product.FieldUpdatedAt),
}

// ProductOrders are the orders of a product list (ordercolumn), id the default.
var ProductOrders = []filter.Order{
	{Name: "id", Column: filter.Int(product.FieldID)},
	{Name: "name", Column: filter.Text(product.FieldTitle)},
	{Name: "created_at", Column: filter.Time(product.FieldCreatedAt)},
	{Name: "updated_at", Column: filter.Time(product.FieldUpdatedAt)},
}

// VariantColumns are the columns a variant list's filter may name.
var VariantColumns = filter.Columns{
	"id":                 filter.Int(variant.FieldID),
	"product_id":         filter.Int(variant.FieldProductID),
	"platform_id":        filter.Text(variant.FieldPlatformID),
	"sku":                filter.Text(variant.FieldSku),
	"name":               filter.Text(variant.FieldTitle),
	"price":              filter.Int(variant.FieldPrice),
	"compare_at_price":   filter.Int(variant.FieldCompareAtPrice),
	"inventory_quantity": filter.Int(variant.FieldInventoryQuantity),
	"require_shipping":   filter.Bool(variant.FieldRequiresShipping),
	"taxable":            filter.Bool(variant.FieldTaxable),
	"created_at":         filter.Time(variant.FieldCreatedAt),
	"updated_at":         filter.Time(variant.FieldUpdatedAt),
}

// VariantOrders are the orders of a variant list, id the default.
var VariantOrders = []filter.Order{
	{Name: "id", Column: filter.Int(variant.FieldID)},
	{Name: "sku", Column: filter.Text(variant.FieldSku)},
	{Name: "price", Column: filter.Int(variant.FieldPrice)},
	{Name: "created_at", Column: filter.Time(variant.FieldCreatedAt)},
	{Name: "updated_at", Column: filter.Time(variant.FieldUpdatedAt)},
}

// CategoryColumns are the columns a category list's filter may name.
var CategoryColumns = filter.Columns{
	"id":          filter.Int(category.FieldID),
	"platform_id": filter.Text(category.FieldPlatformID),
	"name":        filter.Text(category.FieldName),
	"created_at":  filter.Time(category.FieldCreatedAt),
	"updated_at":  filter.Time(category.FieldUpdatedAt),
}

// CategoryOrders are the orders of a category list, id the default.
var CategoryOrders = []filter.Order{
	{Name: "id", Column: filter.Int(category.FieldID)},
	{Name: "name", Column: filter.Text(category.FieldName)},
	{Name: "created_at", Column: filter.Time(category.FieldCreatedAt)},
	{Name: "updated_at", Column: filter.Time(category.FieldUpdatedAt)},
}

// Bundle is a product as the read interfaces give it: shallow, the product alone; deep, with
// its variants and categories (its options and images are in the product's platform data).
type Bundle struct {
	Product    *ent.Product
	Deep       bool
	Variants   []*ent.Variant
	Categories []*ent.Category
}

// ProductPage is one page of a product list.
type ProductPage struct {
	Products   []Bundle
	Pagination filter.Pagination
}

// VariantPage is one page of a variant list.
type VariantPage struct {
	Variants   []*ent.Variant
	Pagination filter.Pagination
}

// CategoryPage is one page of a category list.
type CategoryPage struct {
	Categories []*ent.Category
	Pagination filter.Pagination
}

func queryInvalid(field, message string) *problem.Error {
	return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "query.invalid", Message: message,
		Details: map[string]any{"field": field}}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// flag reads a true/false query parameter, false when absent.
func flag(q url.Values, name string) (bool, error) {
	switch v := strings.ToLower(q.Get(name)); v {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	default:
		return false, queryInvalid(name, name+" "+strconv.Quote(clip(v))+" is not true or false")
	}
}

// pageQuery reads the page of a product list, whose order parameter the spec names
// ordercolumn (filter.ParsePage's orderby).
func pageQuery(q url.Values, orders []filter.Order) (filter.PageQuery, error) {
	if _, ok := q["ordercolumn"]; ok {
		if _, both := q["orderby"]; both {
			return filter.PageQuery{}, queryInvalid("orderby", "ordercolumn and orderby are not given together")
		}
		q = cloneValues(q)
		q["orderby"] = q["ordercolumn"]
	}
	page, err := filter.ParsePage(q, orders)
	if pe, ok := err.(*problem.Error); ok && pe.Details["field"] == "orderby" && q.Get("ordercolumn") != "" {
		pe.Message = strings.Replace(pe.Message, "orderby", "ordercolumn", 1)
		pe.Details = map[string]any{"field": "ordercolumn"}
	}
	return page, err
}

func cloneValues(q url.Values) url.Values {
	out := make(url.Values, len(q))
	for k, v := range q {
		out[k] = v
	}
	return out
}

// countKey names a list's rows whatever page of them is read.
func countKey(kind string, sh *ent.Shop, q url.Values, params ...string) string {
	kept := url.Values{}
	for _, k := range params {
		if v, ok := q[k]; ok {
			kept[k] = v
		}
	}
	return kind + ":" + strconv.Itoa(sh.ID) + "?" + kept.Encode()
}

func updatedBetween[P ~func(*sql.Selector)](q url.Values, gte, lte func(time.Time) P) ([]P, error) {
	var preds []P
	for _, b := range []struct {
		name string
		pred func(time.Time) P
	}{{"updated_at_min", gte}, {"updated_at_max", lte}} {
		if v := q.Get(b.name); v != "" {
			t, err := time.Parse(time.RFC3339Nano, strings.Replace(v, " ", "+", 1))
			if err != nil {
				return nil, queryInvalid(b.name, b.name+" "+strconv.Quote(clip(v))+" is not an RFC 3339 time")
			}
			preds = append(preds, b.pred(t.UTC()))
		}
	}
	return preds, nil
}

// ListProducts is a page of the shop's products as the list's query parameters (the spec's
// List Products) ask: deep, limit, page, filter, categoryid, filtercolumn and filtervalue,
// ordercolumn and orderdirection, updated_at_min/max, include_deleted and es_optimize.
func (s *Service) ListProducts(ctx context.Context, sh *ent.Shop, q url.Values) (*ProductPage, error) {
	ctx = platform.PlanWithValues(ctx)
	page, err := pageQuery(q, ProductOrders)
	if err != nil {
		return nil, err
	}
	deep, err := readFlags(q)
	if err != nil {
		return nil, err
	}
	preds, err := s.productPredicates(ctx, sh, q)
	if err != nil {
		return nil, err
	}
	read := s.p.DB.Read
	key := countKey("products", sh, q, "filter", "categoryid", "filtercolumn", "filtervalue", "updated_at_min", "updated_at_max", "include_deleted")
	total, err := s.counts.Total(ctx, key, s.p.Clock(), func(ctx context.Context) (int, error) {
		return read.Product.Query().Where(preds...).Count(ctx)
	})
	if err != nil {
		return nil, err
	}
	rows, err := read.Product.Query().Where(preds...).Where(predicate.Product(page.Keyset())).
		Order(product.OrderOption(page.OrderBy())).Offset(page.Offset()).Limit(page.Fetch()).All(ctx)
	if err != nil {
		return nil, err
	}
	keys := make([]filter.Row, len(rows))
	for i, p := range rows {
		keys[i] = filter.Row{ID: p.ID, Value: productOrderValue(page.Order.Name, p)}
	}
	keep, pg := page.Paginate(keys, total)
	kept := make([]*ent.Product, len(keep))
	for i, k := range keep {
		kept[i] = rows[k]
	}
	bundles, err := s.bundles(ctx, sh, kept, deep)
	if err != nil {
		return nil, err
	}
	return &ProductPage{Products: bundles, Pagination: pg}, nil
}

// readFlags reads deep, and checks include_deleted and es_optimize (accepted, without effect:
// docs/api.md "Products").
func readFlags(q url.Values) (deep bool, err error) {
	for _, name := range []string{"include_deleted", "es_optimize"} {
		if _, err := flag(q, name); err != nil {
			return false, err
		}
	}
	return flag(q, "deep")
}

func productOrderValue(name string, p *ent.Product) any {
	switch name {
	case "name":
		return p.Title
	case "created_at":
		return p.CreatedAt
	case "updated_at":
		return p.UpdatedAt
	}
	return p.ID
}

// productPredicates are the conditions of a product list's rows: the shop's products and what
// filter, categoryid, filtercolumn with filtervalue and updated_at_min/max keep.
func (s *Service) productPredicates(ctx context.Context, sh *ent.Shop, q url.Values) ([]predicate.Product, error) {
	preds := []predicate.Product{product.ShopID(sh.ID)}
	between, err := updatedBetween(q, product.UpdatedAtGTE, product.UpdatedAtLTE)
	if err != nil {
		return nil, err
	}
	preds = append(preds, between...)
	if fs, ok := q["filter"]; ok {
		f, err := filter.Parse(fs, ProductColumns)
		if err != nil {
			return nil, err
		}
		preds = append(preds, predicate.Product(f.Predicate()))
	}
	if v := q.Get("categoryid"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 1 {
			return nil, queryInvalid("categoryid", "categoryid "+strconv.Quote(clip(v))+" is not a category id")
		}
		c, err := s.p.DB.Read.Category.Query().Where(category.ShopID(sh.ID), category.ID(int(id))).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			// No category of the shop's has that id: no product is in it.
			preds = append(preds, product.IDLT(0))
		case err != nil:
			return nil, err
		default:
			// category_ids holds the platform ids of the product's categories.
			preds = append(preds, func(s *sql.Selector) {
				s.Where(sqljson.ValueContains(product.FieldCategoryIds, c.PlatformID))
			})
		}
	}
	search, err := searchPredicate(q, sh.ID)
	if err != nil {
		return nil, err
	}
	if search != nil {
		preds = append(preds, search)
	}
	return preds, nil
}

// bundles are the products with, when deep, their variants and categories, read in one query
// each for the whole page.
func (s *Service) bundles(ctx context.Context, sh *ent.Shop, products []*ent.Product, deep bool) ([]Bundle, error) {
	out := make([]Bundle, len(products))
	for i, p := range products {
		out[i] = Bundle{Product: p, Deep: deep}
	}
	if !deep || len(products) == 0 {
		return out, nil
	}
	ids := make([]int, len(products))
	var platformIDs []string
	seen := map[string]bool{}
	for i, p := range products {
		ids[i] = p.ID
		for _, c := range p.CategoryIds {
			if !seen[c] {
				seen[c] = true
				platformIDs = append(platformIDs, c)
			}
		}
	}
	read := s.p.DB.Read
	vs, err := read.Variant.Query().Where(variant.ShopID(sh.ID), variant.ProductIDIn(ids...)).Order(ent.Asc(variant.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	byProduct := map[int][]*ent.Variant{}
	for _, v := range vs {
		byProduct[v.ProductID] = append(byProduct[v.ProductID], v)
	}
	byPlatformID := map[string]*ent.Category{}
	if len(platformIDs) > 0 {
		cs, err := read.Category.Query().Where(category.ShopID(sh.ID), category.PlatformIDIn(platformIDs...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			byPlatformID[c.PlatformID] = c
		}
	}
	for i, p := range products {
		out[i].Variants = append([]*ent.Variant{}, byProduct[p.ID]...)
		out[i].Categories = []*ent.Category{}
		// In the product's order of its categories; one the platform has not sent (or deleted)
		// is left out.
		for _, pid := range p.CategoryIds {
			if c, ok := byPlatformID[pid]; ok {
				out[i].Categories = append(out[i].Categories, c)
			}
		}
	}
	return out, nil
}

// GetProduct is the shop's product with that id, deep when q's deep asks.
func (s *Service) GetProduct(ctx context.Context, sh *ent.Shop, id int, q url.Values) (*Bundle, error) {
	return s.readProduct(ctx, sh, q, strconv.Itoa(id), product.ID(id))
}

// GetProductByPlatformID is the shop's product with that platform id, as GetProduct.
func (s *Service) GetProductByPlatformID(ctx context.Context, sh *ent.Shop, platformID string, q url.Values) (*Bundle, error) {
	return s.readProduct(ctx, sh, q, strconv.Quote(clip(platformID)), product.PlatformID(platformID))
}

func (s *Service) readProduct(ctx context.Context, sh *ent.Shop, q url.Values, what string, which predicate.Product) (*Bundle, error) {
	deep, err := readFlags(q)
	if err != nil {
		return nil, err
	}
	p, err := s.p.DB.Read.Product.Query().Where(product.ShopID(sh.ID), which).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, problem.NotFoundError("product.not_found", "the shop has no product "+what)
	}
	if err != nil {
		return nil, err
	}
	b, err := s.bundles(ctx, sh, []*ent.Product{p}, deep)
	if err != nil {
		return nil, err
	}
	return &b[0], nil
}

// ListVariants is a page of the shop's variants: filter (VariantColumns), updated_at_min/max,
// limit, page, ordercolumn and orderdirection.
func (s *Service) ListVariants(ctx context.Context, sh *ent.Shop, q url.Values) (*VariantPage, error) {
	page, err := pageQuery(q, VariantOrders)
	if err != nil {
		return nil, err
	}
	preds := []predicate.Variant{variant.ShopID(sh.ID)}
	between, err := updatedBetween(q, variant.UpdatedAtGTE, variant.UpdatedAtLTE)
	if err != nil {
		return nil, err
	}
	preds = append(preds, between...)
	if fs, ok := q["filter"]; ok {
		f, err := filter.Parse(fs, VariantColumns)
		if err != nil {
			return nil, err
		}
		preds = append(preds, predicate.Variant(f.Predicate()))
	}
	read := s.p.DB.Read
	total, err := s.counts.Total(ctx, countKey("variants", sh, q, "filter", "updated_at_min", "updated_at_max"), s.p.Clock(), func(ctx context.Context) (int, error) {
		return read.Variant.Query().Where(preds...).Count(ctx)
	})
	if err != nil {
		return nil, err
	}
	rows, err := read.Variant.Query().Where(preds...).Where(predicate.Variant(page.Keyset())).
		Order(variant.OrderOption(page.OrderBy())).Offset(page.Offset()).Limit(page.Fetch()).All(ctx)
	if err != nil {
		return nil, err
	}
	keys := make([]filter.Row, len(rows))
	for i, v := range rows {
		var value any = v.ID
		switch page.Order.Name {
		case "sku":
			value = v.Sku
		case "price":
			value = int(v.Price)
		case "created_at":
			value = v.CreatedAt
		case "updated_at":
			value = v.UpdatedAt
		}
		keys[i] = filter.Row{ID: v.ID, Value: value}
	}
	keep, pg := page.Paginate(keys, total)
	out := &VariantPage{Variants: make([]*ent.Variant, len(keep)), Pagination: pg}
	for i, k := range keep {
		out.Variants[i] = rows[k]
	}
	return out, nil
}

// ListCategories is a page of the shop's categories: filter (CategoryColumns),
// updated_at_min/max, limit, page, ordercolumn and orderdirection.
func (s *Service) ListCategories(ctx context.Context, sh *ent.Shop, q url.Values) (*CategoryPage, error) {
	page, err := pageQuery(q, CategoryOrders)
	if err != nil {
		return nil, err
	}
	preds := []predicate.Category{category.ShopID(sh.ID)}
	between, err := updatedBetween(q, category.UpdatedAtGTE, category.UpdatedAtLTE)
	if err != nil {
		return nil, err
	}
	preds = append(preds, between...)
	if fs, ok := q["filter"]; ok {
		f, err := filter.Parse(fs, CategoryColumns)
		if err != nil {
			return nil, err
		}
		preds = append(preds, predicate.Category(f.Predicate()))
	}
	read := s.p.DB.Read
	total, err := s.counts.Total(ctx, countKey("categories", sh, q, "filter", "updated_at_min", "updated_at_max"), s.p.Clock(), func(ctx context.Context) (int, error) {
		return read.Category.Query().Where(preds...).Count(ctx)
	})
	if err != nil {
		return nil, err
	}
	rows, err := read.Category.Query().Where(preds...).Where(predicate.Category(page.Keyset())).
		Order(category.OrderOption(page.OrderBy())).Offset(page.Offset()).Limit(page.Fetch()).All(ctx)
	if err != nil {
		return nil, err
	}
	keys := make([]filter.Row, len(rows))
	for i, c := range rows {
		var value any = c.ID
		switch page.Order.Name {
		case "name":
			value = c.Name
		case "created_at":
			value = c.CreatedAt
		case "updated_at":
			value = c.UpdatedAt
		}
		keys[i] = filter.Row{ID: c.ID, Value: value}
	}
	keep, pg := page.Paginate(keys, total)
	out := &CategoryPage{Categories: make([]*ent.Category, len(keep)), Pagination: pg}
	for i, k := range keep {
		out.Categories[i] = rows[k]
	}
	return out, nil
}

// ProductsQuery is the query of the shop's products that q's filter, categoryid, filtercolumn
// with filtervalue and updated_at_min/max keep, for GraphQL's products connection, which
// orders and pages it itself.
func (s *Service) ProductsQuery(ctx context.Context, sh *ent.Shop, q url.Values) (*ent.ProductQuery, error) {
	preds, err := s.productPredicates(ctx, sh, q)
	if err != nil {
		return nil, err
	}
	return s.p.DB.Read.Product.Query().Where(preds...), nil
}
