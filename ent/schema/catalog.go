package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
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
	}
}

func (Product) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("products").Field("shop_id").Unique().Required().Immutable(),
		edge.To("variants", Variant.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
	}
}

func (Product) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "platform_id").Unique()}
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
