package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
)

// RSAOrderLease is held by the request that is talking to an order's remote state authority:
// one call at a time per order, across processes, without a transaction open during the call.
// The row exists while it is held; one past expires_at was left by a request that died and may
// be taken over.
type RSAOrderLease struct{ ent.Schema }

func (RSAOrderLease) Fields() []ent.Field {
	return []ent.Field{
		field.Int("order_id").Unique().Immutable(),
		field.String("holder").NotEmpty(),
		field.Time("expires_at"),
	}
}

func (RSAOrderLease) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}
