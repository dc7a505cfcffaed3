package pricing

import (
	"slices"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/schema"
)

func line(key string, price int64, qty int) *ent.LineItem {
	return &ent.LineItem{LineItemKey: key, Price: price, Quantity: qty, Taxable: true, RequiresShipping: true}
}

func zone(name, country, province string, ppm int, shipping bool) *ent.TaxZone {
	return &ent.TaxZone{Name: name, CountryCode: country, ProvinceCode: province, RatePpm: ppm, ShippingTaxable: shipping}
}

func basisOrder(country, province string) *ent.Order {
	return &ent.Order{TaxBasis: &schema.TaxBasis{CountryCode: country, ProvinceCode: province}}
}

func TestTaxesRoundHalfEvenPerLinePerTax(t *testing.T) {
	cases := []struct {
		name     string
		lines    []int64 // one unit each
		ppm      int
		included bool
		want     []int64 // tax per line
	}{
		{"12.5 rounds down to even", []int64{125}, 100_000, false, []int64{12}},
		{"13.5 rounds up to even", []int64{135}, 100_000, false, []int64{14}},
		{"0.5 rounds to 0", []int64{5}, 100_000, false, []int64{0}},
		{"1.5 rounds to 2", []int64{15}, 100_000, false, []int64{2}},
		{"below half rounds down", []int64{124}, 100_000, false, []int64{12}},
		{"above half rounds up", []int64{126}, 100_000, false, []int64{13}},
		{"each line rounds on its own", []int64{5, 5}, 100_000, false, []int64{0, 0}},
		{"included: price*rate/(1+rate)", []int64{1100}, 100_000, true, []int64{100}},
		{"included: 90.909 rounds to 91", []int64{1000}, 100_000, true, []int64{91}},
		{"included: 2.5 rounds to 2", []int64{5}, 1_000_000, true, []int64{2}},
		{"included: 3.5 rounds to 4", []int64{7}, 1_000_000, true, []int64{4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var items []*ent.LineItem
			for i, price := range c.lines {
				items = append(items, line(string(rune('a'+i)), price, 1))
			}
			rules := Rules{TaxZones: []*ent.TaxZone{zone("Tax", "US", "", c.ppm, false)}}
			p := Price(&ent.Shop{PricesIncludeTax: c.included}, basisOrder("US", "NY"), items, nil, rules, time.Now())
			var sum, subtotal int64
			for i, li := range items {
				taxes := p.LineTaxes[li.LineItemKey]
				if len(taxes) != 1 || taxes[0].Value != c.want[i] || taxes[0].IsIncluded != c.included {
					t.Fatalf("line %d taxes %+v, want %d", i, taxes, c.want[i])
				}
				sum += c.want[i]
				subtotal += li.Price
			}
			if p.Taxes[0].Value != sum {
				t.Fatalf("order tax %d, want the sum of the rounded line taxes %d", p.Taxes[0].Value, sum)
			}
			wantTotal := subtotal + sum
			if c.included {
				wantTotal = subtotal
			}
			if p.Total != wantTotal {
				t.Fatalf("total %d, want %d", p.Total, wantTotal)
			}
		})
	}
}

// The worked example of docs/taxes.md.
func TestTaxesApplyToTheDiscountedBaseOfEachLine(t *testing.T) {
	items := []*ent.LineItem{line("mug", 1250, 2), line("tee", 2000, 1)}
	rules := Rules{
		TaxZones:      []*ent.TaxZone{zone("BC PST", "CA", "BC", 70_000, false), zone("GST", "CA", "", 50_000, true), zone("Ontario HST", "CA", "ON", 130_000, true)},
		DiscountCodes: []*ent.DiscountCode{{Code: "SAVE10", Text: "10% off", Kind: discountcode.KindPercentage, Value: 1000}},
	}
	shipping := &schema.ShippingLine{ID: "1", Description: "Standard", Amount: 1000, Code: "standard"}
	p := Price(&ent.Shop{}, basisOrder("CA", "BC"), items, shipping, rules, time.Now())

	if p.Subtotal != 4500 || p.DiscountTotal != 450 || p.Shipping != 1000 {
		t.Fatalf("subtotal %d, discounts %d, shipping %d", p.Subtotal, p.DiscountTotal, p.Shipping)
	}
	if d := p.LineDiscounts["mug"]; len(d) != 1 || d[0].Value != 250 || p.LineDiscounts["tee"][0].Value != 200 {
		t.Fatalf("line discounts %+v", p.LineDiscounts)
	}
	want := map[string][]TaxLine{
		"mug": {{Value: 112, Name: "GST"}, {Value: 158, Name: "BC PST"}},
		"tee": {{Value: 90, Name: "GST"}, {Value: 126, Name: "BC PST"}},
	}
	for key, w := range want {
		if !slices.Equal(p.LineTaxes[key], w) {
			t.Fatalf("%s taxes %+v, want %+v", key, p.LineTaxes[key], w)
		}
	}
	if !slices.Equal(p.ShippingTaxes, []TaxLine{{Value: 50, Name: "GST"}}) {
		t.Fatalf("shipping taxes %+v", p.ShippingTaxes)
	}
	if !slices.Equal(p.Taxes, []TaxLine{{Value: 252, Name: "GST"}, {Value: 284, Name: "BC PST"}}) || p.TaxTotal != 536 {
		t.Fatalf("taxes %+v, total %d", p.Taxes, p.TaxTotal)
	}
	if p.Total != 4500-450+1000+536 {
		t.Fatalf("order total %d", p.Total)
	}
}

func TestIncludedTaxesOfSeveralZonesAreExtractedWithTheirCombinedRate(t *testing.T) {
	rules := Rules{TaxZones: []*ent.TaxZone{zone("GST", "CA", "", 50_000, false), zone("PST", "CA", "BC", 70_000, false)}}
	p := Price(&ent.Shop{PricesIncludeTax: true}, basisOrder("CA", "BC"), []*ent.LineItem{line("a", 1120, 1)}, nil, rules, time.Now())
	if !slices.Equal(p.Taxes, []TaxLine{{Value: 50, Name: "GST", IsIncluded: true}, {Value: 70, Name: "PST", IsIncluded: true}}) {
		t.Fatalf("taxes %+v", p.Taxes)
	}
	if p.TaxTotal != 0 || p.Total != 1120 {
		t.Fatalf("included taxes were added: tax total %d, total %d", p.TaxTotal, p.Total)
	}
}

func TestLineDiscountsAddUpToTheDiscountExactly(t *testing.T) {
	items := []*ent.LineItem{line("a", 100, 1), line("b", 100, 1), line("c", 100, 1)}
	rules := Rules{DiscountCodes: []*ent.DiscountCode{{Code: "ONE", Kind: discountcode.KindFixedAmount, Value: 100}}}
	p := Price(&ent.Shop{}, &ent.Order{}, items, nil, rules, time.Now())
	var got []int64
	for _, li := range items {
		got = append(got, p.LineDiscounts[li.LineItemKey][0].Value)
	}
	if !slices.Equal(got, []int64{34, 33, 33}) || p.DiscountTotal != 100 || p.Total != 200 {
		t.Fatalf("allocation %v, discount total %d, total %d", got, p.DiscountTotal, p.Total)
	}
}

func TestAmountsDoNotOverflowOnTheLargestLines(t *testing.T) {
	items := []*ent.LineItem{line("a", 1_000_000_000_000, 100_000)} // 10^17 minor units
	rules := Rules{TaxZones: []*ent.TaxZone{zone("Tax", "US", "", 1_000_000, false)},
		DiscountCodes: []*ent.DiscountCode{{Code: "HALF", Kind: discountcode.KindPercentage, Value: 5000}}}
	p := Price(&ent.Shop{}, basisOrder("US", ""), items, nil, rules, time.Now())
	if p.DiscountTotal != 5e16 || p.TaxTotal != 5e16 || p.Total != 1e17 {
		t.Fatalf("discount %d, tax %d, total %d", p.DiscountTotal, p.TaxTotal, p.Total)
	}
}
