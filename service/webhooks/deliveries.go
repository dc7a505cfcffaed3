package webhooks

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/event"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/webhookdelivery"
	"github.com/checkoutd/checkoutd/ent/webhooksubscription"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/webhook"
)

// Webhook delivery. Every event of a topic gets one delivery per subscription of that topic,
// written with the event and with the queue job that sends it. The job POSTs the event; a 2xx
// ends it, anything else is retried after a wait that doubles from the retry base (with
// jitter), until the attempts run out and the delivery is failed. Each attempt is logged.
// Deliveries of one order to one receiver (a callback URL, which may hold subscriptions to
// several topics) go out in the order the events happened: a delivery waits while an earlier
// one of its order to the same URL is still pending.

const (
	// DefaultRetryBase is the wait before the first retry (CHECKOUT_WEBHOOK_RETRY_BASE).
	DefaultRetryBase = 10 * time.Second
	// DefaultMaxAttempts is the first attempt and 17 retries: with the 10 s base the
	// waits are 10 s, 20 s, ... doubling to 11.4 h, then 11.4 h, about 2.8 days in all.
	DefaultMaxAttempts = 18
	// webhookBackoffDoublings is how many times the wait doubles before it stays put.
	webhookBackoffDoublings = 12
	// UnhealthyAfterFailedDeliveries failed deliveries in a row flag a subscription unhealthy.
	UnhealthyAfterFailedDeliveries = 3
)

// RetryWait is the nominal wait before retry number retry (1 for the first retry):
// base doubled retry-1 times, at most webhookBackoffDoublings times.
func RetryWait(base time.Duration, retry int) time.Duration {
	return base << min(max(retry-1, 0), webhookBackoffDoublings)
}

// retryWait is the nominal wait give or take 10%, so that the retries of many deliveries that
// failed together (a receiver that was down) do not all come back at the same instant.
func (s *Service) retryWait(retry int) time.Duration {
	w := RetryWait(s.retryBase, retry)
	return time.Duration(float64(w) * (0.9 + 0.2*rand.Float64()))
}

func webhookTopicID(name string) (int, bool) {
	for _, t := range Topics {
		if t.Name == name {
			return t.ID, true
		}
	}
	return 0, false
}

// deliveryArgs is the queue job of one attempt of a delivery. Seq is the delivery's attempt
// count the job was written for: the transaction that records an attempt writes the job of the
// next one, so a retry is as durable as the attempt's log, and a job whose Seq is behind the
// delivery (a copy River rescued from a process killed after that commit) does nothing.
// Replay makes one attempt, with no retries.
type deliveryArgs struct {
	DeliveryID int  `json:"delivery_id"`
	Seq        int  `json:"seq"`
	Replay     bool `json:"replay,omitempty"`
}

func (deliveryArgs) Kind() string { return "webhook_delivery" }

func (deliveryArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: queueWebhooks} }

type deliveryWorker struct {
	river.WorkerDefaults[deliveryArgs]
	s *Service
}

func (w *deliveryWorker) Work(ctx context.Context, job *river.Job[deliveryArgs]) error {
	return w.s.attemptDelivery(ctx, job.Args)
}

// deliveriesOfEvents writes, as the outbox writes events, a delivery and its job for each
// subscription of each event's topic. The shop's subscriptions come from the shop cache, so a
// subscription made in another process receives events from at most shopCacheTTL after it was
// made.
type deliveriesOfEvents struct{ s *Service }

func (d deliveriesOfEvents) EventsRecorded(ctx context.Context, tx *ent.Tx, shopID int, orderID *int, written []*ent.Event) error {
	subs, err := d.s.subscribedTopics(ctx, tx.Client(), shopID)
	if err != nil {
		return err
	}
	var deliveries []*ent.WebhookDeliveryCreate
	for _, ev := range written {
		topicID, ok := webhookTopicID(ev.Topic)
		if !ok {
			continue
		}
		for _, sub := range subs {
			if sub.topicID == topicID {
				deliveries = append(deliveries, tx.WebhookDelivery.Create().SetShopID(shopID).SetSubscriptionID(sub.subscriptionID).
					SetEventID(ev.ID).SetNillableOrderID(orderID).SetTopic(ev.Topic).SetNextAttemptAt(ev.CreatedAt).
					SetCreatedAt(ev.CreatedAt).SetUpdatedAt(ev.CreatedAt))
			}
		}
	}
	if len(deliveries) == 0 {
		return nil
	}
	ds, err := tx.WebhookDelivery.CreateBulk(deliveries...).Save(ctx)
	if err != nil {
		return err
	}
	jobs := make([]river.InsertManyParams, len(ds))
	for i, d := range ds {
		jobs[i] = river.InsertManyParams{Args: deliveryArgs{DeliveryID: d.ID}}
	}
	return d.s.p.Jobs.InsertTx(ctx, tx, jobs)
}

// eventBody is the callback body of API.md. It is the same bytes on every attempt: the payload
// is stored, and JSON objects are written with sorted keys.
func eventBody(sh *ent.Shop, ev *ent.Event) ([]byte, error) {
	return json.Marshal(map[string]any{
		"event_id":        ev.EventID,
		"topic":           ev.Topic,
		"shop_identifier": sh.Identifier,
		"created_at":      ev.CreatedAt.UTC().Format(time.RFC3339),
		"data":            ev.Payload,
	})
}

// attemptDelivery is one run of a delivery's job: one POST, its outcome recorded, and a snooze
// until the next attempt when there is one.
func (s *Service) attemptDelivery(ctx context.Context, args deliveryArgs) error {
	c := s.p.DB.Read
	d, err := c.WebhookDelivery.Query().Where(webhookdelivery.ID(args.DeliveryID)).WithSubscription().WithEvent().Only(ctx)
	if ent.IsNotFound(err) {
		return nil // the subscription was deleted, and its deliveries with it
	}
	if err != nil {
		return err
	}
	if d.Status != webhookdelivery.StatusPending || d.AttemptCount != args.Seq {
		return nil // a second run of a job whose attempt is already recorded
	}
	wait, err := s.waitForEarlierDelivery(ctx, d)
	if err != nil {
		return err
	}
	if wait > 0 {
		return river.JobSnooze(wait)
	}
	sh, err := s.shops.CachedByID(ctx, d.ShopID)
	if err != nil {
		return err
	}
	var res webhook.Result
	if sh.SharedSecret == "" {
		res.Err = &webhook.Error{Kind: webhook.KindConnection, Message: "not sent: the shop has no shared secret to sign with"}
	} else {
		body, err := eventBody(sh, d.Edges.Event)
		if err != nil {
			return err
		}
		res = s.client.Send(ctx, webhook.Callback{URL: d.Edges.Subscription.CallbackURL, Topic: d.Topic,
			EventID: d.Edges.Event.EventID, Body: body, Secret: []byte(sh.SharedSecret)})
	}
	// The outcome is recorded even when the job's context ended during the call.
	final, err := s.recordAttempt(context.WithoutCancel(ctx), d, args, res)
	if err != nil {
		return err
	}
	s.metrics.observeAttempt(d.Topic, res, final)
	return nil
}

// waitForEarlierDelivery is how long d must wait for an earlier delivery of its order to the
// same callback URL that is still pending (zero when there is none). Delivery ids grow in the
// order events are recorded: the events of one order are recorded with the order locked.
func (s *Service) waitForEarlierDelivery(ctx context.Context, d *ent.WebhookDelivery) (time.Duration, error) {
	if d.OrderID == nil {
		return 0, nil
	}
	prev, err := s.p.DB.Read.WebhookDelivery.Query().Where(webhookdelivery.OrderID(*d.OrderID),
		webhookdelivery.StatusEQ(webhookdelivery.StatusPending), webhookdelivery.IDLT(d.ID),
		webhookdelivery.HasSubscriptionWith(webhooksubscription.CallbackURL(d.Edges.Subscription.CallbackURL))).
		Order(webhookdelivery.ByID()).First(ctx)
	if ent.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	// Look again soon after the earlier delivery's next attempt (most often it is being sent
	// right now, and done in milliseconds); an hour at most, in case that attempt is late.
	step := min(s.retryBase, 100*time.Millisecond)
	wait := step
	if prev.NextAttemptAt != nil {
		wait = max(prev.NextAttemptAt.Sub(s.p.Clock())+step, step)
	}
	return min(wait, time.Hour), nil
}

// recordAttempt logs one attempt of d (as read before it was sent) and moves the delivery on:
// succeeded, failed (attempts used up, or a replay's one attempt), or pending with the job of its
// next attempt written. The delivery is claimed by a conditional UPDATE: a second run of the same
// job, whose attempt is already recorded, changes nothing. While it is pending with this attempt
// count nothing else writes it, so what d says of it still holds.
func (s *Service) recordAttempt(ctx context.Context, d *ent.WebhookDelivery, args deliveryArgs, res webhook.Result) (webhookdelivery.Status, error) {
	final := webhookdelivery.StatusPending
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		now := s.p.Clock()
		attempt := tx.WebhookAttempt.Create().SetDeliveryID(d.ID).SetAttemptedAt(now).
			SetLatencyMs(int(res.Latency.Milliseconds())).SetResponseBody(res.Body).SetReplay(args.Replay)
		update := tx.WebhookDelivery.Update().Where(webhookdelivery.ID(d.ID), webhookdelivery.StatusEQ(webhookdelivery.StatusPending),
			webhookdelivery.AttemptCount(args.Seq)).AddAttemptCount(1).AddRoundAttempts(1).SetUpdatedAt(now)
		if res.StatusCode != 0 {
			attempt.SetStatusCode(res.StatusCode)
			update.SetLastStatusCode(res.StatusCode)
		} else {
			update.ClearLastStatusCode()
		}
		if res.Err != nil {
			attempt.SetError(res.Err.Error())
			update.SetLastError(res.Err.Error())
		} else {
			update.ClearLastError()
		}
		outcome, wait := webhookdelivery.StatusPending, time.Duration(0)
		switch {
		case res.Err == nil:
			outcome = webhookdelivery.StatusSucceeded
			update.SetStatus(outcome).SetDeliveredAt(now).ClearNextAttemptAt()
		case args.Replay || d.RoundAttempts+1 >= s.maxAttempts:
			outcome = webhookdelivery.StatusFailed
			update.SetStatus(outcome).SetFailedAt(now).ClearNextAttemptAt()
		default:
			wait = s.retryWait(d.RoundAttempts + 1)
			update.SetNextAttemptAt(now.Add(wait))
		}
		if n, err := update.Save(ctx); err != nil || n == 0 {
			return err // n == 0: the attempt is already recorded
		}
		if err := attempt.Exec(ctx); err != nil {
			return err
		}
		final = outcome
		switch outcome {
		case webhookdelivery.StatusSucceeded:
			// Every delivery of a subscription would otherwise queue on its one row: it is
			// written when its health changes, and its last_delivered_at at most once a second.
			_, err := tx.WebhookSubscription.Update().Where(webhooksubscription.ID(d.SubscriptionID),
				webhooksubscription.Or(webhooksubscription.ConsecutiveFailedDeliveriesNEQ(0), webhooksubscription.UnhealthySinceNotNil(),
					webhooksubscription.LastDeliveredAtIsNil(), webhooksubscription.LastDeliveredAtLT(now.Add(-time.Second)))).
				SetConsecutiveFailedDeliveries(0).ClearUnhealthySince().SetLastDeliveredAt(now).Save(ctx)
			return err
		case webhookdelivery.StatusFailed:
			return s.countFailedDelivery(ctx, tx, d.SubscriptionID, now)
		}
		next := river.InsertManyParams{Args: deliveryArgs{DeliveryID: d.ID, Seq: d.AttemptCount + 1},
			InsertOpts: &river.InsertOpts{ScheduledAt: time.Now().Add(wait)}}
		return s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{next})
	})
	if err != nil {
		return webhookdelivery.StatusPending, err
	}
	return final, nil
}

// countFailedDelivery adds a failed delivery to the subscription's run of them, and flags it
// unhealthy when the run reaches UnhealthyAfterFailedDeliveries.
func (s *Service) countFailedDelivery(ctx context.Context, tx *ent.Tx, subscriptionID int, now time.Time) error {
	if err := tx.WebhookSubscription.UpdateOneID(subscriptionID).AddConsecutiveFailedDeliveries(1).Exec(ctx); err != nil {
		return err
	}
	sub, err := tx.WebhookSubscription.Get(ctx, subscriptionID)
	if err != nil {
		return err
	}
	if sub.ConsecutiveFailedDeliveries < UnhealthyAfterFailedDeliveries || sub.UnhealthySince != nil {
		return nil
	}
	s.p.Log.WarnContext(ctx, "webhook subscription is unhealthy", "webhook_id", sub.ID, "callback_url", sub.CallbackURL,
		"failed_deliveries", sub.ConsecutiveFailedDeliveries)
	return tx.WebhookSubscription.UpdateOne(sub).SetUnhealthySince(now).Exec(ctx)
}

func deliveryNotFound() *problem.Error {
	return problem.NotFoundError("webhook_delivery.not_found", "no webhook delivery with that id")
}

// ReplayWebhookDelivery sends a delivery that succeeded or failed once more, as a new attempt
// with the same event id. subscriptionID, when not zero, is the subscription it must belong to.
func (s *Service) ReplayWebhookDelivery(ctx context.Context, sh *ent.Shop, subscriptionID, deliveryID int) (*ent.WebhookDelivery, error) {
	var out *ent.WebhookDelivery
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		q := tx.WebhookDelivery.Query().Where(webhookdelivery.ShopID(sh.ID), webhookdelivery.ID(deliveryID))
		if subscriptionID != 0 {
			q = q.Where(webhookdelivery.SubscriptionID(subscriptionID))
		}
		if s.p.DB.Dialect == dialect.Postgres {
			q = q.ForUpdate()
		}
		d, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			return deliveryNotFound()
		}
		if err != nil {
			return err
		}
		if d.Status == webhookdelivery.StatusPending {
			return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "webhook_delivery.in_progress",
				Message: "the delivery is still being attempted; replay it once it has succeeded or failed",
				Details: map[string]any{"next_attempt_at": d.NextAttemptAt}}
		}
		now := s.p.Clock()
		err = tx.WebhookDelivery.UpdateOne(d).SetStatus(webhookdelivery.StatusPending).SetRoundAttempts(0).
			SetNextAttemptAt(now).ClearFailedAt().SetUpdatedAt(now).Exec(ctx)
		if err != nil {
			return err
		}
		if err := s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{{Args: deliveryArgs{DeliveryID: d.ID, Seq: d.AttemptCount, Replay: true}}}); err != nil {
			return err
		}
		out, err = tx.WebhookDelivery.Query().Where(webhookdelivery.ID(d.ID)).WithEvent().
			WithAttempts(func(q *ent.WebhookAttemptQuery) { q.Order(ent.Asc("id")) }).Only(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out.Unwrap(), nil
}

// MaxPingBody is how much of a receiver's answer a ping shows: enough to recognize the receiver
// and read a short error, too little for the ping to serve as a way to read whatever answers.
const MaxPingBody = 256

// Ping is the answer to a test callback: the receiver's status and timing, and at most
// the first MaxPingBody bytes of its answer.
type Ping struct {
	EventID      string `json:"event_id"`
	Success      bool   `json:"success"`
	StatusCode   int    `json:"status_code"`
	LatencyMS    int64  `json:"latency_ms"`
	ResponseBody string `json:"response_body"`
	Error        string `json:"error"`
}

// PingWebhookSubscription sends a signed test callback (topic "ping") to a subscription now
// and says what its receiver answered. A ping is not an event: it is neither retried nor
// logged, and it does not change the subscription's health.
func (s *Service) PingWebhookSubscription(ctx context.Context, sh *ent.Shop, id int) (*Ping, error) {
	sub, err := s.p.DB.Read.WebhookSubscription.Query().Where(webhooksubscription.ShopID(sh.ID), webhooksubscription.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, webhookNotFound()
	}
	if err != nil {
		return nil, err
	}
	current, err := s.p.DB.Read.Shop.Get(ctx, sh.ID)
	if err != nil {
		return nil, err
	}
	if current.SharedSecret == "" {
		return nil, problem.Validation("webhook.shared_secret_not_configured", "configure the integration shared secret before pinging webhooks: callbacks are signed with it", nil)
	}
	topic, _ := webhookTopicName(sub.WebhookTopicID)
	ping := &Ping{EventID: platform.NewPublicID()}
	body, err := json.Marshal(map[string]any{
		"event_id": ping.EventID, "topic": "ping", "shop_identifier": sh.Identifier,
		"created_at": s.p.Clock().UTC().Format(time.RFC3339),
		"data":       map[string]any{"webhook_id": sub.ID, "webhook_topic_id": sub.WebhookTopicID, "webhook_topic": topic},
	})
	if err != nil {
		return nil, err
	}
	res := s.client.Send(ctx, webhook.Callback{URL: sub.CallbackURL, Topic: "ping", EventID: ping.EventID, Body: body,
		Secret: []byte(current.SharedSecret)})
	ping.Success, ping.StatusCode, ping.LatencyMS = res.Err == nil, res.StatusCode, res.Latency.Milliseconds()
	ping.ResponseBody = webhook.Clip(res.Body, MaxPingBody)
	if res.Err != nil {
		ping.Error = res.Err.Error()
	}
	return ping, nil
}

// DeliveryFilter narrows the delivery log; absent fields do not filter.
type DeliveryFilter struct {
	SubscriptionID *int
	Topic          *string
	Status         *webhookdelivery.Status
	PublicOrderID  *string
}

// WebhookDeliveries is the shop's delivery log, filtered, for the caller to page through.
func (s *Service) WebhookDeliveries(sh *ent.Shop, f DeliveryFilter) *ent.WebhookDeliveryQuery {
	q := s.p.DB.Read.WebhookDelivery.Query().Where(webhookdelivery.ShopID(sh.ID))
	if f.SubscriptionID != nil {
		q = q.Where(webhookdelivery.SubscriptionID(*f.SubscriptionID))
	}
	if f.Topic != nil {
		q = q.Where(webhookdelivery.Topic(*f.Topic))
	}
	if f.Status != nil {
		q = q.Where(webhookdelivery.StatusEQ(*f.Status))
	}
	if f.PublicOrderID != nil {
		q = q.Where(webhookdelivery.HasEventWith(event.HasOrderWith(order.ShopID(sh.ID), order.PublicOrderID(*f.PublicOrderID))))
	}
	return q
}

// MaxDeliveriesPage bounds one page of the delivery log; a page is 50 unless asked.
const MaxDeliveriesPage = 250

// InvalidLimit is the refusal of a page size that is not a number from 1 to MaxDeliveriesPage.
func InvalidLimit() *problem.Error {
	return problem.Validation("request.invalid_limit", "limit must be a number from 1 to "+strconv.Itoa(MaxDeliveriesPage), map[string]any{"field": "limit"})
}

// SubscriptionHealthy reports whether a subscription's deliveries are getting through: it is
// unhealthy from its UnhealthyAfterFailedDeliveries-th failed delivery in a row to its next success.
func SubscriptionHealthy(s *ent.WebhookSubscription) bool { return s.UnhealthySince == nil }

// ListWebhookDeliveries is one page of a subscription's deliveries, newest first, with their
// attempts and events: at most limit of them, older than the delivery beforeID when it is set.
func (s *Service) ListWebhookDeliveries(ctx context.Context, sh *ent.Shop, subscriptionID int, f DeliveryFilter, limit, beforeID int) ([]*ent.WebhookDelivery, error) {
	exists, err := s.p.DB.Read.WebhookSubscription.Query().Where(webhooksubscription.ShopID(sh.ID), webhooksubscription.ID(subscriptionID)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, webhookNotFound()
	}
	switch {
	case limit == 0:
		limit = 50
	case limit < 0 || limit > MaxDeliveriesPage:
		return nil, InvalidLimit()
	}
	f.SubscriptionID = &subscriptionID
	q := s.WebhookDeliveries(sh, f)
	if beforeID > 0 {
		q = q.Where(webhookdelivery.IDLT(beforeID))
	}
	return q.WithEvent().WithAttempts(func(q *ent.WebhookAttemptQuery) { q.Order(ent.Asc("id")) }).
		Order(webhookdelivery.ByID(entsql.OrderDesc())).Limit(limit).All(ctx)
}

// ParseDeliveryFilter reads the delivery log's filters as they arrive in a query string;
// empty values do not filter.
func ParseDeliveryFilter(topic, status, publicOrderID string) (DeliveryFilter, error) {
	var f DeliveryFilter
	if topic != "" {
		f.Topic = &topic
	}
	if status != "" {
		st := webhookdelivery.Status(status)
		if webhookdelivery.StatusValidator(st) != nil {
			return f, problem.Validation("webhook_delivery.invalid_status", "status must be pending, succeeded or failed", map[string]any{"field": "status"})
		}
		f.Status = &st
	}
	if publicOrderID != "" {
		f.PublicOrderID = &publicOrderID
	}
	return f, nil
}
