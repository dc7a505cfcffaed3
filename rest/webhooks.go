package rest

import (
	"net/http"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/webhooks"
)

func (a *API) registerWebhooks(mux router) {
	const base = "/checkout/shop/{shop}/webhooks/{webhook_id}"
	mux.Handle("GET "+base+"/deliveries", a.withShop(a.listWebhookDeliveries))
	mux.Handle("POST "+base+"/deliveries/{delivery_id}/replay", a.withShop(a.replayWebhookDelivery))
	mux.Handle("POST "+base+"/ping", a.withShop(a.pingWebhook))
}

type attemptJSON struct {
	ID           int       `json:"id"`
	AttemptedAt  time.Time `json:"attempted_at"`
	StatusCode   *int      `json:"status_code"`
	LatencyMS    int       `json:"latency_ms"`
	ResponseBody string    `json:"response_body"`
	Error        *string   `json:"error"`
	Replay       bool      `json:"replay"`
}

type deliveryJSON struct {
	ID             int           `json:"id"`
	WebhookID      int           `json:"webhook_id"`
	EventID        string        `json:"event_id"`
	Topic          string        `json:"topic"`
	PublicOrderID  any           `json:"public_order_id"`
	Status         string        `json:"status"`
	AttemptCount   int           `json:"attempt_count"`
	NextAttemptAt  *time.Time    `json:"next_attempt_at"`
	LastStatusCode *int          `json:"last_status_code"`
	LastError      *string       `json:"last_error"`
	DeliveredAt    *time.Time    `json:"delivered_at"`
	FailedAt       *time.Time    `json:"failed_at"`
	CreatedAt      time.Time     `json:"created_at"`
	Attempts       []attemptJSON `json:"attempts"`
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func deliveryBody(d *ent.WebhookDelivery) deliveryJSON {
	out := deliveryJSON{ID: d.ID, WebhookID: d.SubscriptionID, Topic: d.Topic, Status: d.Status.String(),
		AttemptCount: d.AttemptCount, NextAttemptAt: utc(d.NextAttemptAt), LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		DeliveredAt: utc(d.DeliveredAt), FailedAt: utc(d.FailedAt), CreatedAt: d.CreatedAt.UTC(), Attempts: []attemptJSON{}}
	if ev := d.Edges.Event; ev != nil {
		out.EventID, out.PublicOrderID = ev.EventID, ev.Payload["public_order_id"]
	}
	for _, at := range d.Edges.Attempts {
		out.Attempts = append(out.Attempts, attemptJSON{ID: at.ID, AttemptedAt: at.AttemptedAt.UTC(), StatusCode: at.StatusCode,
			LatencyMS: at.LatencyMs, ResponseBody: at.ResponseBody, Error: at.Error, Replay: at.Replay})
	}
	return out
}

func (a *API) listWebhookDeliveries(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := webhookID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	q := r.URL.Query()
	f, err := webhooks.ParseDeliveryFilter(q.Get("topic"), q.Get("status"), q.Get("public_order_id"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	limit, before := 0, 0
	if v := q.Get("limit"); v != "" {
		// 0 is the service's "not asked": a limit given must be from 1 up.
		if limit, err = strconv.Atoi(v); err != nil || limit == 0 {
			writeError(w, r, webhooks.InvalidLimit())
			return
		}
	}
	if v := q.Get("before"); v != "" {
		if before, err = strconv.Atoi(v); err != nil {
			writeError(w, r, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "request.invalid_cursor",
				Message: "before must be the id of a delivery", Details: map[string]any{"field": "before"}})
			return
		}
	}
	list, err := a.svc.Webhooks.ListWebhookDeliveries(r.Context(), sh, id, f, limit, before)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]deliveryJSON, len(list))
	for i, d := range list {
		out[i] = deliveryBody(d)
	}
	writeData(w, map[string]any{"deliveries": out})
}

func (a *API) replayWebhookDelivery(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := webhookID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	deliveryID, err := strconv.Atoi(r.PathValue("delivery_id"))
	if err != nil {
		writeError(w, r, &problem.Error{Kind: problem.NotFound, Code: problem.CodeNotFound, Type: "webhook_delivery.not_found", Message: "no webhook delivery with that id"})
		return
	}
	d, err := a.svc.Webhooks.ReplayWebhookDelivery(r.Context(), sh, id, deliveryID)
	if err != nil {
		writeError(w, r, err)
		return
	}
	// The attempt is queued, not made yet: it shows in the delivery's attempts when it is.
	writeJSON(w, http.StatusAccepted, map[string]any{"data": map[string]any{"delivery": deliveryBody(d)}})
}

func (a *API) pingWebhook(w http.ResponseWriter, r *http.Request, sh *ent.Shop) {
	id, err := webhookID(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	ping, err := a.svc.Webhooks.PingWebhookSubscription(r.Context(), sh, id)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"ping": ping})
}
