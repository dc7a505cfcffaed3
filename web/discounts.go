package web

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/discountcode"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) discountRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/discount-codes", c.admin(c.discountCodes))
	mux.Handle("POST /admin/discount-codes", c.admin(c.createDiscountCode))
	mux.Handle("GET /admin/discount-codes/{id}", c.admin(c.editDiscountCode))
	mux.Handle("POST /admin/discount-codes/{id}", c.admin(c.updateDiscountCode))
	mux.Handle("GET /admin/discount-codes/{id}/delete", c.admin(c.confirmDeleteDiscountCode))
	mux.Handle("POST /admin/discount-codes/{id}/delete", c.admin(c.deleteDiscountCode))
}

func discountKinds() []option {
	return []option{{string(discountcode.KindPercentage), "Percentage"}, {string(discountcode.KindFixedAmount), "Fixed amount"},
		{string(discountcode.KindFreeShipping), "Free shipping"}}
}

func (c *Console) discountCodesPage(q *request, status int, f form) error {
	page, err := c.svc.Admin.DiscountCodes(q.ctx(), q.shop, pageRequest(q.r))
	if err != nil {
		return err
	}
	if f.Values == nil {
		f = newForm(url.Values{"kind": {string(discountcode.KindPercentage)}})
	}
	return q.render(status, discountCodesPage(page.Items, f, paginationOf(q.r, page)))
}

func (c *Console) discountCodes(q *request) error {
	return c.discountCodesPage(q, http.StatusOK, form{})
}

// discountValue reads the value field as the kind wants it: a percentage ("10" is 10%, kept
// in basis points) or an amount of money (minor units).
func discountValue(d *decoder, kind discountcode.Kind, currency string) *int64 {
	switch kind {
	case discountcode.KindPercentage:
		if ppm := d.percentPpm("value"); ppm != nil {
			bp := int64(*ppm / 100)
			return &bp
		}
		return nil
	case discountcode.KindFixedAmount:
		return d.money("value", currency)
	}
	return nil
}

// discountValueText shows a code's value as typed in the form.
func discountValueText(dc *ent.DiscountCode, currency string) string {
	switch dc.Kind {
	case discountcode.KindPercentage:
		return strconv.FormatFloat(float64(dc.Value)/100, 'f', -1, 64)
	case discountcode.KindFixedAmount:
		return majorUnits(dc.Value, currency)
	}
	return ""
}

func (c *Console) createDiscountCode(q *request) error {
	d := newDecoder(q.r.PostForm)
	kind := discountcode.Kind(d.str("kind"))
	in := shops.DiscountCodeInput{Code: d.str("code"), Text: d.str("text"), Kind: kind, StartsAt: d.date("starts_at"), EndsAt: d.date("ends_at")}
	if v := discountValue(d, kind, q.shop.Currency); v != nil {
		in.Value = *v
	}
	if v := d.money("minimum_subtotal", q.shop.Currency); v != nil {
		in.MinimumSubtotal = *v
	}
	if v := d.integer("usage_limit"); v != nil {
		in.UsageLimit = *v
	}
	if !d.ok() {
		return c.discountCodesPage(q, http.StatusUnprocessableEntity, d.form())
	}
	dc, err := c.svc.Shops.CreateDiscountCode(q.ctx(), q.shop, in)
	if err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.discountCodesPage(q, http.StatusUnprocessableEntity, f)
	}
	return q.redirect("/admin/discount-codes", "Discount code "+dc.Code+" created.")
}

func (c *Console) discountCode(q *request) (*ent.DiscountCode, error) {
	id, err := strconv.Atoi(q.r.PathValue("id"))
	if err != nil {
		return nil, &problem.Error{Kind: problem.NotFound, Type: "discount.code_not_found", Message: "no discount code with that id"}
	}
	return c.svc.Admin.DiscountCode(q.ctx(), q.shop, id)
}

func (c *Console) editDiscountCode(q *request) error {
	dc, err := c.discountCode(q)
	if err != nil {
		return err
	}
	f := newForm(url.Values{"text": {dc.Text}, "kind": {string(dc.Kind)}, "value": {discountValueText(dc, q.shop.Currency)},
		"minimum_subtotal": {majorUnits(dc.MinimumSubtotal, q.shop.Currency)}, "usage_limit": {strconv.Itoa(dc.UsageLimit)}})
	if dc.StartsAt != nil {
		f.Values.Set("starts_at", dc.StartsAt.UTC().Format("2006-01-02"))
	}
	if dc.EndsAt != nil {
		f.Values.Set("ends_at", dc.EndsAt.UTC().Format("2006-01-02"))
	}
	return q.render(http.StatusOK, discountCodePage(dc, f))
}

func (c *Console) updateDiscountCode(q *request) error {
	dc, err := c.discountCode(q)
	if err != nil {
		return err
	}
	d := newDecoder(q.r.PostForm)
	kind := discountcode.Kind(d.str("kind"))
	text := d.str("text")
	patch := shops.DiscountCodePatch{Text: &text, Kind: &kind, Value: discountValue(d, kind, q.shop.Currency),
		MinimumSubtotal: d.money("minimum_subtotal", q.shop.Currency), UsageLimit: d.integer("usage_limit"),
		StartsAt: input.Nullable[time.Time]{Set: true, Value: d.date("starts_at")}, EndsAt: input.Nullable[time.Time]{Set: true, Value: d.date("ends_at")}}
	if !d.ok() {
		return q.render(http.StatusUnprocessableEntity, discountCodePage(dc, d.form()))
	}
	if _, err := c.svc.Shops.UpdateDiscountCode(q.ctx(), q.shop, dc.ID, patch); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return q.render(http.StatusUnprocessableEntity, discountCodePage(dc, f))
	}
	return q.redirect("/admin/discount-codes", "Discount code "+dc.Code+" saved.")
}

func (c *Console) confirmDeleteDiscountCode(q *request) error {
	dc, err := c.discountCode(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete discount code", "Delete the discount code "+dc.Code+"? Shoppers can no longer apply it.",
		"/admin/discount-codes/"+strconv.Itoa(dc.ID)+"/delete", "/admin/discount-codes", "Delete code", nil))
}

func (c *Console) deleteDiscountCode(q *request) error {
	dc, err := c.discountCode(q)
	if err != nil {
		return err
	}
	if err := c.svc.Shops.DeleteDiscountCode(q.ctx(), q.shop, dc.ID); err != nil {
		return err
	}
	return q.redirect("/admin/discount-codes", "Discount code "+dc.Code+" deleted.")
}
