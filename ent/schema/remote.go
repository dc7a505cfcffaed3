package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// RemoteExchange is one call checkoutd made to a shop's remote state authority or one of its
// API overrides, kept for support: what was sent, what came back, how long it took and how it
// ended. Only the bodies are kept, each bounded, never the headers: the signature and the
// shared secret stay out of the table. Rows are written after the call, never changed, and
// deleted by age (service/remotelog).
type RemoteExchange struct{ ent.Schema }

func (RemoteExchange) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		// kind is rsa or override; call is the operation (process_order_events, validate_address,
		// tax, shipping, ...).
		field.String("kind").MaxLen(16).Immutable().Annotations(entgql.OrderField("KIND")),
		field.String("call").MaxLen(64).Immutable(),
		// public_order_id is the order the call was about, empty for none.
		field.String("public_order_id").MaxLen(64).Default("").Immutable(),
		// url is where the call went, without user information or query string.
		field.String("url").MaxLen(2048).Immutable(),
		field.Time("at").Immutable().Annotations(entgql.OrderField("AT")),
		// request_body and response_body are the beginning of each body; request_size and
		// response_size say how long each was.
		field.Text("request_body").Default("").Immutable(),
		field.Int("request_size").Default(0).Immutable(),
		field.Int("status_code").Optional().Nillable().Immutable(),
		field.Text("response_body").Default("").Immutable(),
		field.Int("response_size").Default(0).Immutable(),
		field.Int("latency_ms").Immutable(),
		// outcome is answered, refused, failed, timeout, unreachable, not_sent or circuit_open.
		field.String("outcome").MaxLen(16).Immutable(),
		field.String("error").MaxLen(1024).Optional().Nillable().Immutable(),
	}
}

func (RemoteExchange) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "at"), index.Fields("shop_id", "public_order_id")}
}

func (RemoteExchange) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
