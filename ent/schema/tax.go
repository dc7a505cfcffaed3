package schema

import (
	"entgo.io/contrib/entgql"
	"entgo.io/ent"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// TaxZone is one tax rate of a country, or of one of its provinces. Every zone matching the
// order's address applies, each as its own tax line (a country's GST and a province's PST).
type TaxZone struct{ ent.Schema }

func (TaxZone) Mixin() []ent.Mixin { return []ent.Mixin{TimestampsMixin{}} }

func (TaxZone) Fields() []ent.Field {
	return []ent.Field{
		field.Int("shop_id").Immutable().Annotations(entgql.Skip()),
		field.String("name").NotEmpty().Annotations(entgql.OrderField("NAME")),
		field.String("country_code").NotEmpty(),
		// province_code empty: the zone covers the whole country.
		field.String("province_code").Default(""),
		// rate_ppm is the rate in parts per million: 8.875% is 88750.
		field.Int("rate_ppm").Min(0).Max(1_000_000),
		field.Bool("shipping_taxable").Default(false),
	}
}

func (TaxZone) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("shop", Shop.Type).Ref("tax_zones").Field("shop_id").Unique().Required().Immutable(),
	}
}

func (TaxZone) Indexes() []ent.Index {
	return []ent.Index{index.Fields("shop_id", "country_code", "province_code")}
}

func (TaxZone) Annotations() []schema.Annotation {
	return []schema.Annotation{entgql.RelayConnection()}
}

// TaxBasis is the jurisdiction taxes were generated for. Taxes follow the order's lines, but
// only Generate Taxes moves them to a new address (the spec: updating an address does not).
type TaxBasis struct {
	CountryCode  string `json:"country_code"`
	ProvinceCode string `json:"province_code"`
}
