package web

import (
	"net/http"
	"strconv"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
)

func (c *Console) webhookRoutes(mux *http.ServeMux) {
	mux.Handle("GET /admin/webhooks", c.admin(c.webhooks))
	mux.Handle("POST /admin/webhooks", c.admin(c.createWebhook))
	mux.Handle("GET /admin/webhooks/{id}", c.admin(c.editWebhook))
	mux.Handle("POST /admin/webhooks/{id}", c.admin(c.updateWebhook))
	mux.Handle("GET /admin/webhooks/{id}/delete", c.admin(c.confirmDeleteWebhook))
	mux.Handle("POST /admin/webhooks/{id}/delete", c.admin(c.deleteWebhook))
}

func topicOptions() []option {
	out := make([]option, len(service.WebhookTopics))
	for i, t := range service.WebhookTopics {
		out[i] = option{strconv.Itoa(t.ID), t.Name}
	}
	return out
}

func topicName(id int) string {
	for _, t := range service.WebhookTopics {
		if t.ID == id {
			return t.Name
		}
	}
	return strconv.Itoa(id)
}

func (c *Console) webhooksPage(q *request, status int, f form) error {
	all, err := c.svc.WebhookSubscriptions(q.ctx(), q.shop)
	if err != nil {
		return err
	}
	page := service.PageOf(all, pageRequest(q.r))
	return q.render(status, webhooksPage(page.Items, q.shop.SharedSecret != nil, f, paginationOf(q.r, page)))
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
	if _, err := c.svc.CreateWebhookSubscription(q.ctx(), q.shop, id, d.str("callback_url")); err != nil {
		f, err := invalid(q.r.PostForm, err)
		if err != nil {
			return err
		}
		return c.webhooksPage(q, http.StatusUnprocessableEntity, f)
	}
	return q.redirect("/admin/webhooks", "Subscribed to "+topicName(id)+".")
}

func (c *Console) findWebhook(q *request) (*ent.WebhookSubscription, error) {
	all, err := c.svc.WebhookSubscriptions(q.ctx(), q.shop)
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		if strconv.Itoa(s.ID) == q.r.PathValue("id") {
			return s, nil
		}
	}
	return nil, &service.Error{Status: http.StatusNotFound, Type: "webhook.not_found", Message: "no webhook with that id"}
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
	if _, err := c.svc.UpdateWebhookCallbackURL(q.ctx(), q.shop, s.ID, newDecoder(q.r.PostForm).str("callback_url")); err != nil {
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
	if err := c.svc.DeleteWebhookSubscription(q.ctx(), q.shop, s.ID); err != nil {
		return err
	}
	return q.redirect("/admin/webhooks", "Webhook deleted.")
}
