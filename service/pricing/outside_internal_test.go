package pricing

import (
	"slices"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/schema"
)

func outsideOrder(op *schema.OutsidePricing) *ent.Order {
	o := basisOrder("CA", "BC")
	o.OutsidePricing = op
	return o
}

var (
	bcZones  = []*ent.TaxZone{zone("GST", "CA", "", 50_000, true), zone("BC PST", "CA", "BC", 70_000, false)}
	standard = &schema.ShippingLine{ID: "1", Description: "Standard", Amount: 1000, Code: "standard"}
)

func TestOutsideTaxesReplaceTheTaxZones(t *testing.T) {
	items := []*ent.LineItem{line("mug", 1000, 2), line("tee", 2000, 1)}
	op := &schema.OutsidePricing{Taxes: &schema.OutsideTaxes{
		Lines: map[string][]schema.OutsideTax{
			"mug":   {{Name: "State tax", Value: 160}},
			"tee":   {{Name: "State tax", Value: 160}, {Name: "City tax", Value: 20}},
			"ghost": {{Name: "State tax", Value: 999}},
		},
		Shipping: []schema.OutsideTax{{Name: "State tax", Value: 80}},
		Order:    []schema.OutsideTax{{Name: "Included VAT", Value: 300, IsIncluded: true}},
	}}
	p := Price(&ent.Shop{}, outsideOrder(op), items, standard, Rules{TaxZones: bcZones}, time.Now())
	if !slices.Equal(p.Taxes, []TaxLine{{Value: 400, Name: "State tax"}, {Value: 20, Name: "City tax"}, {Value: 300, Name: "Included VAT", IsIncluded: true}}) {
		t.Fatalf("taxes %+v", p.Taxes)
	}
	if p.TaxTotal != 420 || p.Total != 4000+1000+420 {
		t.Fatalf("tax total %d, total %d", p.TaxTotal, p.Total)
	}
	if !slices.Equal(p.LineTaxes["tee"], []TaxLine{{Value: 160, Name: "State tax"}, {Value: 20, Name: "City tax"}}) || len(p.LineTaxes["ghost"]) != 0 {
		t.Fatalf("line taxes %+v", p.LineTaxes)
	}
	if !slices.Equal(p.ShippingTaxes, []TaxLine{{Value: 80, Name: "State tax"}}) {
		t.Fatalf("shipping taxes %+v", p.ShippingTaxes)
	}
}

func TestOutsideDiscountsReplaceTheShopsCodesAndTakeOffNoMoreThanThereIs(t *testing.T) {
	items := []*ent.LineItem{line("a", 100, 1), line("b", 100, 1), line("c", 100, 1)}
	rules := Rules{DiscountCodes: []*ent.DiscountCode{{Code: "SHOP", Kind: discountcode.KindFixedAmount, Value: 50}}}
	op := &schema.OutsidePricing{Discounts: &schema.OutsideDiscounts{Codes: []schema.OutsideDiscount{
		{Code: "OUT", Text: "Outside", Value: 100, ShippingValue: 400},
		{Code: "TOOMUCH", Value: 10_000},
	}}}
	p := Price(&ent.Shop{}, outsideOrder(op), items, standard, rules, time.Now())
	want := []DiscountLine{{Code: "OUT", Text: "Outside", Value: 500, Source: discountSource, Outside: true},
		{Code: "TOOMUCH", Text: "TOOMUCH", Value: 200, Source: discountSource, Outside: true}}
	if !slices.Equal(p.Discounts, want) {
		t.Fatalf("discounts %+v", p.Discounts)
	}
	if p.DiscountTotal != 300 || p.Shipping != 600 || p.Total != 600 {
		t.Fatalf("discount total %d, shipping %d, total %d", p.DiscountTotal, p.Shipping, p.Total)
	}
	if p.LineDiscounts["a"][0].Value != 34 || len(p.ShippingDiscounts) != 1 || p.ShippingDiscounts[0].Value != 400 {
		t.Fatalf("line discounts %+v, shipping discounts %+v", p.LineDiscounts, p.ShippingDiscounts)
	}
}

func TestOutsideDiscountsPerLineGoOnTheLinesNamed(t *testing.T) {
	items := []*ent.LineItem{line("a", 100, 1), line("b", 100, 1)}
	op := &schema.OutsidePricing{Discounts: &schema.OutsideDiscounts{Codes: []schema.OutsideDiscount{
		{Code: "B", Lines: map[string]int64{"b": 150, "nope": 50}},
	}}}
	p := Price(&ent.Shop{}, outsideOrder(op), items, nil, Rules{}, time.Now())
	if len(p.LineDiscounts["a"]) != 0 || p.LineDiscounts["b"][0].Value != 100 || p.DiscountTotal != 100 || p.Total != 100 {
		t.Fatalf("line discounts %+v, total %d", p.LineDiscounts, p.Total)
	}
}

func TestOutsideFeesAddToTheTotalAndTaxableFeesAreTaxedByTheZones(t *testing.T) {
	items := []*ent.LineItem{line("a", 1000, 1)}
	op := &schema.OutsidePricing{Fees: []schema.OutsideFee{{Description: "Handling", Value: 200, Taxable: true}, {Description: "Bag", Value: 10}}}
	p := Price(&ent.Shop{}, outsideOrder(op), items, nil, Rules{TaxZones: bcZones}, time.Now())
	if p.FeeTotal != 210 || len(p.Fees) != 2 {
		t.Fatalf("fees %+v, total %d", p.Fees, p.FeeTotal)
	}
	// line: GST 50, PST 70; handling fee: GST 10, PST 14.
	if !slices.Equal(p.Taxes, []TaxLine{{Value: 60, Name: "GST"}, {Value: 84, Name: "BC PST"}}) || p.Total != 1000+210+144 {
		t.Fatalf("taxes %+v, total %d", p.Taxes, p.Total)
	}
}

func TestOutsideShippingLinesDoNotChangeHowTheSelectedLineIsPriced(t *testing.T) {
	items := []*ent.LineItem{line("a", 1000, 1)}
	op := &schema.OutsidePricing{Shipping: &schema.OutsideShipping{Lines: []schema.ShippingLine{{ID: "x", Amount: 700, Code: "x"}}}}
	selected := &op.Shipping.Lines[0]
	p := Price(&ent.Shop{}, outsideOrder(op), items, selected, Rules{}, time.Now())
	if p.Shipping != 700 || p.Total != 1700 {
		t.Fatalf("shipping %d, total %d", p.Shipping, p.Total)
	}
}

func TestPartsTheOutsideSystemLeftUnsetAreWorkedOutFromTheShopsRules(t *testing.T) {
	items := []*ent.LineItem{line("a", 1000, 1)}
	rules := Rules{TaxZones: bcZones, DiscountCodes: []*ent.DiscountCode{{Code: "TEN", Kind: discountcode.KindFixedAmount, Value: 100}}}
	op := &schema.OutsidePricing{Taxes: &schema.OutsideTaxes{Order: []schema.OutsideTax{{Name: "Flat", Value: 5}}}}
	p := Price(&ent.Shop{}, outsideOrder(op), items, nil, rules, time.Now())
	if p.DiscountTotal != 100 || p.Discounts[0].Outside || p.TaxTotal != 5 || p.Total != 905 {
		t.Fatalf("discounts %+v, tax %d, total %d", p.Discounts, p.TaxTotal, p.Total)
	}
}
