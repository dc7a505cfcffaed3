package web

import (
	"net/http"
	"net/url"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/payment"
)

func (c *Console) giftCardRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/gift-cards", c.admin(c.giftCards))
	mux.Handle("POST /admin/gift-cards", c.admin(c.issueGiftCard))
	mux.Handle("POST /admin/gift-cards/lookup", c.admin(c.lookupGiftCard))
}

// giftCardsView is the gift cards page: the listing, the issue and look-up forms, and the
// outcome of the last action.
type giftCardsView struct {
	Cards  admin.Page[*ent.GiftCard]
	Pages  pagination
	Issue  form
	Lookup form
	Issued *payment.IssuedGiftCard
	Found  *ent.GiftCard
}

func (c *Console) giftCardsPage(q *request, status int, v giftCardsView) error {
	cards, err := c.svc.Admin.GiftCards(q.ctx(), q.shop, pageRequest(q.r))
	if err != nil {
		return err
	}
	v.Cards, v.Pages = cards, paginationOf(q.r, cards)
	if v.Issue.Values == nil {
		v.Issue = newForm(url.Values{"currency": {q.shop.Currency}})
	}
	if v.Lookup.Values == nil {
		v.Lookup = newForm(nil)
	}
	return q.render(status, giftCardsPage(v))
}

func (c *Console) giftCards(q *request) error {
	return c.giftCardsPage(q, http.StatusOK, giftCardsView{})
}

func (c *Console) issueGiftCard(q *request) error {
	d := newDecoder(q.r.PostForm)
	currency := d.str("currency")
	if currency == "" {
		currency = q.shop.Currency
	}
	in := payment.IssueGiftCardInput{Currency: currency, CardToken: d.str("card_token"), Pin: d.str("pin"),
		RecipientName: d.str("recipient_name"), Message: d.str("message"), CustomerName: d.str("customer_name"),
		CustomerEmail: d.str("customer_email"), ExpiryDate: d.date("expiry_date")}
	if amount := d.money("amount", currency); amount != nil {
		in.Amount = *amount
	}
	values := withoutSecret(q.r.PostForm, "pin")
	if !d.ok() {
		f := d.form()
		f.Values = values
		return c.giftCardsPage(q, http.StatusUnprocessableEntity, giftCardsView{Issue: f})
	}
	issued, err := c.svc.Payments.IssueGiftCard(q.ctx(), q.shop, in)
	if err != nil {
		f, err := invalid(values, err)
		if err != nil {
			return err
		}
		return c.giftCardsPage(q, http.StatusUnprocessableEntity, giftCardsView{Issue: f})
	}
	// The pin is shown once, on this answer, and never again: no redirect to a page that keeps it.
	return c.giftCardsPage(q, http.StatusCreated, giftCardsView{Issued: issued})
}

func (c *Console) lookupGiftCard(q *request) error {
	d := newDecoder(q.r.PostForm)
	card, err := c.svc.Payments.LookupGiftCard(q.ctx(), q.shop, payment.GiftCardLookup{PublicPaymentMethodID: d.str("public_payment_method_id"),
		CardToken: d.str("lookup_card_token"), CardPin: d.str("card_pin")})
	values := withoutSecret(q.r.PostForm, "card_pin")
	if err != nil {
		f, err := invalid(values, err)
		if err != nil {
			return err
		}
		return c.giftCardsPage(q, http.StatusUnprocessableEntity, giftCardsView{Lookup: f})
	}
	return c.giftCardsPage(q, http.StatusOK, giftCardsView{Lookup: newForm(values), Found: card})
}
