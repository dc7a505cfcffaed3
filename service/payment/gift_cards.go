package payment

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/giftcard"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// IssueGiftCardInput is a new gift card; the pin is generated unless given.
type IssueGiftCardInput struct {
	Amount        int64
	Currency      string
	CardToken     string
	Pin           string
	RecipientName string
	Message       string
	ExpiryDate    *time.Time
	CustomerName  string
	CustomerEmail string
}

// IssuedGiftCard is a new card and its pin, shown once.
type IssuedGiftCard struct {
	GiftCard *ent.GiftCard
	Pin      string
}

// PinHash keys the hash with the shop's secret key: pins are short, and a bare hash of a
// 6-digit pin is one table lookup away from the pin.
func PinHash(sh *ent.Shop, cardToken, pin string) string {
	m := hmac.New(sha256.New, sh.JwtKey)
	m.Write([]byte(cardToken + "\x00" + pin))
	return hex.EncodeToString(m.Sum(nil))
}

// IssueGiftCard creates a gift card with a balance.
func (s *Service) IssueGiftCard(ctx context.Context, sh *ent.Shop, in IssueGiftCardInput) (*IssuedGiftCard, error) {
	p := input.Problems{}
	if in.Amount <= 0 || in.Amount > input.MaxAmount {
		p.Add("amount", "must be a positive amount in minor units, at most "+strconv.Itoa(input.MaxAmount))
	}
	p.Text("card_token", in.CardToken, input.MaxShortText)
	p.Text("pin", in.Pin, input.MaxShortText)
	p.Text("recipient_name", in.RecipientName, input.MaxShortText)
	p.Text("message", in.Message, input.MaxLongText)
	p.Text("customer_name", in.CustomerName, input.MaxShortText)
	p.Text("customer_email", in.CustomerEmail, input.MaxShortText)
	currency := strings.ToUpper(in.Currency)
	if currency == "" {
		currency = sh.Currency
	}
	if input.Currency(currency) != nil {
		p.Add("currency", "must be an ISO 4217 code")
	}
	if in.CustomerEmail != "" {
		if _, err := mail.ParseAddress(in.CustomerEmail); err != nil {
			p.Add("customer_email", "is not an email address")
		}
	}
	if in.Pin != "" && len(in.Pin) < 4 {
		p.Add("pin", "must have at least 4 characters")
	}
	if len(p) > 0 {
		return nil, problem.Validation("gift_card.invalid_gift_card_data", "invalid gift card: "+p.Message(), p.Details())
	}
	token := in.CardToken
	if token == "" {
		token = strings.ToUpper(platform.RandomHex(8))
	}
	pin := in.Pin
	if pin == "" {
		pin = RandomDigits(8)
	}
	var out *ent.GiftCard
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		exists, err := tx.GiftCard.Query().Where(giftcard.ShopID(sh.ID), giftcard.CardToken(token)).Exist(ctx)
		if err != nil {
			return err
		}
		if exists {
			return problem.Validation("gift_card.card_token_taken", "a gift card with this card_token exists", map[string]any{"field": "card_token"})
		}
		out, err = tx.GiftCard.Create().SetShopID(sh.ID).SetPublicPaymentMethodID(platform.NewPublicID()).SetCardToken(token).
			SetPinHash(PinHash(sh, token, pin)).SetCurrency(currency).SetAmount(in.Amount).SetBalance(in.Amount).
			SetRecipientName(in.RecipientName).SetMessage(in.Message).SetNillableExpiryDate(in.ExpiryDate).
			SetCustomerName(in.CustomerName).SetCustomerEmail(in.CustomerEmail).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &IssuedGiftCard{GiftCard: out.Unwrap(), Pin: pin}, nil
}

// RandomDigits returns n random decimal digits (a gift card pin).
func RandomDigits(n int) string {
	b := make([]byte, n)
	for i := range b {
		d, err := rand.Int(rand.Reader, big.NewInt(10))
		if err != nil {
			panic(err)
		}
		b[i] = byte('0' + d.Int64())
	}
	return string(b)
}

// GiftCardLookup names a card by its payment method id, or by token and pin.
type GiftCardLookup struct {
	PublicPaymentMethodID string
	CardToken             string
	CardPin               string
}

// LookupGiftCard finds a card. An unknown card and a wrong pin get the same answer, so the
// lookup cannot be used to find which card tokens exist.
func (s *Service) LookupGiftCard(ctx context.Context, sh *ent.Shop, q GiftCardLookup) (*ent.GiftCard, error) {
	invalid := problem.Validation("gift_card.invalid_card", "no gift card matches this card token and pin", nil)
	switch {
	case q.PublicPaymentMethodID != "":
		g, err := s.p.DB.Read.GiftCard.Query().Where(giftcard.ShopID(sh.ID), giftcard.PublicPaymentMethodID(q.PublicPaymentMethodID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, problem.Validation("gift_card.invalid_card", "no gift card with this public_payment_method_id", nil)
		}
		return g, err
	case q.CardToken != "" && q.CardPin != "":
		g, err := s.p.DB.Read.GiftCard.Query().Where(giftcard.ShopID(sh.ID), giftcard.CardToken(q.CardToken)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, invalid
		}
		if err != nil {
			return nil, err
		}
		if !hmac.Equal([]byte(g.PinHash), []byte(PinHash(sh, q.CardToken, q.CardPin))) {
			return nil, invalid
		}
		return g, nil
	}
	return nil, problem.Validation("gift_card.missing_lookup", "give public_payment_method_id, or card_token with card_pin", nil)
}
