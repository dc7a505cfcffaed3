package service

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Node loads any object by its global id, but only one that belongs to the caller's shop:
// another shop's object is reported exactly like a missing one.
func (s *Service) Node(ctx context.Context, sh *ent.Shop, id int) (ent.Noder, error) {
	// The row is loaded whole, without the caller's field selection, so its owner is known.
	plain, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	n, err := s.db.Client.Noder(plain, id)
	if a, ok := n.(*ent.WebhookAttempt); ok && err == nil {
		// An attempt belongs to the shop of its delivery.
		if d, err := s.db.Read.WebhookDelivery.Get(plain, a.DeliveryID); err == nil && d.ShopID == sh.ID {
			return a, nil
		}
		return nil, problem.NotFoundError("node.not_found", "no object with that id")
	}
	if a, ok := n.(*ent.ConnectorAttempt); ok && err == nil {
		// An attempt belongs to the shop of its call.
		if c, err := s.db.Read.ConnectorCall.Get(plain, a.CallID); err == nil && c.ShopID == sh.ID {
			return a, nil
		}
		return nil, problem.NotFoundError("node.not_found", "no object with that id")
	}
	if err != nil || ownerOf(n) != sh.ID {
		return nil, problem.NotFoundError("node.not_found", "no object with that id")
	}
	return n, nil
}

func ownerOf(n ent.Noder) int {
	switch v := n.(type) {
	case *ent.Shop:
		return v.ID
	case *ent.CorsDomain:
		return v.ShopID
	case *ent.LifeElement:
		return v.ShopID
	case *ent.ExternalPaymentGateway:
		return v.ShopID
	case *ent.APIOverride:
		return v.ShopID
	case *ent.RSAConfig:
		return v.ShopID
	case *ent.WebhookSubscription:
		return v.ShopID
	case *ent.WebhookDelivery:
		return v.ShopID
	case *ent.Flow:
		return v.ShopID
	case *ent.GiftCard:
		return v.ShopID
	case *ent.Order:
		return v.ShopID
	case *ent.Product:
		return v.ShopID
	case *ent.Variant:
		return v.ShopID
	case *ent.ShippingZone:
		return v.ShopID
	case *ent.TaxZone:
		return v.ShopID
	case *ent.DiscountCode:
		return v.ShopID
	case *ent.ConnectorCall:
		return v.ShopID
	case *ent.PlatformSync:
		return v.ShopID
	case *ent.PlatformOrder:
		return v.ShopID
	case *ent.RemoteExchange:
		return v.ShopID
	}
	return 0
}
