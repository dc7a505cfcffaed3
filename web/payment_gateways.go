package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func (c *Console) paymentGatewayRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/payment-gateways", c.admin(c.paymentGateways))
	mux.Handle("GET /admin/payment-gateways/new", c.admin(c.newPaymentGateway))
	mux.Handle("POST /admin/payment-gateways", c.admin(c.createPaymentGateway))
	mux.Handle("GET /admin/payment-gateways/{id}", c.admin(c.editPaymentGateway))
	mux.Handle("POST /admin/payment-gateways/{id}", c.admin(c.updatePaymentGateway))
	mux.Handle("POST /admin/payment-gateways/{id}/test", c.admin(c.testPaymentGateway))
	mux.Handle("GET /admin/payment-gateways/{id}/delete", c.admin(c.confirmDeletePaymentGateway))
	mux.Handle("POST /admin/payment-gateways/{id}/delete", c.admin(c.deletePaymentGateway))
	mux.Handle("POST /admin/payment-settings", c.admin(c.setPaymentSettings))
}

func (c *Console) paymentGateways(q *request) error {
	all, err := c.svc.Shops.ExternalPaymentGateways(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	page := admin.PageOf(all, pageRequest(q.r))
	return q.render(http.StatusOK, paymentGatewaysPage(page.Items, paginationOf(q.r, page)))
}

func (c *Console) findPaymentGateway(q *request) (*ent.ExternalPaymentGateway, error) {
	all, err := c.svc.Shops.ExternalPaymentGateways(q.ctx(), q.shop)
	if err != nil {
		return nil, err
	}
	id := q.r.PathValue("id")
	for _, g := range all {
		if g.PublicID == id {
			return g, nil
		}
	}
	return nil, &problem.Error{Kind: problem.NotFound, Type: "external_payment_gateway.external_payment_gateway_not_configured", Message: "no external payment gateway " + id + " is configured for this shop"}
}

func (c *Console) newPaymentGateway(q *request) error {
	f := newForm(url.Values{"currency": {q.shop.Currency}})
	return q.render(http.StatusOK, paymentGatewayPage("New payment gateway", "/admin/payment-gateways", nil, f))
}

// httpHeaders reads the headers textarea: one "Key: Value" a line.
func httpHeaders(text string) []schema.HTTPHeader {
	var out []schema.HTTPHeader
	for _, line := range strings.Split(text, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		k, v, _ := strings.Cut(line, ":")
		out = append(out, schema.HTTPHeader{Key: strings.TrimSpace(k), Value: strings.TrimSpace(v)})
	}
	return out
}

// paymentGatewayInput decodes the gateway form. A blank api_token keeps the stored one (the
// console never shows it back); "remove" clears it.
func paymentGatewayInput(values url.Values) shops.ExternalPaymentGatewayInput {
	d := newDecoder(values)
	str := func(name string) *string { v := d.str(name); return &v }
	flag := func(name string) *bool { v := d.checkbox(name); return &v }
	in := shops.ExternalPaymentGatewayInput{
		Name: str("name"), BaseURL: str("base_url"), IframeURL: d.optional("iframe_url"), Location: str("location"),
		HTTPHeaders: httpHeaders(values.Get("http_headers")), PartialCapture: flag("partial_capture"),
		AdditionalOrderDetails: flag("additional_order_details"), ProviderID: str("provider_id"), Currency: str("currency"),
		IsTest: flag("is_test"),
	}
	switch {
	case d.checkbox("remove_api_token"):
		in.APIToken = input.Nullable[string]{Set: true}
	case values.Get("api_token") != "":
		in.APIToken = input.Of(values.Get("api_token"))
	}
	return in
}

func (c *Console) createPaymentGateway(q *request) error {
	g, err := c.svc.Shops.CreateExternalPaymentGateway(q.ctx(), q.shop, paymentGatewayInput(q.r.PostForm))
	if err == nil {
		return q.redirect("/admin/payment-gateways", "Payment gateway "+g.Name+" created.")
	}
	f, err := invalid(withoutSecret(q.r.PostForm, "api_token"), err)
	if err != nil {
		return err
	}
	return q.render(http.StatusUnprocessableEntity, paymentGatewayPage("New payment gateway", "/admin/payment-gateways", nil, f))
}

// withoutSecret drops a secret from values shown back in a form.
func withoutSecret(values url.Values, name string) url.Values {
	out := url.Values{}
	for k, v := range values {
		if k != name {
			out[k] = v
		}
	}
	return out
}

func paymentGatewayValues(g *ent.ExternalPaymentGateway) url.Values {
	v := url.Values{"name": {g.Name}, "base_url": {g.BaseURL}, "iframe_url": {deref(g.IframeURL)}, "location": {g.Location},
		"provider_id": {g.ProviderID}, "currency": {g.Currency}}
	var lines []string
	for _, h := range g.HTTPHeaders {
		lines = append(lines, h.Key+": "+h.Value)
	}
	v.Set("http_headers", strings.Join(lines, "\n"))
	for name, on := range map[string]bool{"partial_capture": g.PartialCapture, "additional_order_details": g.AdditionalOrderDetails, "is_test": g.IsTest} {
		if on {
			v.Set(name, "1")
		}
	}
	return v
}

func (c *Console) editPaymentGateway(q *request) error {
	g, err := c.findPaymentGateway(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, paymentGatewayPage("Edit payment gateway", "/admin/payment-gateways/"+g.PublicID, g, newForm(paymentGatewayValues(g))))
}

func (c *Console) updatePaymentGateway(q *request) error {
	g, err := c.findPaymentGateway(q)
	if err != nil {
		return err
	}
	saved, err := c.svc.Shops.UpdateExternalPaymentGateway(q.ctx(), q.shop, g.PublicID, paymentGatewayInput(q.r.PostForm))
	if err == nil {
		return q.redirect("/admin/payment-gateways", "Payment gateway "+saved.Name+" saved.")
	}
	f, err := invalid(withoutSecret(q.r.PostForm, "api_token"), err)
	if err != nil {
		return err
	}
	return q.render(http.StatusUnprocessableEntity, paymentGatewayPage("Edit payment gateway", "/admin/payment-gateways/"+g.PublicID, g, f))
}

func (c *Console) testPaymentGateway(q *request) error {
	g, err := c.findPaymentGateway(q)
	if err != nil {
		return err
	}
	res, err := c.svc.Payments.TestExternalPaymentGateway(q.ctx(), q.shop, g.PublicID)
	if err != nil {
		return err
	}
	if q.htmx() {
		return q.render(http.StatusOK, connectionResult(g.PublicID, res))
	}
	return q.render(http.StatusOK, connectionTestPage(g, res))
}

func (c *Console) confirmDeletePaymentGateway(q *request) error {
	g, err := c.findPaymentGateway(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete payment gateway", "Delete the payment gateway "+g.Name+"? Checkouts stop offering it at once.",
		"/admin/payment-gateways/"+g.PublicID+"/delete", "/admin/payment-gateways", "Delete gateway", nil))
}

func (c *Console) deletePaymentGateway(q *request) error {
	if err := c.svc.Shops.DeleteExternalPaymentGateway(q.ctx(), q.shop, q.r.PathValue("id")); err != nil {
		return err
	}
	return q.redirect("/admin/payment-gateways", "Payment gateway deleted.")
}

// maskedToken shows whether a gateway has an api_token and its last four characters only.
func maskedToken(g *ent.ExternalPaymentGateway) string {
	if g == nil || g.APIToken == "" {
		return "none"
	}
	return shops.MaskSecret(g.APIToken)
}

// setPaymentSettings saves whether process_order only verifies payments.
func (c *Console) setPaymentSettings(q *request) error {
	verify := newDecoder(q.r.PostForm).checkbox("verify_payments_only")
	if _, err := c.svc.Shops.UpdateSettings(q.ctx(), q.shop, shops.SettingsInput{VerifyPaymentsOnly: &verify}); err != nil {
		return err
	}
	return q.redirect("/admin/payment-gateways", "Payment settings saved.")
}
