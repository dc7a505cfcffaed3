package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
)

// AdminSession is one admin signed in to a shop's console. It lives in the database so that every
// checkoutd process behind one address knows it and a restart signs nobody out. Only the SHA-256
// of the cookie's token is kept: reading the table signs nobody in.
type AdminSession struct{ ent.Schema }

func (AdminSession) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable(),
		field.String("token_hash").Unique().Immutable().Sensitive(),
		// csrf_token is shown in the session's pages and checked on its POSTs.
		field.String("csrf_token").Immutable().Sensitive(),
		field.Time("created_at").Immutable(),
		// last_seen_at is written at most once a minute, not on every page.
		field.Time("last_seen_at"),
		// flash is a one-time message shown by the next page (after a redirect).
		field.String("flash").Default(""),
	}
}

func (AdminSession) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("admin_sessions").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (AdminSession) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}
