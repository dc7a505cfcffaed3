package web

import (
	"context"
	"net/http"
	"net/url"
	"slices"

	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
)

func (c *Console) orderRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/orders", c.admin(c.orders))
	mux.Handle("GET /admin/orders/{id}", c.admin(c.order))
	mux.Handle("POST /admin/orders/{id}/capture", c.admin(c.captureOrder))
	mux.Handle("POST /admin/orders/{id}/charge", c.admin(c.chargePayment))
	mux.Handle("POST /admin/orders/{id}/refund", c.admin(c.refundOrder))
	mux.Handle("POST /admin/orders/{id}/cancel", c.admin(c.cancelOrder))
}

func (c *Console) orders(q *request) error {
	query := q.r.URL.Query()
	d := newDecoder(query)
	filter := admin.OrderFilter{Query: d.str("q"), Status: d.str("status"), From: d.date("from"), To: d.date("to"), PageRequest: pageRequest(q.r)}
	f := newForm(query)
	if !d.ok() {
		return q.render(http.StatusUnprocessableEntity, ordersPage(nil, d.form(), pagination{}))
	}
	page, err := c.svc.Admin.Orders(q.ctx(), q.shop, filter)
	if err != nil {
		if f, err = invalid(query, err); err != nil {
			return err
		}
		return q.render(http.StatusUnprocessableEntity, ordersPage(nil, f, pagination{}))
	}
	return q.render(http.StatusOK, ordersPage(page.Items, f, paginationOf(q.r, page)))
}

// orderForms are the order page's money forms, each with its own field names.
type orderForms struct {
	Capture, Charge, Refund, Cancel form
}

func (c *Console) orderPage(q *request, status int, forms orderForms) error {
	d, err := c.svc.Admin.OrderDetail(q.ctx(), q.shop, q.r.PathValue("id"))
	if err != nil {
		return err
	}
	for _, f := range []*form{&forms.Capture, &forms.Charge, &forms.Refund, &forms.Cancel} {
		if f.Values == nil {
			*f = newForm(nil)
		}
	}
	rc, err := c.svc.Shops.RemoteControl(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	return q.render(status, orderPage(d, rc, forms))
}

func (c *Console) order(q *request) error { return c.orderPage(q, http.StatusOK, orderForms{}) }

// moneyAction is a capture, refund or cancel of an order, run once the admin has confirmed it.
type moneyAction struct {
	Title, Question, Verb string
	// Fields are the form's fields, carried through the confirmation; the first one shows a
	// refusal that names no field.
	Fields []string
	// Rename maps the service's field names (the API's) to the form's.
	Rename map[string]string
	Form   func(*orderForms) *form
	// Call runs the action with checkout.Idempotently under key and request.
	Call func(sess *orders.OrderSession, key string, request []byte) (string, error)
}

// run asks for confirmation first. The confirmation carries an idempotency key made when it was
// shown, so that submitting it twice replays the first call's outcome instead of moving money
// twice. The request is the action and the fields the admin confirmed.
func (c *Console) runMoneyAction(q *request, a moneyAction) error {
	id := q.r.PathValue("id")
	if q.r.PostForm.Get("confirmed") == "" {
		carry := map[string]string{"operation_key": randomToken()}
		for _, name := range a.Fields {
			carry[name] = q.r.PostForm.Get(name)
		}
		return q.render(http.StatusOK, confirmPage(a.Title, a.Question, orderURL(id)+"/"+a.Verb, orderURL(id), a.Title, carry))
	}
	sess, err := c.svc.Orders.BackendOrderSession(q.ctx(), q.shop, id)
	if err != nil {
		return err
	}
	confirmed := url.Values{}
	for _, name := range a.Fields {
		confirmed[name] = q.r.PostForm[name]
	}
	request := []byte("console " + q.r.URL.Path + "\n" + confirmed.Encode())
	msg, err := a.Call(sess, q.r.PostForm.Get("operation_key"), request)
	if err == nil {
		return q.redirect(orderURL(id), msg)
	}
	f, err := invalid(q.r.PostForm, err)
	if err != nil {
		return err
	}
	f = f.renamed(a.Rename)
	if !slices.ContainsFunc(a.Fields, func(name string) bool { return f.Errors[name] != "" }) {
		f.Errors[a.Fields[0]] = f.Message
	}
	forms := orderForms{}
	*a.Form(&forms) = f
	return c.orderPage(q, http.StatusUnprocessableEntity, forms)
}

func (c *Console) captureOrder(q *request) error {
	d := newDecoder(q.r.PostForm)
	amount := d.money("capture_amount", q.shop.Currency)
	if !d.ok() {
		return c.orderPage(q, http.StatusUnprocessableEntity, orderForms{Capture: d.form()})
	}
	question := "Capture everything still authorized on this order?"
	if amount != nil {
		question = "Capture " + formatMoney(*amount, q.shop.Currency) + " on this order?"
	}
	return c.runMoneyAction(q, moneyAction{Title: "Capture payment", Question: question, Verb: "capture",
		Fields: []string{"capture_amount"}, Rename: map[string]string{"amount": "capture_amount"},
		Form: func(f *orderForms) *form { return &f.Capture },
		Call: func(sess *orders.OrderSession, key string, request []byte) (string, error) {
			res, err := checkout.Idempotently(q.ctx(), c.svc.Checkout, sess.Shop, key, request, func(ctx context.Context, operationKey string) (*checkout.CaptureResult, error) {
				return c.svc.Checkout.Capture(ctx, sess, checkout.CaptureScope{Full: amount == nil}, checkout.CaptureInput{Amount: amount}, operationKey)
			})
			if err != nil {
				return "", err
			}
			switch {
			case res.Pending:
				return "Capture sent: the gateway is still settling it.", nil
			case res.Partial():
				return "Captured in part; paid so far " + formatMoney(res.PaidTotal, sess.Order.Currency) + ". Some captures were refused, see the ledger.", nil
			}
			return "Captured; paid so far " + formatMoney(res.PaidTotal, sess.Order.Currency) + ".", nil
		}})
}

// chargePayment authorizes and charges a payment only verified at checkout (Capture Specific
// Payment of a payment awaitingPreAuth).
func (c *Console) chargePayment(q *request) error {
	d := newDecoder(q.r.PostForm)
	paymentID := d.str("charge_payment")
	amount := d.money("charge_amount", q.shop.Currency)
	if !d.ok() {
		return c.orderPage(q, http.StatusUnprocessableEntity, orderForms{Charge: d.form()})
	}
	question := "Authorize and charge this payment?"
	if amount != nil {
		question = "Authorize and charge " + formatMoney(*amount, q.shop.Currency) + " on this payment?"
	}
	return c.runMoneyAction(q, moneyAction{Title: "Charge payment", Question: question,
		Verb: "charge", Fields: []string{"charge_amount", "charge_payment"},
		Rename: map[string]string{"amount": "charge_amount", "payment_id": "charge_payment"},
		Form:   func(f *orderForms) *form { return &f.Charge },
		Call: func(sess *orders.OrderSession, key string, request []byte) (string, error) {
			res, err := checkout.Idempotently(q.ctx(), c.svc.Checkout, sess.Shop, key, request, func(ctx context.Context, operationKey string) (*checkout.CaptureResult, error) {
				return c.svc.Checkout.Capture(ctx, sess, checkout.CaptureScope{PaymentID: paymentID}, checkout.CaptureInput{Amount: amount}, operationKey)
			})
			if err != nil {
				return "", err
			}
			if res.Pending {
				return "Charge sent: the gateway is still settling it.", nil
			}
			return "Charged; paid so far " + formatMoney(res.PaidTotal, sess.Order.Currency) + ".", nil
		}})
}

func (c *Console) refundOrder(q *request) error {
	d := newDecoder(q.r.PostForm)
	amount := d.money("refund_amount", q.shop.Currency)
	if !d.ok() {
		return c.orderPage(q, http.StatusUnprocessableEntity, orderForms{Refund: d.form()})
	}
	question := "Refund everything captured on this order, shipping and taxes included?"
	if amount != nil {
		question = "Refund " + formatMoney(*amount, q.shop.Currency) + " on this order?"
	}
	return c.runMoneyAction(q, moneyAction{Title: "Refund", Question: question, Verb: "refund",
		Fields: []string{"refund_amount", "refund_reason", "email_notification"}, Rename: map[string]string{"amount": "refund_amount", "reason": "refund_reason"},
		Form: func(f *orderForms) *form { return &f.Refund },
		Call: func(sess *orders.OrderSession, key string, request []byte) (string, error) {
			in := checkout.RefundInput{Reason: d.str("refund_reason"), EmailNotification: d.checkbox("email_notification"), Amount: amount}
			res, err := checkout.Idempotently(q.ctx(), c.svc.Checkout, sess.Shop, key, request, func(ctx context.Context, operationKey string) (*checkout.RefundResult, error) {
				return c.svc.Checkout.Refund(ctx, sess, checkout.CaptureScope{Full: amount == nil}, in, operationKey)
			})
			if err != nil {
				return "", err
			}
			switch {
			case res.Pending:
				return "Refund sent: a gateway is still settling it.", nil
			case res.Partial:
				return "Refunded " + formatMoney(res.AmountRefunded, sess.Order.Currency) + "; some refunds failed, see the ledger.", nil
			}
			return "Refunded " + formatMoney(res.AmountRefunded, sess.Order.Currency) + ".", nil
		}})
}

func (c *Console) cancelOrder(q *request) error {
	d := newDecoder(q.r.PostForm)
	question := "Cancel this order? Open authorizations are voided and stock goes back."
	if d.checkbox("cancel_refund") {
		question = "Cancel this order and refund what was captured? Open authorizations are voided and stock goes back."
	}
	return c.runMoneyAction(q, moneyAction{Title: "Cancel order", Question: question, Verb: "cancel",
		Fields: []string{"cancel_reason", "cancel_refund"}, Rename: map[string]string{"reason": "cancel_reason"},
		Form: func(f *orderForms) *form { return &f.Cancel },
		Call: func(sess *orders.OrderSession, key string, request []byte) (string, error) {
			in := checkout.CancelInput{Reason: d.str("cancel_reason"), Refund: d.checkbox("cancel_refund")}
			// The page shows the order afresh; nothing of the result needs keeping.
			_, err := checkout.Idempotently(q.ctx(), c.svc.Checkout, sess.Shop, key, request, func(ctx context.Context, operationKey string) (struct{}, error) {
				_, err := c.svc.Checkout.CancelOrder(ctx, sess, in, operationKey)
				return struct{}{}, err
			})
			if err != nil {
				return "", err
			}
			return "Order cancelled.", nil
		}})
}

// orderURL is the admin page of one order.
func orderURL(id string) string { return "/admin/orders/" + url.PathEscape(id) }

// chargeOptions are the payments the charge form offers, with what each was verified for.
func chargeOptions(d *admin.OrderDetail) []option {
	out := make([]option, 0, len(d.Chargeable))
	for _, p := range d.Chargeable {
		out = append(out, option{Value: p.PublicID, Label: p.DisplayString + " (up to " + formatMoney(p.Amount, p.Currency) + ")"})
	}
	return out
}
