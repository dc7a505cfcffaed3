package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// IdempotencyKey remembers one money-moving call by the key its caller gave, so that a repeat
// replays the first outcome instead of moving money again (Stripe's semantics).
type IdempotencyKey struct{ ent.Schema }

func (IdempotencyKey) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable(),
		field.String("key").Immutable().NotEmpty().MaxLen(255),
		// request_hash is the SHA-256 of the operation and its body: the same key with another
		// request is refused.
		field.String("request_hash").Immutable(),
		field.Enum("status").Values("running", "done").Default("running"),
		// A done key keeps its call's final outcome, which the front door renders as it renders a
		// fresh one: result is the JSON of the call's result, problem the JSON of its refusal (kind,
		// code, type, message, details). Text, not jsonb, so that a replay keeps the key order.
		field.Text("result").Optional().Nillable(),
		field.Text("problem").Optional().Nillable(),
		field.Time("created_at").Immutable(),
		field.Time("expires_at"),
		// owner is the process lease of the process running the call (PostgreSQL): once it
		// lapses, a repeat takes the key over without waiting. Empty: no lease (SQLite).
		field.String("owner").Default(""),
	}
}

func (IdempotencyKey) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("idempotency_keys").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (IdempotencyKey) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "key").Unique(), index.Fields("expires_at")}
}

func (IdempotencyKey) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}
