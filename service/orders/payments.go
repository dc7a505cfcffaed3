package orders

import (
	"context"
	"crypto/hmac"
	"fmt"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/giftcard"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// TenderGiftCard is the payment type of a gift card tender.
const TenderGiftCard = "gift_card"

// PaymentInput is a tender as the frontend library sends it. Update and delete name the payment
// by id, or by its gateway and token (the library sends the same body as add).
type PaymentInput struct {
	ID               string         `json:"id"`
	GatewayPublicID  string         `json:"gateway_public_id"`
	Amount           *int64         `json:"amount"`
	Currency         string         `json:"currency"`
	Type             string         `json:"type"`
	DisplayString    string         `json:"display_string"`
	Token            string         `json:"token"`
	Retain           bool           `json:"retain"`
	WalletPayType    string         `json:"wallet_pay_type"`
	ExtraPaymentData map[string]any `json:"extra_payment_data"`
	// Pin opens a gift card tender (also accepted as extra_payment_data.pin).
	Pin string `json:"pin"`
}

// check bounds the tender's amount and texts.
func (in PaymentInput) check() error {
	p := input.Problems{}
	p.Amount("amount", in.Amount)
	if len(p) > 0 {
		return paymentError("payment.invalid_amount", "amount must be a positive amount in minor units, at most "+strconv.FormatInt(input.MaxAmount, 10), "amount")
	}
	p.Text("id", in.ID, input.MaxShortText)
	p.Text("gateway_public_id", in.GatewayPublicID, input.MaxShortText)
	p.Text("currency", in.Currency, input.MaxShortText)
	p.Text("type", in.Type, input.MaxShortText)
	p.Text("display_string", in.DisplayString, input.MaxShortText)
	p.Text("token", in.Token, input.MaxLongText)
	p.Text("wallet_pay_type", in.WalletPayType, input.MaxShortText)
	p.Text("pin", in.Pin, input.MaxShortText)
	p.Object("extra_payment_data", in.ExtraPaymentData)
	if len(p) > 0 {
		d := p.Details()
		for k := range p {
			d["field"] = k
		}
		return problem.Validation("payment.invalid_payment", "invalid payment: "+p.Message(), d)
	}
	return nil
}

func paymentError(typ, message, field string) *problem.Error {
	return problem.Validation(typ, message, map[string]any{"field": field})
}

// LivePayments are the tenders that count toward the order: not failed, not voided.
func LivePayments(ps []*ent.OrderPayment) []*ent.OrderPayment {
	var out []*ent.OrderPayment
	for _, p := range ps {
		if p.Status != orderpayment.StatusFailed && p.Status != orderpayment.StatusVoided {
			out = append(out, p)
		}
	}
	return out
}

// AddPayment puts a tender on the order: an amount (by default what is left to pay) through one
// of the shop's gateways, or from a gift card opened with its pin. Tenders may not add up to
// more than the order total.
func (s *Service) AddPayment(ctx context.Context, sess *OrderSession, in PaymentInput) (*OrderView, error) {
	if strings.TrimSpace(in.Token) == "" {
		return nil, paymentError("payment.invalid_payment", "token is required", "token")
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	// The gateway is looked up before the change's transaction, among the shop's cached
	// gateways, so that SQLite's one writer is not held for it; its errors still come after the
	// order's own. A gateway removed meanwhile is caught again when the order is processed.
	giftCard := strings.EqualFold(in.Type, TenderGiftCard)
	var (
		gw    *ent.ExternalPaymentGateway
		gwErr error
	)
	if !giftCard {
		var gateways map[string]*ent.ExternalPaymentGateway
		gateways, gwErr = s.shops.GatewaysByPublicID(ctx, sess.Shop)
		gw = gateways[in.GatewayPublicID]
	}
	// The answer is priced from the children the change priced it with, and the payment it
	// created, whose times are given as both databases keep them, so that it is the row.
	now := StoredNow()
	return s.changeOrderGivingChildren(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) ([]*ent.LineItem, []*ent.OrderPayment, error) {
		v, err := s.lockedView(ctx, tx, sess.Shop, o)
		if err != nil {
			return nil, nil, err
		}
		if in.Currency != "" && !strings.EqualFold(in.Currency, o.Currency) {
			return nil, nil, paymentError("payment.currency_mismatch", "the order is in "+o.Currency, "currency")
		}
		remaining := v.Pricing.Total - TenderedAmount(v.Payments)
		create := tx.OrderPayment.Create().SetOrderID(o.ID).SetPublicID(platform.NewPublicID()).SetCurrency(o.Currency).
			SetToken(in.Token).SetRetain(in.Retain).SetWalletPayType(in.WalletPayType).SetDisplayString(in.DisplayString).
			SetPosition(len(v.Payments)).SetPaymentParameters(in.ExtraPaymentData)
		amount := remaining
		if in.Amount != nil {
			amount = *in.Amount
		}
		if giftCard {
			card, err := s.openGiftCard(ctx, tx, sess, in)
			if err != nil {
				return nil, nil, err
			}
			if card.Currency != o.Currency {
				return nil, nil, paymentError("payment.currency_mismatch", "the gift card is in "+card.Currency+" and the order in "+o.Currency, "token")
			}
			if in.Amount == nil {
				amount = min(remaining, card.Balance)
			} else if amount > card.Balance {
				return nil, nil, paymentError("payment.gift_card_balance", fmt.Sprintf("the gift card holds %d", card.Balance), "amount")
			}
			display := in.DisplayString
			if display == "" {
				display = "Gift card ending " + lastN(card.CardToken, 4)
			}
			create.SetTenderType(TenderGiftCard).SetGiftCardID(card.ID).SetDisplayString(display).
				SetToken(card.PublicPaymentMethodID).SetPaymentParameters(nil)
		} else {
			if gwErr != nil {
				return nil, nil, gwErr
			}
			if gw == nil {
				return nil, nil, paymentError("payment.gateway_not_found", "no external payment gateway with public_id "+in.GatewayPublicID, "gateway_public_id")
			}
			if gw.Currency != o.Currency {
				return nil, nil, paymentError("payment.currency_mismatch", "the gateway takes "+gw.Currency+" and the order is in "+o.Currency, "gateway_public_id")
			}
			tender := in.Type
			if tender == "" {
				tender = "credit_card"
			}
			create.SetGatewayPublicID(gw.PublicID).SetTenderType(tender)
		}
		if amount <= 0 {
			return nil, nil, paymentError("payment.nothing_to_pay", "the order's payments already cover its total", "amount")
		}
		if amount > remaining {
			return nil, nil, paymentError("payment.exceeds_order_total", fmt.Sprintf("the payment of %d is more than the %d left to pay", amount, remaining), "amount")
		}
		created, err := create.SetAmount(amount).SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
		if err != nil {
			return nil, nil, err
		}
		return v.LineItems, append(v.Payments, created.Unwrap()), nil
	})
}

func lastN(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}

// openGiftCard finds the shop's card by its token and checks the pin; unknown card and wrong
// pin give the same answer, as in the lookup.
func (s *Service) openGiftCard(ctx context.Context, tx *ent.Tx, sess *OrderSession, in PaymentInput) (*ent.GiftCard, error) {
	pin := in.Pin
	if pin == "" {
		pin, _ = in.ExtraPaymentData["pin"].(string)
	}
	card, err := tx.GiftCard.Query().Where(giftcard.ShopID(sess.Shop.ID), giftcard.CardToken(in.Token)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	if card == nil || pin == "" || !hmac.Equal([]byte(payment.PinHash(sess.Shop, card.CardToken, pin)), []byte(card.PinHash)) {
		return nil, paymentError("gift_card.invalid_card", "no gift card matches this card token and pin", "token")
	}
	if card.ExpiryDate != nil && !card.ExpiryDate.After(s.p.Clock()) {
		return nil, paymentError("gift_card.expired", "the gift card has expired", "token")
	}
	if card.Balance <= 0 {
		return nil, paymentError("gift_card.empty", "the gift card has no balance left", "token")
	}
	return card, nil
}

// findPayment names one added tender of the order by id, or by gateway and token.
func findPayment(ctx context.Context, tx *ent.Tx, o *ent.Order, in PaymentInput) (*ent.OrderPayment, error) {
	q := tx.OrderPayment.Query().Where(orderpayment.OrderID(o.ID), orderpayment.StatusEQ(orderpayment.StatusAdded))
	switch {
	case in.ID != "":
		q = q.Where(orderpayment.PublicID(in.ID))
	case in.Token != "":
		q = q.Where(orderpayment.Token(in.Token))
		if in.GatewayPublicID != "" {
			q = q.Where(orderpayment.GatewayPublicID(in.GatewayPublicID))
		}
	default:
		return nil, paymentError("payment.invalid_payment", "name the payment by id, or by gateway_public_id and token", "id")
	}
	p, err := q.Order(orderpayment.ByID()).First(ctx)
	if ent.IsNotFound(err) {
		return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "payment.not_found",
			Message: "the order has no such payment that can still change", Details: map[string]any{"field": "id"}}
	}
	return p, err
}

// UpdatePayment changes the amount or display of a tender not yet sent to its gateway.
func (s *Service) UpdatePayment(ctx context.Context, sess *OrderSession, in PaymentInput) (*OrderView, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	return s.changeOrder(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error {
		p, err := findPayment(ctx, tx, o, in)
		if err != nil {
			return err
		}
		u := tx.OrderPayment.UpdateOne(p)
		if in.DisplayString != "" {
			u.SetDisplayString(in.DisplayString)
		}
		if in.Amount != nil {
			v, err := s.ViewOf(ctx, tx.Client(), sess.Shop, o, nil)
			if err != nil {
				return err
			}
			remaining := v.Pricing.Total - TenderedAmount(v.Payments) + p.Amount
			if *in.Amount > remaining {
				return paymentError("payment.exceeds_order_total", fmt.Sprintf("the payment of %d is more than the %d left to pay", *in.Amount, remaining), "amount")
			}
			if p.GiftCardID != nil {
				card, err := tx.GiftCard.Get(ctx, *p.GiftCardID)
				if err != nil {
					return err
				}
				if *in.Amount > card.Balance {
					return paymentError("payment.gift_card_balance", fmt.Sprintf("the gift card holds %d", card.Balance), "amount")
				}
			}
			u.SetAmount(*in.Amount)
		}
		return u.Exec(ctx)
	})
}

// RemovePayment takes a tender not yet sent to its gateway off the order.
func (s *Service) RemovePayment(ctx context.Context, sess *OrderSession, in PaymentInput) (*OrderView, error) {
	return s.changeOrder(ctx, sess, func(tx *ent.Tx, o *ent.Order, update *ent.OrderUpdate) error {
		p, err := findPayment(ctx, tx, o, in)
		if err != nil {
			return err
		}
		return tx.OrderPayment.DeleteOne(p).Exec(ctx)
	})
}
