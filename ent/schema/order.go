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

// OrderMetaData is the order's free-form data of the spec's order_meta_data.
type OrderMetaData struct {
	CartParameters map[string]string `json:"cart_parameters"`
	NoteAttributes map[string]string `json:"note_attributes"`
	Notes          string            `json:"notes"`
	Tags           []string          `json:"tags"`
}

// Order is one checkout, from init to processed or cancelled.
type Order struct{ ent.Schema }

func (Order) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Order) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.String("public_order_id").Unique().Immutable(),
		// processing: process_order holds the order (inventory reserved, authorizations in flight).
		field.Enum("status").Values("open", "processing", "processed", "cancelled").Default("open").
			Annotations(entgql.OrderField("STATUS")),
		field.String("currency"),
		field.String("flow_id").Default(""),
		field.String("resumable_link").Default(""),
		field.String("created_via").Default("checkout"),
		field.String("platform_order_id").Default(""),
		field.JSON("meta_data", OrderMetaData{}).Annotations(entgql.Skip()),
		field.JSON("customer", &OrderCustomer{}).Optional().Annotations(entgql.Skip()),
		// init_customer is the customer as init supplied it: the deprecated Update Guest
		// Customer cannot change what it holds.
		field.JSON("init_customer", &OrderCustomer{}).Optional().Annotations(entgql.Skip()),
		field.JSON("shipping_address", &OrderAddress{}).Optional().Annotations(entgql.Skip()),
		field.JSON("billing_address", &OrderAddress{}).Optional().Annotations(entgql.Skip()),
		field.JSON("selected_shipping", &ShippingLine{}).Optional().Annotations(entgql.Skip()),
		// discount_codes are the codes applied to the order, upper-case; their value is derived on read.
		field.Strings("discount_codes").Optional().Annotations(entgql.Skip()),
		field.JSON("tax_basis", &TaxBasis{}).Optional().Annotations(entgql.Skip()),
		// outside_pricing is what an API override or the shop's remote state authority answered
		// for the order's shipping lines, taxes, discounts and fees; pricing uses each part set.
		field.JSON("outside_pricing", &OutsidePricing{}).Optional().Annotations(entgql.Skip()),
		// version increases with every change, so concurrent writers detect a lost update.
		field.Int("version").Default(1),
		field.Time("processed_at").Optional().Nillable(),
		// reserved: the order holds catalog stock and discount code uses (from process_order's
		// reservation until it fails or the order is cancelled).
		field.Bool("reserved").Default(false),
		// redeemed_discount_codes are the codes whose uses the reservation took, so that exactly
		// those uses are given back, whatever the codes' dates say by then.
		field.Strings("redeemed_discount_codes").Optional().Annotations(entgql.Skip()),
		// settled_pricing freezes the money figures (lines offered, shipping chosen, discounts,
		// taxes, total) as process_order authorized them: later changes to the shop's zones, rates
		// or codes must not move a processed order's total.
		field.Bytes("settled_pricing").Optional().Annotations(entgql.Skip()),
		// last_activity_at is when the shopper last changed the order (by the service clock), to
		// the minute (service.activityResolution); an open order with items and no activity for an
		// hour is abandoned.
		field.Time("last_activity_at").Optional().Nillable(),
		// abandoned_at is when order/abandoned was recorded; activity clears it, so an order
		// left again is abandoned again.
		field.Time("abandoned_at").Optional().Nillable(),
		// rsa_state is the remote state authority's last answer for the order (its order state,
		// as JSON): what only the RSA keeps (tags, notes, cart params, line taxes and discounts)
		// is sent back to it with the next event from there.
		field.Bytes("rsa_state").Optional().Annotations(entgql.Skip()),
		// rsa_lease_holder is the request talking to the order's remote state authority, until
		// rsa_lease_expires_at: one call at a time per order, across processes, without a
		// transaction open during the call. Taking and giving it back does not move the version:
		// it is not the order's state. One past its expiry was left by a request that died.
		field.String("rsa_lease_holder").Optional().Nillable().Annotations(entgql.Skip()),
		field.Time("rsa_lease_expires_at").Optional().Nillable().Annotations(entgql.Skip()),
	}
}

func (Order) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("orders").Field("shop_id").Unique().Required().Immutable(),
		edge.To("line_items", LineItem.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("payments", OrderPayment.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("transactions", PaymentTransaction.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("events", Event.Type).Annotations(entgql.RelayConnection(), entsql.OnDelete(entsql.Cascade)),
		edge.To("api_overrides", OrderAPIOverride.Type).Annotations(entgql.Skip(), entsql.OnDelete(entsql.Cascade)),
	}
}

func (Order) Indexes() []ent.Index {
	// No index holds updated_at, and last_activity_at moves once a minute at most: an order's
	// field changes then write its row alone, not index entries too (on PostgreSQL they are
	// heap-only updates). Recovery finds the few processing orders by the status that leads
	// the second index.
	return []ent.Index{index.Fields("shop_id", "created_at"), index.Fields("status", "last_activity_at")}
}

func (Order) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// LineItem is one line of an order, keyed by the merchant's line_item_key.
type LineItem struct{ ent.Schema }

func (LineItem) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (LineItem) Fields() []ent.Field {
	return []ent.Field{
		field.Int("order_id").Immutable().Annotations(entgql.Skip()),
		field.String("line_item_key"),
		field.String("product_id").Default(""),
		field.String("variant_id").Default(""),
		field.String("sku").Default(""),
		field.String("product_title").Default(""),
		field.String("title"),
		field.Int64("price"),
		field.Int64("compare_at_price").Default(0),
		field.Int("quantity"),
		field.Int("fulfilled_quantity").Default(0),
		// restocked_quantity is how many units refunds have returned to stock, over all refunds.
		field.Int("restocked_quantity").Default(0),
		field.Int("weight").Default(0),
		field.String("weight_unit").Default("g"),
		field.Bool("requires_shipping").Default(true),
		field.Bool("taxable").Default(true),
		field.String("tags").Default(""),
		field.String("vendor").Default(""),
		field.String("image_url").Default(""),
		field.JSON("properties", map[string]string{}).Optional().Annotations(entgql.Skip()),
		field.Int("position").Default(0),
	}
}

func (LineItem) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("order", Order.Type).Ref("line_items").Field("order_id").Unique().Required().Immutable(),
	}
}

func (LineItem) Indexes() []ent.Index {
	return []ent.Index{index.Fields("order_id", "line_item_key").Unique()}
}

func (LineItem) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
