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

// OrderPayment is one tender on an order: an amount to be paid through one gateway (or a gift
// card). What has moved is not kept here but derived from its ledger of PaymentTransactions.
type OrderPayment struct{ ent.Schema }

func (OrderPayment) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (OrderPayment) Fields() []ent.Field {
	return []ent.Field{
		field.Int("order_id").Immutable().Annotations(entgql.Skip()),
		field.String("public_id").Unique().Immutable().NotEmpty(),
		// gateway_public_id names an external payment gateway of the shop; empty for gift cards.
		field.String("gateway_public_id").Default(""),
		field.String("tender_type").Default("credit_card"),
		field.String("display_string").Default(""),
		field.String("token").Default("").Sensitive().Annotations(entgql.Skip()),
		field.Bool("retain").Default(false),
		field.String("wallet_pay_type").Default(""),
		field.JSON("payment_parameters", map[string]any{}).Optional().Annotations(entgql.Skip()),
		field.Int64("amount").Min(0),
		field.String("currency"),
		field.Int("gift_card_id").Optional().Nillable().Annotations(entgql.Skip()),
		// added: on the order, not yet sent; authorizing: process_order is calling the gateway;
		// authorized / failed / voided: the outcome of the authorization; verified: the card was
		// verified, not authorized (the shop's verify_payments_only), and awaits its charge.
		field.Enum("status").Values("added", "authorizing", "authorized", "failed", "voided", "verified").Default("added"),
		// step is the spec's payment step: awaitingPreAuth or preAuthed.
		field.String("step").Default(""),
		field.String("authorization_id").Default(""),
		field.Int("position").Default(0),
	}
}

func (OrderPayment) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("order", Order.Type).Ref("payments").Field("order_id").Unique().Required().Immutable(),
		edge.To("transactions", PaymentTransaction.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
	}
}

func (OrderPayment) Indexes() []ent.Index {
	return []ent.Index{index.Fields("order_id", "position")}
}

func (OrderPayment) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// PaymentTransaction is one entry of the payment ledger: one call to a gateway (or one move of
// a gift card balance), written as pending before the call and settled after it.
type PaymentTransaction struct{ ent.Schema }

func (PaymentTransaction) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (PaymentTransaction) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.Int("order_id").Immutable().Annotations(entgql.Skip()),
		field.Int("payment_id").Immutable().Annotations(entgql.Skip()),
		field.String("public_id").Unique().Immutable().NotEmpty(),
		field.Enum("kind").Values("retain", "authorize", "capture", "refund", "void").
			Annotations(entgql.OrderField("KIND")),
		// pending: written before the gateway call; unknown: the call's outcome was lost (a
		// timeout, a crash) and recovery must resolve it.
		field.Enum("status").Values("pending", "succeeded", "failed", "unknown").Default("pending"),
		field.Int64("amount").Min(0),
		field.String("currency"),
		field.String("gateway_transaction_id").Default(""),
		field.String("reference_transaction_id").Default(""),
		field.String("error_code").Default(""),
		// owner is the process lease of the process that opened the entry (PostgreSQL): once it
		// lapses, another process settles what the entry left in doubt. Empty: no lease (SQLite).
		field.String("owner").Default("").Annotations(entgql.Skip()),
		field.String("error_message").Default(""),
		field.Int("latency_ms").Default(0),
		// operation_key groups the entries of one capture, refund or cancel call: a retry under
		// the caller's idempotency key resumes those entries instead of starting new ones.
		field.String("operation_key").Default(""),
		// data holds the caller's capture_data or refund_meta_data.
		field.JSON("data", map[string]any{}).Optional().Annotations(entgql.Skip()),
		field.Time("settled_at").Optional().Nillable(),
	}
}

func (PaymentTransaction) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("order", Order.Type).Ref("transactions").Field("order_id").Unique().Required().Immutable(),
		edge.From("payment", OrderPayment.Type).Ref("transactions").Field("payment_id").Unique().Required().Immutable(),
	}
}

func (PaymentTransaction) Indexes() []ent.Index {
	return []ent.Index{index.Fields("order_id", "created_at"), index.Fields("status"), index.Fields("order_id", "operation_key"),
		// An order's tenders load their ledger entries by payment.
		index.Fields("payment_id")}
}

func (PaymentTransaction) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
