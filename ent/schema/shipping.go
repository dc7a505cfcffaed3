package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// ShippingZone is a set of countries (empty: every country) that share shipping rates.
type ShippingZone struct{ ent.Schema }

func (ShippingZone) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (ShippingZone) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.String("name").NotEmpty(),
		field.Strings("country_codes").Optional(),
	}
}

func (ShippingZone) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("shipping_zones").Field("shop_id").Unique().Required().Immutable(),
		edge.To("rates", ShippingRate.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (ShippingZone) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// ShippingRate is one way to ship within a zone and how its price is found.
type ShippingRate struct{ ent.Schema }

func (ShippingRate) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (ShippingRate) Fields() []ent.Field {
	return []ent.Field{
		field.Int("zone_id").Immutable().Annotations(entgql.Skip()),
		field.String("name").NotEmpty(),
		field.String("code").NotEmpty(),
		// flat: always amount; by_subtotal / by_weight: amount when the order's subtotal or
		// weight (grams) is within [min, max] (max 0 = no upper bound).
		field.Enum("kind").Values("flat", "by_subtotal", "by_weight").Default("flat"),
		field.Int64("amount").Min(0),
		field.Int64("min").Default(0),
		field.Int64("max").Default(0),
		// free_above makes the rate free when the subtotal reaches it (0 = never).
		field.Int64("free_above").Default(0),
	}
}

func (ShippingRate) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("zone", ShippingZone.Type).Ref("rates").Field("zone_id").Unique().Required().Immutable(),
	}
}
