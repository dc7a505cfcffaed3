package shops

import (
	"context"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
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
		if _, ok := FindCountry(in.CountryCodes[i]); !ok {
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
