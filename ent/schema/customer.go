package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Customer is a shop's customer as its platform knows it: fed by the platform's event
// notifications (and syncs), one row per platform_id. platform_updated_at orders the changes,
// which may arrive out of order: an older one never overwrites a newer copy, and a save older
// than the delete never brings a deleted customer back.
type Customer struct{ ent.Schema }

func (Customer) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (Customer) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.String("platform_id").Immutable().MaxLen(255),
		field.String("first_name").Default("").MaxLen(255),
		field.String("last_name").Default("").MaxLen(255),
		field.String("email").Default("").MaxLen(255),
		field.String("phone").Default("").MaxLen(255),
		field.Time("platform_created_at").Optional().Nillable(),
		// platform_updated_at is the newest change applied.
		field.Time("platform_updated_at"),
		// platform_deleted_at is set when the platform deleted the customer: it is hidden, and a
		// save older than the delete is ignored.
		field.Time("platform_deleted_at").Optional().Nillable(),
	}
}

func (Customer) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("customers").Field("shop_id").Unique().Required().Immutable(),
		edge.To("addresses", CustomerAddress.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

func (Customer) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("shop_id", "platform_id").Unique(), index.Fields("shop_id", "updated_at"),
		// customer_live_by_id serves the customer list's default order and its total: the shop's
		// customers the platform has not deleted, in id order (keyset pages, no sort), and their
		// count from the index alone.
		index.Fields("shop_id", "id").StorageKey("customer_live_by_id").Annotations(entsql.IndexWhere("platform_deleted_at IS NULL")),
		// customer_live_by_last_name and customer_live_by_email serve the list's filters on the
		// last name or the email that compare whole values (eq, in, comparisons), their totals
		// from the index alone, and the list in either order (keyset pages on (column, id)): the
		// two ways a shop's staff and its integrations look a customer up.
		index.Fields("shop_id", "last_name", "id").StorageKey("customer_live_by_last_name").Annotations(entsql.IndexWhere("platform_deleted_at IS NULL")),
		index.Fields("shop_id", "email", "id").StorageKey("customer_live_by_email").Annotations(entsql.IndexWhere("platform_deleted_at IS NULL")),
		// customer_live_by_first_name finds the customers of the search's names
		// (service/customers/search.go): the pairs of a first and a last name spelt like two of
		// its words, or a first name alone; customer_deleted_by_first_name the deleted ones, when
		// asked for. Being partial, each tells whether the customer is deleted, so that the
		// customers found are counted from the index alone. A last name alone comes from
		// customer_live_by_last_name and, for the deleted, customer_deleted_by_last_name.
		index.Fields("shop_id", "first_name", "last_name").StorageKey("customer_live_by_first_name").Annotations(entsql.IndexWhere("platform_deleted_at IS NULL")),
		index.Fields("shop_id", "first_name", "last_name").StorageKey("customer_deleted_by_first_name").Annotations(entsql.IndexWhere("platform_deleted_at IS NOT NULL")),
		index.Fields("shop_id", "last_name").StorageKey("customer_deleted_by_last_name").Annotations(entsql.IndexWhere("platform_deleted_at IS NOT NULL")),
		// customer_search is the fuzzy search's index on PostgreSQL: pg_trgm's trigrams of each
		// searched column (the extension is created by its own migration, before this index). On
		// SQLite ent declares it as a plain index; the search there uses the FTS5 table
		// customer_search_fts (service/customers/search.go).
		index.Fields("first_name", "last_name", "email", "phone").StorageKey("customer_search").Annotations(
			entsql.IndexTypes(map[string]string{dialect.Postgres: "GIN"}),
			entsql.OpClassColumn("first_name", "gin_trgm_ops"), entsql.OpClassColumn("last_name", "gin_trgm_ops"),
			entsql.OpClassColumn("email", "gin_trgm_ops"), entsql.OpClassColumn("phone", "gin_trgm_ops")),
	}
}

func (Customer) Annotations() []schema.Annotation { return []schema.Annotation{entgql.Skip()} }

// CustomerAddress is one address of a customer, as the platform knows it.
type CustomerAddress struct{ ent.Schema }

func (CustomerAddress) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (CustomerAddress) Fields() []ent.Field {
	return []ent.Field{
		field.Int("customer_id").Immutable(),
		field.String("platform_id").MaxLen(255),
		field.String("address_type").Default("").MaxLen(255),
		field.String("address_use").Default("").MaxLen(255),
		field.Bool("is_default").Default(false),
		field.String("company").Default("").MaxLen(255),
		field.String("first_name").Default("").MaxLen(255),
		field.String("last_name").Default("").MaxLen(255),
		field.String("phone").Default("").MaxLen(255),
		field.String("street_1").Default("").MaxLen(255),
		field.String("street_2").Default("").MaxLen(255),
		field.String("city").Default("").MaxLen(255),
		field.String("province").Default("").MaxLen(255),
		field.String("province_code").Default("").MaxLen(255),
		field.String("country").Default("").MaxLen(255),
		field.String("country_code").Default("").MaxLen(255),
		field.String("postal_code").Default("").MaxLen(255),
	}
}

func (CustomerAddress) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("customer", Customer.Type).Ref("addresses").Field("customer_id").Unique().Required().Immutable(),
	}
}

func (CustomerAddress) Indexes() []ent.Index {
	return []ent.Index{index.Fields("customer_id", "platform_id").Unique()}
}

func (CustomerAddress) Annotations() []schema.Annotation { return []schema.Annotation{entgql.Skip()} }

// PlatformOrder is an order as the platform knows it (Order Saved): the orders placed outside
// checkout too. checkoutd keeps the connector order whole and the fields it lists orders by.
type PlatformOrder struct{ ent.Schema }

func (PlatformOrder) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (PlatformOrder) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.String("platform_id").Immutable().MaxLen(255),
		field.String("order_number").Default("").MaxLen(255),
		field.String("platform_customer_id").Default("").MaxLen(255),
		field.String("currency").Default("").MaxLen(3),
		field.String("total").Default("").MaxLen(64),
		field.String("order_status").Default("").MaxLen(255),
		field.String("financial_status").Default("").MaxLen(255),
		field.String("fulfillment_status").Default("").MaxLen(255),
		field.Time("placed_at").Optional().Nillable(),
		// data is the connector order as the platform last sent it.
		field.JSON("data", map[string]any{}).Optional().Annotations(entgql.Type("Map")),
		field.Time("platform_updated_at"),
		field.Time("platform_deleted_at").Optional().Nillable(),
	}
}

func (PlatformOrder) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("platform_orders").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (PlatformOrder) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "platform_id").Unique(), index.Fields("shop_id", "created_at")}
}

func (PlatformOrder) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}
