package schema

import (
	"time"

	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/mixin"
)

// TimestampsMixin gives a row its created_at and updated_at, both orderable in GraphQL.
type TimestampsMixin struct{ mixin.Schema }

func (TimestampsMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Default(time.Now).Immutable().
			Annotations(entgql.OrderField("CREATED_AT")),
		field.Time("updated_at").Default(time.Now).UpdateDefault(time.Now).
			Annotations(entgql.OrderField("UPDATED_AT")),
	}
}
