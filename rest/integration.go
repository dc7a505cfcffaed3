package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/webhooks"
)

func (a *API) registerIntegration(mux router) {
	const base = "/checkout/shop/{shop}"
	mux.Handle("POST "+base+"/integration/config", a.withShop(a.configureIntegration))
	mux.Handle("GET "+base+"/webhooks/topics", a.withShop(a.listWebhookTopics))
	mux.Handle("GET "+base+"/webhooks", a.withShop(a.listWebhooks))
	mux.Handle("POST "+base+"/webhooks", a.withShop(a.createWebhook))
	mux.Handle("PATCH "+base+"/webhooks/{webhook_id}", a.withShop(a.updateWebhook))
	mux.Handle("DELETE "+base+"/webhooks/{webhook_id}", a.withShop(a.deleteWebhook))
	mux.Handle("POST "+base+"/rsa_config", a.withShop(a.createRSAConfig))
	mux.Handle("PATCH "+base+"/rsa_config", a.withShop(a.updateRSAConfig))
	mux.Handle("DELETE "+base+"/rsa_config", a.withShop(a.deleteRSAConfig))
}

func (a *API) configureIntegration(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body struct {
		SharedSecret string `json:"shared_secret"`
	}
	if err := decode(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if _, err := a.svc.Shops.ConfigureSharedSecret(r.Context(), sh, body.SharedSecret); err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, []any{})
}

func (a *API) listWebhookTopics(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	writeData(w, map[string]any{"webhook_topics": webhooks.Topics})
}

type webhookJSON struct {
	ID             int       `json:"id"`
	WebhookTopicID int       `json:"webhook_topic_id"`
	CallbackURL    string    `json:"callback_url"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
	// Health (ours): false after several deliveries in a row failed.
	Healthy                     bool       `json:"healthy"`
	UnhealthySince              *time.Time `json:"unhealthy_since"`
	ConsecutiveFailedDeliveries int        `json:"consecutive_failed_deliveries"`
	LastDeliveredAt             *time.Time `json:"last_delivered_at"`
}

func webhookBody(s *ent.WebhookSubscription) webhookJSON {
	return webhookJSON{ID: s.ID, WebhookTopicID: s.WebhookTopicID, CallbackURL: s.CallbackURL, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC(),
		Healthy: webhooks.SubscriptionHealthy(s), UnhealthySince: utc(s.UnhealthySince), ConsecutiveFailedDeliveries: s.ConsecutiveFailedDeliveries,
		LastDeliveredAt: utc(s.LastDeliveredAt)}
}

func (a *API) listWebhooks(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	subs, err := a.svc.Webhooks.WebhookSubscriptions(r.Context(), sh)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]webhookJSON, len(subs))
	for i, s := range subs {
		out[i] = webhookBody(s)
	}
	writeData(w, map[string]any{"webhooks": out})
}

type webhookRequest struct {
	WebhookTopicID int    `json:"webhook_topic_id"`
	CallbackURL    string `json:"callback_url"`
}

func (a *API) createWebhook(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body webhookRequest
	if err := decode(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	sub, err := a.svc.Webhooks.CreateWebhookSubscription(r.Context(), sh, body.WebhookTopicID, body.CallbackURL)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"webhook": webhookBody(sub)})
}

func webhookID(r *http.Request) (int, error) {
	id, err := strconv.Atoi(r.PathValue("webhook_id"))
	if err != nil {
		return 0, &problem.Error{Kind: problem.NotFound, Code: problem.CodeNotFound, Type: "webhook.not_found", Message: "no webhook with that id"}
	}
	return id, nil
}

func (a *API) updateWebhook(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var body webhookRequest
	id, err := webhookID(r)
	if err == nil {
		err = decode(r, &body)
	}
	var sub *ent.WebhookSubscription
	if err == nil {
		sub, err = a.svc.Webhooks.UpdateWebhookCallbackURL(r.Context(), sh, id, body.CallbackURL)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"webhook": webhookBody(sub)})
}

func (a *API) deleteWebhook(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := webhookID(r)
	if err == nil {
		err = a.svc.Webhooks.DeleteWebhookSubscription(r.Context(), sh, id)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}

// rsaConfigBody never carries the shared secret back.
func rsaConfigBody(c *ent.RSAConfig) map[string]any {
	return map[string]any{"rsa_config": map[string]any{
		"url": c.URL, "shared_secret": shops.MaskSecret(c.SharedSecret), "timeout_ms": c.TimeoutMs,
		"created_at": c.CreatedAt.UTC(), "updated_at": c.UpdatedAt.UTC(),
	}}
}

func (a *API) createRSAConfig(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.RSAConfigInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.svc.Shops.CreateRSAConfig(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, rsaConfigBody(c))
}

func (a *API) updateRSAConfig(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	var in shops.RSAConfigInput
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.svc.Shops.UpdateRSAConfig(r.Context(), sh, in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, rsaConfigBody(c))
}

func (a *API) deleteRSAConfig(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	if err := a.svc.Shops.DeleteRSAConfig(r.Context(), sh); err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{})
}
