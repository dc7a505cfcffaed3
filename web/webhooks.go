package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/webhooks"
)

func (c *Console) webhookRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/webhooks", c.admin(c.webhooks))
	mux.Handle("POST /admin/webhooks", c.admin(c.createWebhook))
	mux.Handle("GET /admin/webhooks/{id}", c.admin(c.editWebhook))
	mux.Handle("POST /admin/webhooks/{id}", c.admin(c.updateWebhook))
	mux.Handle("GET /admin/webhooks/{id}/delete", c.admin(c.confirmDeleteWebhook))
	mux.Handle("POST /admin/webhooks/{id}/delete", c.admin(c.deleteWebhook))
	mux.Handle("POST /admin/webhooks/{id}/ping", c.admin(c.pingWebhook))
	mux.Handle("GET /admin/webhooks/{id}/deliveries", c.admin(c.webhookDeliveries))
	mux.Handle("POST /admin/webhooks/{id}/deliveries/{delivery}/replay", c.admin(c.replayWebhookDelivery))
	mux.Handle("POST /admin/webhooks/settings", c.admin(c.setEventSettings))
}

func topicOptions() []option {
	out := make([]option, len(webhooks.Topics))
	for i, t := range webhooks.Topics {
		out[i] = option{strconv.Itoa(t.ID), t.Name}
	}
	return out
}

func topicName(id int) string {
	for _, t := range webhooks.Topics {
		if t.ID == id {
			return t.Name
		}
	}
	return strconv.Itoa(id)
}

func (c *Console) webhooksPage(q *request, status int, f form) error {
	all, err := c.svc.Webhooks.WebhookSubscriptions(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	page := admin.PageOf(all, pageRequest(q.r))
	return q.render(status, webhooksPage(page.Items, q.shop.SharedSecret != "", f, paginationOf(q.r, page)))
}

func (c *Console) webhooks(q *request) error { return c.webhooksPage(q, http.StatusOK, newForm(nil)) }

func (c *Console) createWebhook(q *request) error {
	d := newDecoder(q.r.PostForm)
	topic := d.integer("webhook_topic_id")
	if !d.ok() {
		return c.webhooksPage(q, http.StatusUnprocessableEntity, d.form())
	}
	id := 0
	if topic != nil {
		id = *topic
	}
	if _, err := c.svc.Webhooks.CreateWebhookSubscription(q.ctx(), q.shop, id, d.str("callback_url")); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.webhooksPage(q, http.StatusUnprocessableEntity, f)
	}
	return q.redirect("/admin/webhooks", "Subscribed to "+topicName(id)+".")
}

func (c *Console) findWebhook(q *request) (*ent.WebhookSubscription, error) {
	all, err := c.svc.Webhooks.WebhookSubscriptions(q.ctx(), q.shop)
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		if strconv.Itoa(s.ID) == q.r.PathValue("id") {
			return s, nil
		}
	}
	return nil, &problem.Error{Kind: problem.NotFound, Type: "webhook.not_found", Message: "no webhook with that id"}
}

func (c *Console) editWebhook(q *request) error {
	s, err := c.findWebhook(q)
	if err != nil {
		return err
	}
	f := newForm(nil)
	f.Values.Set("callback_url", s.CallbackURL)
	return q.render(http.StatusOK, webhookPage(s, f))
}

func (c *Console) updateWebhook(q *request) error {
	s, err := c.findWebhook(q)
	if err != nil {
		return err
	}
	if _, err := c.svc.Webhooks.UpdateWebhookCallbackURL(q.ctx(), q.shop, s.ID, newDecoder(q.r.PostForm).str("callback_url")); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return q.render(http.StatusUnprocessableEntity, webhookPage(s, f))
	}
	return q.redirect("/admin/webhooks", "Webhook for "+topicName(s.WebhookTopicID)+" saved.")
}

func (c *Console) confirmDeleteWebhook(q *request) error {
	s, err := c.findWebhook(q)
	if err != nil {
		return err
	}
	return q.render(http.StatusOK, confirmPage("Delete webhook", "Stop sending "+topicName(s.WebhookTopicID)+" events to "+s.CallbackURL+"?",
		"/admin/webhooks/"+strconv.Itoa(s.ID)+"/delete", "/admin/webhooks", "Delete webhook", nil))
}

func (c *Console) deleteWebhook(q *request) error {
	s, err := c.findWebhook(q)
	if err != nil {
		return err
	}
	if err := c.svc.Webhooks.DeleteWebhookSubscription(q.ctx(), q.shop, s.ID); err != nil {
		return err
	}
	return q.redirect("/admin/webhooks", "Webhook deleted.")
}

func (c *Console) pingWebhook(q *request) error {
	s, err := c.findWebhook(q)
	if err != nil {
		return err
	}
	ping, err := c.svc.Webhooks.PingWebhookSubscription(q.ctx(), q.shop, s.ID)
	if err != nil {
		return err
	}
	if ping.Success {
		return q.redirect("/admin/webhooks", fmt.Sprintf("Test callback to %s answered %d in %d ms.", s.CallbackURL, ping.StatusCode, ping.LatencyMS))
	}
	return q.redirect("/admin/webhooks", fmt.Sprintf("Test callback to %s failed: %s.", s.CallbackURL, ping.Error))
}

// deliveriesPageSize is how many deliveries the console shows a page, newest first.
const deliveriesPageSize = 50

func (c *Console) webhookDeliveries(q *request) error {
	s, err := c.findWebhook(q)
	if err != nil {
		return err
	}
	status, orderID := q.r.URL.Query().Get("status"), strings.TrimSpace(q.r.URL.Query().Get("public_order_id"))
	f, err := webhooks.ParseDeliveryFilter("", status, orderID)
	if err != nil {
		return err
	}
	before, _ := strconv.Atoi(q.r.URL.Query().Get("before"))
	list, err := c.svc.Webhooks.ListWebhookDeliveries(q.ctx(), q.shop, s.ID, f, deliveriesPageSize+1, before)
	if err != nil {
		return err
	}
	older := ""
	if len(list) > deliveriesPageSize {
		list = list[:deliveriesPageSize]
		v := q.r.URL.Query()
		v.Set("before", strconv.Itoa(list[len(list)-1].ID))
		older = "/admin/webhooks/" + strconv.Itoa(s.ID) + "/deliveries?" + v.Encode()
	}
	return q.render(http.StatusOK, webhookDeliveriesPage(s, list, status, orderID, older))
}

func (c *Console) replayWebhookDelivery(q *request) error {
	s, err := c.findWebhook(q)
	if err != nil {
		return err
	}
	id, err := strconv.Atoi(q.r.PathValue("delivery"))
	if err != nil {
		return &problem.Error{Kind: problem.NotFound, Type: "webhook_delivery.not_found", Message: "no webhook delivery with that id"}
	}
	back := "/admin/webhooks/" + strconv.Itoa(s.ID) + "/deliveries"
	if _, err := c.svc.Webhooks.ReplayWebhookDelivery(q.ctx(), q.shop, s.ID, id); err != nil {
		if e, ok := problem.As(err); ok && e.Kind == problem.Invalid {
			return q.redirect(back, e.Message+".")
		}
		return err
	}
	return q.redirect(back, "Delivery queued to be sent again, with the same event id.")
}

func (c *Console) setEventSettings(q *request) error {
	d := newDecoder(q.r.PostForm)
	emails, giftCards := d.checkbox("abandoned_cart_emails"), d.checkbox("gift_cards_enabled")
	if _, err := c.svc.Shops.UpdateSettings(q.ctx(), q.shop, shops.SettingsInput{AbandonedCartEmails: &emails, GiftCardsEnabled: &giftCards}); err != nil {
		return err
	}
	return q.redirect("/admin/webhooks", "Event settings saved.")
}
