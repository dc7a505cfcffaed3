package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/checkoutd/checkoutd/service/secrets"
)

// Shop is one store; every other row belongs to exactly one shop.
type Shop struct{ ent.Schema }

func (Shop) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Shop) Fields() []ent.Field {
	return []ent.Field{
		field.String("identifier").Unique().Immutable().NotEmpty().MaxLen(64),
		field.String("name").Default(""),
		field.String("domain").Default(""),
		field.String("platform_type").Default("custom"),
		field.String("currency").Default("USD").MinLen(3).MaxLen(3),
		// shared_secret signs webhook callbacks and connector calls, so it is kept readable, sealed
		// with the process's secret key; it never leaves the service. Empty when not configured
		// (not Nillable: ent cannot seal a Nillable field).
		field.String("shared_secret").Optional().Sensitive().
			ValueScanner(secrets.String("shops.shared_secret")).Annotations(entgql.Skip()),
		// jwt_key signs the per-order JWTs of this shop; sealed, as whoever reads it can forge them.
		field.Bytes("jwt_key").Sensitive().ValueScanner(secrets.Bytes("shops.jwt_key")).Annotations(entgql.Skip()),
		// prices_include_tax: catalog prices already hold the tax, which is then shown, not added.
		field.Bool("prices_include_tax").Default(false),
		// abandoned_cart_emails: checkoutd emails shoppers about the carts they abandon (through
		// CHECKOUT_SMTP_URL), and order/abandoned is not sent to subscribers (the spec's rule).
		field.Bool("abandoned_cart_emails").Default(false),
		// gift_cards_enabled: buying a gift-card product issues a gift card and records
		// gift_card/created; otherwise it is sold like any other product.
		field.Bool("gift_cards_enabled").Default(false),
		// require_business_name and require_phone_number: an order's shipping and billing
		// addresses must carry a business name, a phone number (the spec's admin settings).
		field.Bool("require_business_name").Default(false),
		field.Bool("require_phone_number").Default(false),
		// verify_payments_only: process_order only verifies each card (the gateway's retain) and
		// leaves its payment awaitingPreAuth; Capture Specific Payment then charges it.
		field.Bool("verify_payments_only").Default(false),
	}
}

func (Shop) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("access_tokens", AccessToken.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("cors_domains", CorsDomain.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("life_elements", LifeElement.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("external_payment_gateways", ExternalPaymentGateway.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("api_overrides", APIOverride.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("rsa_config", RSAConfig.Type).Unique().Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("webhook_subscriptions", WebhookSubscription.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("flows", Flow.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("gift_cards", GiftCard.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("orders", Order.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("shipping_zones", ShippingZone.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("products", Product.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("tax_zones", TaxZone.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("discount_codes", DiscountCode.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("events", Event.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("idempotency_keys", IdempotencyKey.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("webhook_deliveries", WebhookDelivery.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("destinations", Destination.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("subscriptions", Subscription.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("connector_calls", ConnectorCall.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("customers", Customer.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("platform_syncs", PlatformSync.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("categories", Category.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("platform_orders", PlatformOrder.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
		edge.To("admin_sessions", AdminSession.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
	}
}

func (Shop) Annotations() []schema.Annotation {
	return []schema.Annotation{}
}
