package rest_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/payment"
)

func issueCard(t *testing.T, a *api) *payment.IssuedGiftCard {
	sh, err := a.svc.Shops.ShopByIdentifier(context.Background(), a.shop)
	if err != nil {
		t.Fatal(err)
	}
	card, err := a.svc.Payments.IssueGiftCard(context.Background(), sh, payment.IssueGiftCardInput{Amount: 5000, RecipientName: "Ada", CustomerEmail: "buyer@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return card
}

func TestGiftCardLookupByTokenAndPin(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		card := issueCard(t, a)
		g := a.do("GET", a.shopPath("/gift_card?card_token="+card.GiftCard.CardToken+"&card_pin="+card.Pin), nil).
			wantStatus(t, 200).data(t)["gift_card"].(map[string]any)
		if g["balance"].(float64) != 5000 || g["recipient_name"] != "Ada" {
			t.Fatalf("card %v", g)
		}
	})
}

func TestGiftCardLookupByPublicPaymentMethodID(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		card := issueCard(t, a)
		a.do("GET", a.shopPath("/gift_card?public_payment_method_id="+card.GiftCard.PublicPaymentMethodID), nil).wantStatus(t, 200)
	})
}

func TestGiftCardWrongPinIs422(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		card := issueCard(t, a)
		a.do("GET", a.shopPath("/gift_card?card_token="+card.GiftCard.CardToken+"&card_pin=0000"), nil).wantError(t, 422, "", "gift_card.invalid_card")
		a.do("GET", a.shopPath("/gift_card"), nil).wantError(t, 422, "", "gift_card.missing_lookup")
	})
}
