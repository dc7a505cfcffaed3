package rest

import (
	"net/http"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/payment"
)

func (a *API) registerGiftCards(mux router) {
	mux.Handle("GET /checkout/shop/{shop}/gift_card", a.withShop(a.lookupGiftCard))
}

func (a *API) lookupGiftCard(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	q := r.URL.Query()
	g, err := a.svc.Payments.LookupGiftCard(r.Context(), sh, payment.GiftCardLookup{
		PublicPaymentMethodID: q.Get("public_payment_method_id"), CardToken: q.Get("card_token"), CardPin: q.Get("card_pin"),
	})
	if err != nil {
		writeError(w, r, err)
		return
	}
	var expiry *string
	if g.ExpiryDate != nil {
		d := g.ExpiryDate.UTC().Format("2006-01-02")
		expiry = &d
	}
	writeData(w, map[string]any{"gift_card": map[string]any{
		"card_token": g.CardToken, "amount": g.Amount, "balance": g.Balance, "currency": g.Currency,
		"recipient_name": g.RecipientName, "message": g.Message, "expiry_date": expiry,
		"customer_name": g.CustomerName, "customer_email": g.CustomerEmail,
		"public_payment_method_id": g.PublicPaymentMethodID,
	}})
}
