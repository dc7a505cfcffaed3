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

// Event is something that happened to a shop's order or gift card, written in the same
// transaction as the change that caused it (the outbox that webhooks deliver from).
type Event struct{ ent.Schema }

func (Event) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.Int("order_id").Optional().Nillable().Immutable().Annotations(entgql.Skip()),
		// event_id is the stable id receivers deduplicate on.
		field.String("event_id").Unique().Immutable().NotEmpty(),
		field.String("topic").Immutable().Annotations(entgql.OrderField("TOPIC")),
		field.JSON("payload", map[string]any{}).Immutable().Annotations(entgql.Skip()),
		field.Time("created_at").Immutable().Annotations(entgql.OrderField("CREATED_AT")),
	}
}

func (Event) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("events").Field("shop_id").Unique().Required().Immutable(),
		edge.From("order", Order.Type).Ref("events").Field("order_id").Unique().Immutable(),
		edge.To("deliveries", WebhookDelivery.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
	}
}

func (Event) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "created_at"), index.Fields("order_id")}
}

func (Event) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
