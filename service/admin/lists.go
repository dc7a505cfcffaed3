package admin

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/ent/giftcard"
	"github.com/checkoutd/checkoutd/ent/shippingrate"
	"github.com/checkoutd/checkoutd/ent/shippingzone"
	"github.com/checkoutd/checkoutd/ent/taxzone"
	"github.com/checkoutd/checkoutd/service/shops"
)

// The admin console's read-only listings of what grows without bound (gift cards, orders, the
// catalog, codes), one page at a time, scoped by the caller's shop like every other query.

// MaxPerPage bounds one page of an admin listing.
const MaxPerPage = 100

// PageRequest asks for one page of a listing; pages count from 1.
type PageRequest struct {
	Page    int
	PerPage int
}

func (p PageRequest) normalized() PageRequest {
	if p.Page < 1 {
		p.Page = 1
	}
	if p.PerPage < 1 {
		p.PerPage = 20
	}
	p.PerPage = min(p.PerPage, MaxPerPage)
	return p
}

func (p PageRequest) offset() int { return (p.Page - 1) * p.PerPage }

// Page is one page of a listing and the size of the whole listing.
type Page[T any] struct {
	Items   []T
	Total   int
	Page    int
	PerPage int
}

// PageOf cuts one page out of a listing already read whole (the configuration lists, which stay
// small: a shop has a handful of gateways or elements, not thousands).
func PageOf[T any](all []T, req PageRequest) Page[T] {
	req = req.normalized()
	start := min(req.offset(), len(all))
	end := min(start+req.PerPage, len(all))
	return Page[T]{Items: all[start:end], Total: len(all), Page: req.Page, PerPage: req.PerPage}
}

// PageQuery is what the ent queries of a listing have in common.
type PageQuery[T any, Q any] interface {
	Count(context.Context) (int, error)
	Clone() Q
	Offset(int) Q
	Limit(int) Q
	All(context.Context) ([]T, error)
}

// Paged reads one page of a listing, and counts the whole listing.
func Paged[T any, Q PageQuery[T, Q]](ctx context.Context, q Q, req PageRequest) (Page[T], error) {
	req = req.normalized()
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return Page[T]{}, err
	}
	items, err := q.Offset(req.offset()).Limit(req.PerPage).All(ctx)
	if err != nil {
		return Page[T]{}, err
	}
	return Page[T]{Items: items, Total: total, Page: req.Page, PerPage: req.PerPage}, nil
}

// GiftCards lists the shop's gift cards, newest first.
func (s *Service) GiftCards(ctx context.Context, sh *ent.Shop, req PageRequest) (Page[*ent.GiftCard], error) {
	q := s.p.DB.Read.GiftCard.Query().Where(giftcard.ShopID(sh.ID)).Order(ent.Desc(giftcard.FieldID))
	return Paged[*ent.GiftCard](ctx, q, req)
}

// ShippingZones lists the shop's shipping zones with their rates, oldest first.
func (s *Service) ShippingZones(ctx context.Context, sh *ent.Shop, req PageRequest) (Page[*ent.ShippingZone], error) {
	q := s.p.DB.Read.ShippingZone.Query().Where(shippingzone.ShopID(sh.ID)).
		WithRates(func(q *ent.ShippingRateQuery) { q.Order(shippingrate.ByAmount(), shippingrate.ByID()) }).
		Order(shippingzone.ByID())
	return Paged[*ent.ShippingZone](ctx, q, req)
}

// TaxZones lists the shop's tax zones by country and province.
func (s *Service) TaxZones(ctx context.Context, sh *ent.Shop, req PageRequest) (Page[*ent.TaxZone], error) {
	q := s.p.DB.Read.TaxZone.Query().Where(taxzone.ShopID(sh.ID)).
		Order(taxzone.ByCountryCode(), taxzone.ByProvinceCode(), taxzone.ByID())
	return Paged[*ent.TaxZone](ctx, q, req)
}

// TaxZone returns one tax zone of the shop.
func (s *Service) TaxZone(ctx context.Context, sh *ent.Shop, id int) (*ent.TaxZone, error) {
	z, err := s.p.DB.Read.TaxZone.Query().Where(taxzone.ShopID(sh.ID), taxzone.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, shops.TaxZoneNotFound()
	}
	return z, err
}

// DiscountCodes lists the shop's discount codes by code.
func (s *Service) DiscountCodes(ctx context.Context, sh *ent.Shop, req PageRequest) (Page[*ent.DiscountCode], error) {
	q := s.p.DB.Read.DiscountCode.Query().Where(discountcode.ShopID(sh.ID)).Order(discountcode.ByCode())
	return Paged[*ent.DiscountCode](ctx, q, req)
}

// DiscountCode returns one discount code of the shop.
func (s *Service) DiscountCode(ctx context.Context, sh *ent.Shop, id int) (*ent.DiscountCode, error) {
	dc, err := s.p.DB.Read.DiscountCode.Query().Where(discountcode.ShopID(sh.ID), discountcode.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, shops.DiscountCodeNotFound()
	}
	return dc, err
}
