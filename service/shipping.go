package service

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/ent/shippingrate"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// ShippingRateInput is one rate of a new zone.
type ShippingRateInput struct {
	Name      string            `json:"name"`
	Code      string            `json:"code"`
	Kind      shippingrate.Kind `json:"kind"`
	Amount    int64             `json:"amount"`
	Min       int64             `json:"min"`
	Max       int64             `json:"max"`
	FreeAbove int64             `json:"free_above"`
}

// ShippingZoneInput is a new zone: its countries (none: every country) and rates.
type ShippingZoneInput struct {
	Name         string              `json:"name"`
	CountryCodes []string            `json:"country_codes"`
	Rates        []ShippingRateInput `json:"rates"`
}

// CreateShippingZone adds a zone with its rates.
func (s *Service) CreateShippingZone(ctx context.Context, sh *ent.Shop, in ShippingZoneInput) (*ent.ShippingZone, error) {
	p := input.Problems{}
	if strings.TrimSpace(in.Name) == "" {
		p.Add("name", "is required")
	}
	p.Text("name", in.Name, input.MaxShortText)
	if len(in.Rates) > input.MaxListEntries {
		p.Add("rates", "has more than "+strconv.Itoa(input.MaxListEntries)+" rates")
	}
	for i, c := range in.CountryCodes {
		in.CountryCodes[i] = strings.ToUpper(c)
		if _, ok := findCountry(in.CountryCodes[i]); !ok {
			p.Add("country_codes", c+" is not an ISO 3166 country code")
		}
	}
	if len(in.Rates) == 0 {
		p.Add("rates", "needs at least one rate")
	}
	for i, r := range in.Rates {
		f := "rates[" + strconv.Itoa(i) + "]"
		if r.Kind == "" {
			in.Rates[i].Kind = shippingrate.KindFlat
		} else if shippingrate.KindValidator(r.Kind) != nil {
			p.Add(f+".kind", "must be flat, by_subtotal or by_weight")
		}
		if strings.TrimSpace(r.Name) == "" || strings.TrimSpace(r.Code) == "" {
			p.Add(f, "needs a name and a code")
		}
		if r.Amount < 0 || r.Min < 0 || r.Max < 0 || r.FreeAbove < 0 || (r.Max > 0 && r.Max < r.Min) {
			p.Add(f, "amounts cannot be negative, and max cannot be below min")
		}
		if input.AmountOutOfBounds(r.Amount) || r.Min > input.MaxOrderSubtotal || r.Max > input.MaxOrderSubtotal || r.FreeAbove > input.MaxOrderSubtotal {
			p.Add(f, "amount "+input.AmountBoundText+"; min, max and free_above at most "+strconv.Itoa(input.MaxOrderSubtotal))
		}
		p.Text(f+".name", r.Name, input.MaxShortText)
		p.Text(f+".code", r.Code, input.MaxShortText)
	}
	if len(p) > 0 {
		return nil, problem.Validation("shipping.invalid_zone", "invalid shipping zone: "+p.Message(), p.Details())
	}
	var out *ent.ShippingZone
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		return createZone(ctx, tx.Client(), sh.ID, in, &out)
	})
	if err != nil {
		return nil, err
	}
	return out.Unwrap(), nil
}

func createZone(ctx context.Context, c *ent.Client, shopID int, in ShippingZoneInput, out **ent.ShippingZone) error {
	z, err := c.ShippingZone.Create().SetShopID(shopID).SetName(in.Name).SetCountryCodes(in.CountryCodes).Save(ctx)
	if err != nil {
		return err
	}
	for _, r := range in.Rates {
		if err := c.ShippingRate.Create().SetZoneID(z.ID).SetName(r.Name).SetCode(r.Code).SetKind(r.Kind).
			SetAmount(r.Amount).SetMin(r.Min).SetMax(r.Max).SetFreeAbove(r.FreeAbove).Exec(ctx); err != nil {
			return err
		}
	}
	*out = z
	return nil
}

// defaultShippingZone lets a new shop check out at once: everywhere, flat 10.00 "Standard".
var defaultShippingZone = ShippingZoneInput{Name: "Everywhere", Rates: []ShippingRateInput{
	{Name: "Standard", Code: "standard", Kind: shippingrate.KindFlat, Amount: 1000},
}}

func gramsOf(weight int, unit string) int64 {
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

// availableShippingLines prices every rate of the zones covering the shipping address.
func (s *Service) availableShippingLines(ctx context.Context, c *ent.Client, shopID int, o *ent.Order, items []*ent.LineItem) ([]schema.ShippingLine, error) {
	if o.ShippingAddress == nil {
		return []schema.ShippingLine{}, nil
	}
	var subtotal, grams int64
	needsShipping := false
	for _, li := range items {
		subtotal += li.Price * int64(li.Quantity)
		if li.RequiresShipping {
			needsShipping = true
			grams += gramsOf(li.Weight, li.WeightUnit) * int64(li.Quantity)
		}
	}
	if !needsShipping {
		return []schema.ShippingLine{}, nil
	}
	rules, err := s.shopRulesOf(ctx, c, shopID)
	if err != nil {
		return nil, err
	}
	lines := []schema.ShippingLine{}
	for _, z := range rules.shippingZones {
		if len(z.CountryCodes) > 0 && !slices.Contains(z.CountryCodes, o.ShippingAddress.CountryCode) {
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
	return lines, nil
}

// ShippingLineEntry is one offered shipping line on the wire: the spec's {id, line}, and the
// line's fields again at the top level, where the public frontend library reads them.
type ShippingLineEntry struct {
	ID          string              `json:"id"`
	Line        schema.ShippingLine `json:"line"`
	Description string              `json:"description"`
	Amount      int64               `json:"amount"`
	Code        string              `json:"code"`
}

func shippingLineEntry(l schema.ShippingLine) ShippingLineEntry {
	return ShippingLineEntry{ID: l.ID, Line: l, Description: l.Description, Amount: l.Amount, Code: l.Code}
}

// EstimateShippingLines answers the shipping lines the order would be offered at an address,
// without setting that address or changing anything else on the order.
func (s *Service) EstimateShippingLines(ctx context.Context, sess *OrderSession, in AddressInput) ([]ShippingLineEntry, *OrderView, error) {
	if err := validateAddress(ShippingAddress, &in, false); err != nil {
		return nil, nil, err
	}
	v, err := s.OrderState(ctx, sess)
	if err != nil {
		return nil, nil, err
	}
	// A copy of the order carries the address; the stored order and the view stay as they are.
	at := *v.Order
	at.ShippingAddress = &in
	lines, err := s.availableShippingLines(ctx, s.db.Read, sess.Shop.ID, &at, v.LineItems)
	if err != nil {
		return nil, nil, err
	}
	entries := make([]ShippingLineEntry, len(lines))
	for i, l := range lines {
		entries[i] = shippingLineEntry(l)
	}
	return entries, v, nil
}

// SelectShippingLine chooses one of the order's available shipping lines, by its id or
// position (index) and/or its code.
func (s *Service) SelectShippingLine(ctx context.Context, sess *OrderSession, index, code string) (*OrderView, error) {
	return s.changeOrderFieldsReadingItems(ctx, sess, func(read *ent.Client, o *ent.Order, items []*ent.LineItem, update *ent.OrderUpdate) error {
		lines, err := s.availableShippingLines(ctx, read, sess.Shop.ID, o, items)
		if err != nil {
			return err
		}
		for i, l := range lines {
			if (index != "" && (index == l.ID || index == strconv.Itoa(i))) || (index == "" && code != "" && code == l.Code) {
				update.SetSelectedShipping(&l)
				return nil
			}
		}
		return problem.Validation("shipping.line_not_available", "no available shipping line matches that index or code; set a shipping address first",
			map[string]any{"field": "index"})
	})
}
