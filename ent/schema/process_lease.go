package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// ProcessLease is one running checkoutd process on a shared (PostgreSQL) database, renewed while
// it lives: what a process whose lease lapsed left running (an idempotency key) is taken over.
type ProcessLease struct{ ent.Schema }

func (ProcessLease) Fields() []ent.Field {
	return []ent.Field{
		field.String("process").Unique().Immutable().NotEmpty(),
		field.Time("renewed_at"),
	}
}

func (ProcessLease) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}
