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

// Destination is where a shop's platform connector server lives for one topic: checkoutd calls
// it when a resource of that topic changes. Deleting one sets deleted_at (the spec's soft
// delete); a shop has at most one live destination per topic.
type Destination struct{ ent.Schema }

func (Destination) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Destination) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable(),
		field.Enum("topic").Values("customers", "products", "orders"),
		// destination is the connector server's base URL: calls go to
		// {destination}/{version}/shops/{shop}/...
		field.String("destination").MaxLen(2048),
		field.String("version").Default("v1"),
		field.Int("timeout_ms"),
		field.Time("deleted_at").Optional().Nillable(),
	}
}

func (Destination) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("destinations").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (Destination) Indexes() []ent.Index {
	return []ent.Index{
		// One live destination per topic: two creates racing cannot both land.
		index.Fields("shop_id", "topic").Unique().Annotations(entsql.IndexWhere("deleted_at IS NULL")),
	}
}

func (Destination) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}
