package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/checkoutd/checkoutd/service/secrets"
)

// shopOwned gives a configuration row its immutable shop_id and the edge back to its shop.
func shopOwned(ref string) (ent.Field, ent.Edge) {
	return field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		edge.From("shop", Shop.Type).Ref(ref).Field("shop_id").Unique().Required().Immutable()
}

func publicID() ent.Field {
	return field.String("public_id").Unique().Immutable().NotEmpty()
}

// CorsDomain is one origin (protocol and host) allowed to call the storefront APIs.
type CorsDomain struct{ ent.Schema }

func (CorsDomain) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (CorsDomain) Fields() []ent.Field {
	f, _ := shopOwned("cors_domains")
	return []ent.Field{f, field.String("domain").NotEmpty().Annotations(entgql.OrderField("DOMAIN"))}
}
func (CorsDomain) Edges() []ent.Edge { _, e := shopOwned("cors_domains"); return []ent.Edge{e} }
func (CorsDomain) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "domain").Unique()}
}
func (CorsDomain) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// LifeElement is a custom element placed at a named location of the checkout.
type LifeElement struct{ ent.Schema }

func (LifeElement) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (LifeElement) Fields() []ent.Field {
	f, _ := shopOwned("life_elements")
	return []ent.Field{f, publicID(),
		field.String("location").Annotations(entgql.OrderField("LOCATION")),
		field.String("input_type"),
		field.String("input_default").Optional().Nillable(),
		field.String("input_label").Optional().Nillable(),
		field.String("input_placeholder").Optional().Nillable(),
		field.Bool("input_required").Optional().Nillable(),
		field.String("input_regex").Optional().Nillable(),
		field.String("meta_data_field"),
		field.Int("order_asc").Annotations(entgql.OrderField("ORDER_ASC")),
	}
}
func (LifeElement) Edges() []ent.Edge { _, e := shopOwned("life_elements"); return []ent.Edge{e} }
func (LifeElement) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// HTTPHeader is one header added to every request sent to an external payment gateway.
type HTTPHeader struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ExternalPaymentGateway is a payment gateway the service calls with the gateway protocol.
type ExternalPaymentGateway struct{ ent.Schema }

func (ExternalPaymentGateway) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (ExternalPaymentGateway) Fields() []ent.Field {
	f, _ := shopOwned("external_payment_gateways")
	return []ent.Field{f, publicID(),
		field.String("name").Annotations(entgql.OrderField("NAME")),
		field.String("base_url"),
		field.String("iframe_url").Optional().Nillable(),
		field.String("location").Default(""),
		field.JSON("http_headers", []HTTPHeader{}).Optional().Annotations(entgql.Skip()),
		// api_token is empty when the gateway takes none (not Nillable: ent cannot seal a
		// Nillable field).
		field.String("api_token").Optional().Sensitive().
			ValueScanner(secrets.String("external_payment_gateways.api_token")).Annotations(entgql.Skip()),
		field.Bool("partial_capture"),
		field.Bool("additional_order_details"),
		field.String("provider_id"),
		field.String("currency"),
		field.Bool("is_test").Default(false),
	}
}
func (ExternalPaymentGateway) Edges() []ent.Edge {
	_, e := shopOwned("external_payment_gateways")
	return []ent.Edge{e}
}
func (ExternalPaymentGateway) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// APIOverride sends one piece of checkout functionality to the shop's own endpoint.
type APIOverride struct{ ent.Schema }

func (APIOverride) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (APIOverride) Fields() []ent.Field {
	f, _ := shopOwned("api_overrides")
	return []ent.Field{f, publicID(),
		field.String("override_type").Annotations(entgql.OrderField("OVERRIDE_TYPE")),
		field.String("url"),
		field.String("shared_secret").Sensitive().
			ValueScanner(secrets.String("api_overrides.shared_secret")).Annotations(entgql.Skip()),
		// failure_policy is what a failed call does: refuse the shopper's change, or fall back
		// on the built-in function; empty is the override type's default (service/overrides).
		field.String("failure_policy").Default(""),
		// timeout_ms bounds each call (service/remote bounds it again).
		field.Int("timeout_ms").Default(2000),
	}
}
func (APIOverride) Edges() []ent.Edge { _, e := shopOwned("api_overrides"); return []ent.Edge{e} }
func (APIOverride) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// OrderAPIOverride is an API override one order was given at init: it takes priority over the
// shop's override of the same type, for that order only.
type OrderAPIOverride struct{ ent.Schema }

func (OrderAPIOverride) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (OrderAPIOverride) Fields() []ent.Field {
	return []ent.Field{
		field.Int("order_id").Immutable(),
		field.String("override_type"),
		field.String("url"),
		field.String("shared_secret").Sensitive().
			ValueScanner(secrets.String("order_api_overrides.shared_secret")),
		field.String("failure_policy").Default(""),
		field.Int("timeout_ms").Default(2000),
	}
}
func (OrderAPIOverride) Edges() []ent.Edge {
	return []ent.Edge{edge.From("order", Order.Type).Ref("api_overrides").Field("order_id").Unique().Required().Immutable()}
}
func (OrderAPIOverride) Indexes() []ent.Index {
	return []ent.Index{index.Fields("order_id", "override_type").Unique()}
}
func (OrderAPIOverride) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.Skip()}
}

// RSAConfig points a shop's checkout at its remote state authority.
type RSAConfig struct{ ent.Schema }

func (RSAConfig) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (RSAConfig) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Unique().Immutable().Annotations(entgql.Skip()),
		field.String("url"),
		field.String("shared_secret").Sensitive().
			ValueScanner(secrets.String("rsa_configs.shared_secret")).Annotations(entgql.Skip()),
		// timeout_ms bounds each call (service/remote bounds it again).
		field.Int("timeout_ms").Default(2000),
	}
}
func (RSAConfig) Edges() []ent.Edge {
	return []ent.Edge{edge.From("shop", Shop.Type).Ref("rsa_config").Field("shop_id").Unique().Required().Immutable()}
}

// WebhookSubscription sends the events of one topic to a callback URL.
type WebhookSubscription struct{ ent.Schema }

func (WebhookSubscription) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (WebhookSubscription) Fields() []ent.Field {
	f, _ := shopOwned("webhook_subscriptions")
	return []ent.Field{f,
		field.Int("webhook_topic_id").Annotations(entgql.OrderField("WEBHOOK_TOPIC_ID")),
		field.String("callback_url"),
		// consecutive_failed_deliveries counts deliveries that ran out of attempts since the last
		// one that succeeded; at UnhealthyAfterFailedDeliveries the subscription is unhealthy.
		field.Int("consecutive_failed_deliveries").Default(0),
		// unhealthy_since flags a subscription whose receiver keeps failing. Deliveries go on:
		// the flag is for the shop to see, not a reason to drop events.
		field.Time("unhealthy_since").Optional().Nillable(),
		field.Time("last_delivered_at").Optional().Nillable(),
	}
}
func (WebhookSubscription) Edges() []ent.Edge {
	_, e := shopOwned("webhook_subscriptions")
	return []ent.Edge{e,
		edge.To("deliveries", WebhookDelivery.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
	}
}
func (WebhookSubscription) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// Flow is a checkout flow known to the shop: a built-in one once touched, or a registered custom one.
type Flow struct{ ent.Schema }

func (Flow) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (Flow) Fields() []ent.Field {
	f, _ := shopOwned("flows")
	return []ent.Field{f,
		field.String("flow_id").NotEmpty().Annotations(entgql.OrderField("FLOW_ID")),
		field.String("flow_name"),
		field.String("flow_type").Default("custom"),
		field.Bool("enabled").Default(false),
	}
}
func (Flow) Edges() []ent.Edge    { _, e := shopOwned("flows"); return []ent.Edge{e} }
func (Flow) Indexes() []ent.Index { return []ent.Index{index.Fields("shop_id", "flow_id").Unique()} }
func (Flow) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// GiftCard is a stored-value card; its pin is kept only as a hash.
type GiftCard struct{ ent.Schema }

func (GiftCard) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }
func (GiftCard) Fields() []ent.Field {
	f, _ := shopOwned("gift_cards")
	return []ent.Field{f,
		field.String("public_payment_method_id").Unique().Immutable(),
		field.String("card_token").Immutable(),
		field.String("pin_hash").Sensitive().Annotations(entgql.Skip()),
		field.String("currency"),
		field.Int64("amount"),
		field.Int64("balance"),
		field.String("recipient_name").Default(""),
		field.String("message").Default(""),
		field.Time("expiry_date").Optional().Nillable(),
		field.String("customer_name").Default(""),
		field.String("customer_email").Default(""),
	}
}
func (GiftCard) Edges() []ent.Edge { _, e := shopOwned("gift_cards"); return []ent.Edge{e} }
func (GiftCard) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "card_token").Unique()}
}
func (GiftCard) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
