package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Product is a catalog product; what a shopper buys is one of its variants.
type Product struct{ ent.Schema }

func (Product) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Product) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.String("platform_id").NotEmpty(),
		field.String("title").NotEmpty().Annotations(entgql.OrderField("TITLE")),
		field.String("description").Default(""),
		field.String("vendor").Default(""),
		field.String("tags").Default(""),
		field.String("image_url").Default(""),
		field.Bool("gift_card").Default(false),
		// platform_updated_at is the newest Product Saved applied (nil: made in checkoutd): an
		// older one arriving later is ignored.
		field.Time("platform_updated_at").Optional().Nillable(),
		// category_ids are the platform ids of the product's categories.
		field.Strings("category_ids").Optional(),
		// platform_data keeps what the connector product says beyond what checkout prices
		// from: handle, type, url, tax_code, published, options, images, localized names.
		field.JSON("platform_data", map[string]any{}).Optional().Annotations(entgql.Skip()),
	}
}

func (Product) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("products").Field("shop_id").Unique().Required().Immutable(),
		edge.To("variants", Variant.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
	}
}

func (Product) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("shop_id", "platform_id").Unique(),
		// product_search is the index of the product list's fuzzy name search on PostgreSQL:
		// pg_trgm's trigrams of the title (the extension has its own migration, before this
		// index). On SQLite ent declares it as a plain index; the search there uses the FTS5
		// table product_search_fts (service/catalog/search.go).
		index.Fields("title").StorageKey("product_search").Annotations(
			entsql.IndexTypes(map[string]string{dialect.Postgres: "GIN"}), entsql.OpClassColumn("title", "gin_trgm_ops")),
	}
}

func (Product) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// Variant is one purchasable version of a product, with its price and stock.
type Variant struct{ ent.Schema }

func (Variant) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Variant) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.Int("product_id").Immutable().Annotations(entgql.Skip()),
		field.String("platform_id").NotEmpty(),
		field.String("sku").Default(""),
		field.String("title").Default(""),
		field.Int64("price").Min(0).Annotations(entgql.OrderField("PRICE")),
		field.Int64("compare_at_price").Default(0),
		field.Int("weight").Default(0),
		field.String("weight_unit").Default("g"),
		field.Bool("requires_shipping").Default(true),
		field.Bool("taxable").Default(true),
		field.Bool("inventory_tracked").Default(false),
		field.Int("inventory_quantity").Default(0),
		field.String("image_url").Default(""),
	}
}

func (Variant) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("product", Product.Type).Ref("variants").Field("product_id").Unique().Required().Immutable(),
	}
}

func (Variant) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "platform_id").Unique(), index.Fields("shop_id", "sku")}
}

func (Variant) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// Category is a product category of the platform's (Product Category Saved).
type Category struct{ ent.Schema }

func (Category) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Category) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.String("platform_id").NotEmpty().MaxLen(255),
		field.String("name").Default("").MaxLen(255),
		field.String("image_url").Default("").MaxLen(2048),
		field.Time("platform_updated_at"),
	}
}

func (Category) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("categories").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (Category) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "platform_id").Unique()}
}

func (Category) Annotations() []schema.Annotation { return []schema.Annotation{entgql.Skip()} }

// CatalogTombstone remembers that the platform deleted a product or category, and when: the
// row itself is gone (checkout no longer sells a deleted product), and a save older than the
// delete, arriving after it, is ignored.
type CatalogTombstone struct{ ent.Schema }

func (CatalogTombstone) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable(),
		field.Enum("kind").Values("product", "category").Immutable(),
		field.String("platform_id").Immutable().MaxLen(255),
		field.Time("deleted_at"),
	}
}

func (CatalogTombstone) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "kind", "platform_id").Unique()}
}

func (CatalogTombstone) Annotations() []schema.Annotation { return []schema.Annotation{entgql.Skip()} }
