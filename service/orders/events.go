package orders

import (
	"context"
	"slices"
	"strings"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
)

// RecordOrderEvent writes an event of the order in tx, the transaction of the change that
// causes it: no change without its event, no event without its change. The payload carries the
// order's state as it is at that moment. The event's webhook deliveries and their jobs are
// written with it (recordEvent).
func (s *Service) RecordOrderEvent(ctx context.Context, tx *ent.Tx, sh *ent.Shop, o *ent.Order, topic string, extra map[string]any) error {
	if s.p.DB.Dialect == dialect.Postgres {
		// The order's row lock (most callers hold it already) makes its events, and so their
		// delivery ids, follow one another in the order they commit.
		if _, err := tx.Order.Query().Where(order.ID(o.ID)).ForUpdate().OnlyID(ctx); err != nil {
			return err
		}
	}
	v, err := s.ViewOf(ctx, tx.Client(), sh, o, nil)
	if err != nil {
		return err
	}
	return s.recordLockedOrderEvent(ctx, tx, v, topic, extra)
}

// recordLockedOrderEvent is RecordOrderEvent for a caller that holds the order's row lock and
// has just read its view in tx.
func (s *Service) recordLockedOrderEvent(ctx context.Context, tx *ent.Tx, v *OrderView, topic string, extra map[string]any) error {
	return s.RecordLockedOrderEvents(ctx, tx, v, []string{topic}, extra)
}

// RecordLockedOrderEvents is recordLockedOrderEvent for several topics of one change.
func (s *Service) RecordLockedOrderEvents(ctx context.Context, tx *ent.Tx, v *OrderView, topics []string, extra map[string]any) error {
	payload := map[string]any{
		"public_order_id":   v.Order.PublicOrderID,
		"platform_order_id": v.Order.PlatformOrderID,
		"application_state": v.State(),
	}
	for k, val := range extra {
		payload[k] = val
	}
	return s.recordEvents(ctx, tx, v.Shop.ID, &v.Order.ID, topics, payload)
}

// allFulfilled reports whether every line of the order has its whole quantity fulfilled.
func allFulfilled(ctx context.Context, tx *ent.Tx, orderID int) (bool, error) {
	lines, err := tx.LineItem.Query().Where(lineitem.OrderID(orderID)).All(ctx)
	if err != nil {
		return false, err
	}
	for _, li := range lines {
		if li.FulfilledQuantity < li.Quantity {
			return false, nil
		}
	}
	return len(lines) > 0, nil
}

// IssuePurchasedGiftCards issues, at processing and in its transaction, one gift card per unit of
// each line whose product is a gift card, and records gift_card/created for each, when the shop
// has gift cards enabled. The card's value is the line's unit price in the order's currency; the
// recipient and message come from the line's properties. The event carries the pin: it is the
// only way the buyer's platform learns it, since checkoutd keeps only its hash.
func (s *Service) IssuePurchasedGiftCards(ctx context.Context, tx *ent.Tx, v *OrderView) error {
	sh, o, lines := v.Shop, v.Order, v.LineItems
	if !sh.GiftCardsEnabled {
		return nil
	}
	var productIDs []string
	for _, li := range lines {
		if li.ProductID != "" {
			productIDs = append(productIDs, li.ProductID)
		}
	}
	if len(productIDs) == 0 {
		return nil
	}
	giftProducts, err := s.catalog.GiftCardProducts(ctx, tx, sh.ID, productIDs)
	if err != nil {
		return err
	}
	customerName, customerEmail := "", ""
	if c := o.Customer; c != nil {
		customerName, customerEmail = strings.TrimSpace(c.FirstName+" "+c.LastName), c.EmailAddress
	}
	for _, li := range lines {
		if !slices.Contains(giftProducts, li.ProductID) {
			continue
		}
		for range li.Quantity {
			token, pin := strings.ToUpper(platform.RandomHex(8)), payment.RandomDigits(8)
			card, err := tx.GiftCard.Create().SetShopID(sh.ID).SetPublicPaymentMethodID(platform.NewPublicID()).SetCardToken(token).
				SetPinHash(payment.PinHash(sh, token, pin)).SetCurrency(o.Currency).SetAmount(li.Price).SetBalance(li.Price).
				SetRecipientName(li.Properties["recipient_name"]).SetMessage(li.Properties["message"]).
				SetCustomerName(customerName).SetCustomerEmail(customerEmail).Save(ctx)
			if err != nil {
				return err
			}
			err = s.recordEvent(ctx, tx, sh.ID, &o.ID, platform.TopicGiftCardCreated, map[string]any{
				"public_order_id":   o.PublicOrderID,
				"platform_order_id": o.PlatformOrderID,
				"line_item_key":     li.LineItemKey,
				"gift_card": map[string]any{
					"public_payment_method_id": card.PublicPaymentMethodID, "card_token": card.CardToken, "card_pin": pin,
					"amount": card.Amount, "balance": card.Balance, "currency": card.Currency,
					"recipient_name": card.RecipientName, "message": card.Message,
					"customer_name": card.CustomerName, "customer_email": card.CustomerEmail,
				},
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// recordEvent writes an event in tx, the transaction of the change that causes it, with a
// delivery and its job for each subscription of the topic. An order's events are written with
// its row lock held (RecordOrderEvent), so that they follow one another in commit order.
func (s *Service) recordEvent(ctx context.Context, tx *ent.Tx, shopID int, orderID *int, topic string, payload map[string]any) error {
	return s.recordEvents(ctx, tx, shopID, orderID, []string{topic}, payload)
}

// recordEvents is recordEvent for several topics with one payload, in the order given: one
// statement writes the events (the outbox), one their deliveries.
func (s *Service) recordEvents(ctx context.Context, tx *ent.Tx, shopID int, orderID *int, topics []string, payload map[string]any) error {
	return s.p.Outbox.Record(ctx, tx, shopID, orderID, topics, payload)
}
