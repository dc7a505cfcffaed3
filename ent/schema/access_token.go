package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// AccessToken authenticates a shop's back office; only the SHA-256 of the token is kept.
type AccessToken struct{ ent.Schema }

func (AccessToken) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (AccessToken) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable(),
		field.String("token_hash").Unique().Immutable().Sensitive(),
	}
}

func (AccessToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("access_tokens").Field("shop_id").Unique().Required().Immutable(),
	}
}
