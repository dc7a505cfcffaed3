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

// Subscription is a customer's recurring order: its lines are placed as an order on each date
// its order_rrule gives, and charged with the stored payment method (service/subscription).
type Subscription struct{ ent.Schema }

func (Subscription) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Subscription) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		// customer_id is the stored customer (customers table) the subscription's customer is,
		// when the platform's id names one.
		field.Int("customer_id").Optional().Nillable(),
		field.String("customer_platform_id").Default("").MaxLen(255),
		field.String("customer_first_name").Default("").MaxLen(255),
		field.String("customer_last_name").Default("").MaxLen(255),
		field.String("customer_phone").Default("").MaxLen(64),
		field.String("customer_email").Default("").MaxLen(255),
		field.String("customer_notes").Default("").MaxLen(1000),
		field.String("external_id").Default("").MaxLen(255),
		// idempotency_key: a create repeated with it answers the subscription it made.
		field.String("idempotency_key").Optional().Nillable().Immutable().MaxLen(255),
		field.String("note").Default("").MaxLen(1000),
		field.String("order_note").Default("").MaxLen(1000),
		field.String("discount_code").Default("").MaxLen(255),
		field.Enum("subscription_status").Values("active", "inactive", "processing", "scheduled", "paused").Default("active"),
		field.Time("next_order_datetime").Optional().Nillable(),
		field.Time("next_payment_datetime").Optional().Nillable(),
		field.Time("next_processing_datetime").Optional().Nillable(),
		field.Time("status_changed_at").Optional().Nillable(),
		field.Time("last_payment_datetime").Optional().Nillable(),
		field.Time("last_order_datetime").Optional().Nillable(),
		field.Time("last_processed_datetime").Optional().Nillable(),
		field.Time("placed_at").Optional().Nillable(),
		// payment_method_token is the gateway's stored card: charged on every order placed.
		field.String("payment_method_token").Default("").MaxLen(255).Sensitive(),
		field.String("payment_gateway_public_id").Default("").MaxLen(255),
		field.JSON("payment_details", map[string]string{}).Optional(),
		field.String("payment_rrule").Default("").MaxLen(1000),
		field.String("order_rrule").MaxLen(1000),
		// order_rrule_start is the rule's first occurrence (its DTSTART): the dates it gives,
		// COUNT included, are counted from it.
		field.Time("order_rrule_start"),
		field.String("payment_rrule_text").Default("").MaxLen(2000),
		field.String("order_rrule_text").Default("").MaxLen(2000),
		field.Int("current_retries").Default(0),
		field.Int("orders_processed").Default(0),
		field.Int("order_count").Default(0),
		field.Int("percent_discount").Default(0),
		field.String("charged_currency").MaxLen(3),
		field.String("base_currency").MaxLen(3),
		field.Float("base_to_charged_exchange_rate").Default(1),
		field.JSON("shipping_lines", []map[string]any{}).Optional(),
		field.String("last_failure_code").Default("").MaxLen(255),
		field.String("last_failure_reason").Default("").MaxLen(1000),
		field.JSON("last_failure_details", map[string]any{}).Optional(),
		// retry_at is when a failed placement is tried again; nil when none is failing.
		field.Time("retry_at").Optional().Nillable(),
	}
}

func (Subscription) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("subscriptions").Field("shop_id").Unique().Required().Immutable(),
		edge.To("line_items", SubscriptionLineItem.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("addresses", SubscriptionAddress.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("placements", SubscriptionPlacement.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Subscription) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("shop_id", "idempotency_key").Unique(),
		index.Fields("shop_id", "id"),
		index.Fields("subscription_status", "next_order_datetime"),
	}
}

func (Subscription) Annotations() []schema.Annotation { return []schema.Annotation{entgql.Skip()} }

// SubscriptionLineItem is one line a subscription orders each time.
type SubscriptionLineItem struct{ ent.Schema }

func (SubscriptionLineItem) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (SubscriptionLineItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("subscription_id").Immutable(),
		field.Int("position").Default(0),
		field.String("platform_id").Default("").MaxLen(255),
		field.String("platform_product_id").Default("").MaxLen(255),
		field.String("platform_variant_id").MaxLen(255),
		field.Int("subscription_group_id").Optional().Nillable(),
		field.Int("subscription_group_billing_rules_id").Optional().Nillable(),
		field.String("title").Default("").MaxLen(255),
		field.String("product_name").Default("").MaxLen(255),
		field.String("variant_name").Default("").MaxLen(255),
		field.String("sku").Default("").MaxLen(255),
		field.String("image").Default("").MaxLen(2048),
		field.Int("quantity"),
		field.Int64("price"),
		field.Int64("price_charged"),
		field.Int64("discounted_price"),
		field.Int64("discounted_price_charged"),
		field.Int64("full_price"),
		field.Int64("full_price_charged"),
		field.Bool("requires_shipping").Default(true),
		field.Bool("taxable").Default(true),
		field.Int("grams").Default(0),
		field.Float("weight").Default(0),
		field.String("weight_unit").Default("").MaxLen(16),
		field.JSON("discounts", []map[string]any{}).Optional(),
		field.JSON("prepaid_metadata", map[string]any{}).Optional(),
		field.JSON("line_item_attributes", []map[string]any{}).Optional(),
	}
}

func (SubscriptionLineItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("subscription", Subscription.Type).Ref("line_items").Field("subscription_id").Unique().Required().Immutable(),
	}
}

func (SubscriptionLineItem) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}

// SubscriptionAddress is a subscription's billing or shipping address.
type SubscriptionAddress struct{ ent.Schema }

func (SubscriptionAddress) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (SubscriptionAddress) Fields() []ent.Field {
	return []ent.Field{
		field.Int("subscription_id").Immutable(),
		field.Enum("kind").Values("billing", "shipping").Immutable(),
		field.String("platform_id").Default("").MaxLen(255),
		field.String("platform_type").Default("").MaxLen(64),
		field.String("platform_customer_id").Default("").MaxLen(255),
		field.String("first_name").Default("").MaxLen(255),
		field.String("last_name").Default("").MaxLen(255),
		field.String("company").Default("").MaxLen(255),
		field.String("phone").Default("").MaxLen(64),
		field.String("street1").Default("").MaxLen(255),
		field.String("street2").Default("").MaxLen(255),
		field.String("city").Default("").MaxLen(255),
		field.String("province").Default("").MaxLen(255),
		field.String("province_code").Default("").MaxLen(16),
		field.String("country").Default("").MaxLen(255),
		field.String("country_code").Default("").MaxLen(2),
		field.String("zip").Default("").MaxLen(32),
		field.Bool("is_default").Default(false),
		field.String("address_use").Default("").MaxLen(64),
		field.String("address_source").Default("").MaxLen(64),
	}
}

func (SubscriptionAddress) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("subscription", Subscription.Type).Ref("addresses").Field("subscription_id").Unique().Required().Immutable(),
	}
}

func (SubscriptionAddress) Indexes() []ent.Index {
	return []ent.Index{index.Fields("subscription_id", "kind").Unique()}
}

func (SubscriptionAddress) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}

// SubscriptionPlacement is the placing of one due date of a subscription: one row per
// (subscription, due_at), claimed before the order is made, so that a due date is placed once
// whatever runs it twice.
type SubscriptionPlacement struct{ ent.Schema }

func (SubscriptionPlacement) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (SubscriptionPlacement) Fields() []ent.Field {
	return []ent.Field{
		field.Int("subscription_id").Immutable(),
		field.Time("due_at").Immutable(),
		// order_id is the order placed for the due date, set in the transaction that makes it.
		field.Int("order_id").Optional().Nillable(),
		field.String("public_order_id").Default("").MaxLen(64),
		field.Enum("status").Values("placing", "placed", "failed").Default("placing"),
		field.Int("attempts").Default(0),
	}
}

func (SubscriptionPlacement) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("subscription", Subscription.Type).Ref("placements").Field("subscription_id").Unique().Required().Immutable(),
	}
}

func (SubscriptionPlacement) Indexes() []ent.Index {
	return []ent.Index{index.Fields("subscription_id", "due_at").Unique()}
}

func (SubscriptionPlacement) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}
