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

// WebhookDelivery is one event on its way to one subscription. It is written in the
// transaction that records the event, together with the queue job that sends it, and it keeps
// the outcome: pending while attempts remain, then succeeded or failed.
type WebhookDelivery struct{ ent.Schema }

func (WebhookDelivery) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.Int("subscription_id").Immutable().Annotations(entgql.Skip()),
		field.Int("event_id").Immutable().Annotations(entgql.Skip()),
		// order_id is the event's order, copied here so that deliveries of one order to one
		// receiver can be kept in the order they happened.
		field.Int("order_id").Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		field.String("topic").Immutable().Annotations(entgql.OrderField("TOPIC")),
		field.Enum("status").Values("pending", "succeeded", "failed").Default("pending").
			Annotations(entgql.OrderField("STATUS")),
		// attempt_count counts every attempt, replays included.
		field.Int("attempt_count").Default(0),
		// round_attempts counts the attempts of the current round: the retry schedule of the
		// first delivery, or the single attempt of a replay. The next wait is derived from it.
		field.Int("round_attempts").Default(0).Annotations(entgql.Skip()),
		field.Time("next_attempt_at").Optional().Nillable(),
		field.Int("last_status_code").Optional().Nillable(),
		field.String("last_error").Optional().Nillable(),
		field.Time("delivered_at").Optional().Nillable(),
		field.Time("failed_at").Optional().Nillable(),
	}
}

func (WebhookDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("webhook_deliveries").Field("shop_id").Unique().Required().Immutable(),
		edge.From("subscription", WebhookSubscription.Type).Ref("deliveries").Field("subscription_id").Unique().Required().Immutable(),
		edge.From("event", Event.Type).Ref("deliveries").Field("event_id").Unique().Required().Immutable(),
		edge.To("attempts", WebhookAttempt.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("shop_id", "created_at"),
		index.Fields("order_id", "status"),
		index.Fields("event_id"),
		index.Fields("status"),
	}
}

func (WebhookDelivery) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// WebhookAttempt is one POST of a delivery to its callback URL and what came of it.
type WebhookAttempt struct{ ent.Schema }

func (WebhookAttempt) Fields() []ent.Field {
	return []ent.Field{
		field.Int("delivery_id").Immutable().Annotations(entgql.Skip()),
		field.Time("attempted_at").Immutable().Annotations(entgql.OrderField("ATTEMPTED_AT")),
		// status_code is absent when no answer came (a timeout, a refused connection).
		field.Int("status_code").Optional().Nillable().Immutable(),
		field.Int("latency_ms").Immutable(),
		// response_body is the start of the answer, at most 1 KiB.
		field.String("response_body").Default("").Immutable(),
		field.String("error").Optional().Nillable().Immutable(),
		// replay: the attempt was asked for by a replay, not by the retry schedule.
		field.Bool("replay").Default(false).Immutable(),
	}
}

func (WebhookAttempt) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("delivery", WebhookDelivery.Type).Ref("attempts").Field("delivery_id").Unique().Required().Immutable(),
	}
}

func (WebhookAttempt) Indexes() []ent.Index {
	return []ent.Index{index.Fields("delivery_id", "attempted_at")}
}
