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

// ConnectorCall is one call checkoutd makes to a platform's connector server (create order,
// create customer, ...): written with the change that causes it and with the queue job that
// sends it, retried until the platform answers, and logged with every attempt, like a webhook
// delivery.
type ConnectorCall struct{ ent.Schema }

func (ConnectorCall) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (ConnectorCall) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.Int("destination_id").Immutable().Annotations(entgql.Skip()),
		// order_id is the order the call is about (create order), when there is one.
		field.Int("order_id").Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		field.Enum("topic").Values("customers", "products", "orders").Immutable(),
		// operation is the connector operation, in the spec's words: create_order, ...
		field.String("operation").Immutable().Annotations(entgql.OrderField("OPERATION")),
		field.String("method").Immutable(),
		// path follows {destination}/{version}/shops/{shop}: /orders, /customers/{platform_id}...
		field.String("path").Immutable(),
		// idempotency_key goes with every attempt, so that a retry creates nothing twice.
		field.String("idempotency_key").Immutable(),
		// request_body is the JSON sent, the same bytes on every attempt.
		field.Text("request_body").Immutable(),
		field.Enum("status").Values("pending", "succeeded", "failed").Default("pending").
			Annotations(entgql.OrderField("STATUS")),
		field.Int("attempt_count").Default(0),
		// round_attempts counts the attempts of the current round (the first one, or a replay).
		field.Int("round_attempts").Default(0).Annotations(entgql.Skip()),
		field.Time("next_attempt_at").Optional().Nillable(),
		field.Int("last_status_code").Optional().Nillable(),
		field.String("last_error").Optional().Nillable(),
		// response_body is the beginning of the last answer.
		field.Text("response_body").Default(""),
		field.Time("succeeded_at").Optional().Nillable(),
		field.Time("failed_at").Optional().Nillable(),
	}
}

func (ConnectorCall) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("connector_calls").Field("shop_id").Unique().Required().Immutable(),
		edge.To("attempts", ConnectorAttempt.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (ConnectorCall) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "created_at"), index.Fields("order_id"), index.Fields("status")}
}

func (ConnectorCall) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// ConnectorAttempt is one attempt of a connector call: what the platform answered, or why not.
type ConnectorAttempt struct{ ent.Schema }

func (ConnectorAttempt) Fields() []ent.Field {
	return []ent.Field{
		field.Int("call_id").Immutable().Annotations(entgql.Skip()),
		field.Time("attempted_at").Immutable(),
		field.Int("status_code").Optional().Nillable().Immutable(),
		field.Int("latency_ms").Immutable(),
		field.Text("response_body").Default("").Immutable(),
		field.String("error").Optional().Nillable().Immutable(),
		field.Bool("replay").Default(false).Immutable(),
	}
}

func (ConnectorAttempt) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("call", ConnectorCall.Type).Ref("attempts").Field("call_id").Unique().Required().Immutable(),
	}
}

func (ConnectorAttempt) Indexes() []ent.Index {
	return []ent.Index{index.Fields("call_id")}
}

// PlatformSync is one import of every resource of a topic from the platform: a job pages
// through the platform's list operation, one page per job, keeping the cursor of the next page
// here, so a sync interrupted by a crash goes on from its last page. One runs per shop and topic.
type PlatformSync struct{ ent.Schema }

func (PlatformSync) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (PlatformSync) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.Enum("topic").Values("customers", "products", "orders").Immutable(),
		field.Enum("status").Values("running", "succeeded", "failed").Default("running"),
		// running is true while the sync runs and null once it finished: with the unique index
		// on it, one sync per shop and topic runs at a time (null values never collide).
		field.Bool("running").Optional().Nillable().Annotations(entgql.Skip()),
		// cursor is the platform's cursor of the next page to import ("" for the first).
		field.String("cursor").Default("").Annotations(entgql.Skip()),
		field.Int("pages").Default(0),
		field.Int("rows").Default(0),
		// errors counts rows the platform sent that could not be imported.
		field.Int("errors").Default(0),
		field.String("last_error").Optional().Nillable(),
		field.Time("finished_at").Optional().Nillable(),
	}
}

func (PlatformSync) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("platform_syncs").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (PlatformSync) Indexes() []ent.Index {
	return []ent.Index{
		// One running sync per topic, whichever process triggers it.
		index.Fields("shop_id", "topic", "running").Unique(),
		index.Fields("shop_id", "created_at"),
	}
}

func (PlatformSync) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
