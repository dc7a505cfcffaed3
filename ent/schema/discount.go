package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// DiscountCode is a code a shopper enters for money off an order.
type DiscountCode struct{ ent.Schema }

func (DiscountCode) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (DiscountCode) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		// code is kept upper-case: shoppers type codes in any case.
		field.String("code").NotEmpty().Annotations(entgql.OrderField("CODE")),
		field.String("text").Default(""),
		field.Enum("kind").Values("percentage", "fixed_amount", "free_shipping"),
		// value: percentage in basis points (1000 is 10%), fixed_amount in minor units, unused for free_shipping.
		field.Int64("value").Default(0),
		field.Int64("minimum_subtotal").Default(0),
		// usage_limit 0: unlimited. usage_count counts processed orders that used the code.
		field.Int("usage_limit").Default(0),
		field.Int("usage_count").Default(0),
		field.Time("starts_at").Optional().Nillable(),
		field.Time("ends_at").Optional().Nillable(),
	}
}

func (DiscountCode) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("discount_codes").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (DiscountCode) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "code").Unique()}
}

func (DiscountCode) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
