package pricing

import (
	"slices"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/ent/shippingrate"
)

// Grams is a weight given in unit (g, kg, lb or oz, catalog.WeightUnits) in whole grams: the
// weight shipping rates by weight are priced on, and the grams orders and subscriptions report.
func Grams(weight int, unit string) int64 {
	switch unit {
	case "kg":
		return int64(weight) * 1000
	case "lb":
		return int64(weight) * 45359 / 100
	case "oz":
		return int64(weight) * 2835 / 100
	}
	return int64(weight)
}

// Ships reports whether a line of items needs shipping.
func Ships(items []*ent.LineItem) bool {
	for _, li := range items {
		if li.RequiresShipping {
			return true
		}
	}
	return false
}

// ShippingLines prices every rate of the zones (with their rates) covering countryCode for
// items: a rate by subtotal or weight offers a line only within its bounds, and costs nothing
// from its free_above subtotal.
func ShippingLines(zones []*ent.ShippingZone, countryCode string, items []*ent.LineItem) []schema.ShippingLine {
	var subtotal, grams int64
	for _, li := range items {
		subtotal += li.Price * int64(li.Quantity)
		if li.RequiresShipping {
			grams += Grams(li.Weight, li.WeightUnit) * int64(li.Quantity)
		}
	}
	lines := []schema.ShippingLine{}
	for _, z := range zones {
		if len(z.CountryCodes) > 0 && !slices.Contains(z.CountryCodes, countryCode) {
			continue
		}
		for _, r := range z.Edges.Rates {
			measure := subtotal
			if r.Kind == shippingrate.KindByWeight {
				measure = grams
			}
			if r.Kind != shippingrate.KindFlat && (measure < r.Min || (r.Max > 0 && measure > r.Max)) {
				continue
			}
			amount := r.Amount
			if r.FreeAbove > 0 && subtotal >= r.FreeAbove {
				amount = 0
			}
			lines = append(lines, schema.ShippingLine{ID: strconv.Itoa(r.ID), Description: r.Name, Amount: amount, Code: r.Code})
		}
	}
	return lines
}
