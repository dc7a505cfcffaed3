package subscription

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/ent/subscription"
	"github.com/checkoutd/checkoutd/ent/subscriptionaddress"
	"github.com/checkoutd/checkoutd/ent/subscriptionplacement"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

const (
	// DefaultSweepInterval is how often the due subscriptions are placed unless configured
	// (Config.SweepInterval): each within this of its next_order_datetime.
	DefaultSweepInterval = 30 * time.Second
	// MaxRetries is how many times a due date whose placing failed is tried again before the
	// subscription is paused and order/failed fired.
	MaxRetries = 3
	// StaleClaimAfter is how long a subscription may stay processing before another run takes
	// it for left by a process that died: past checkout's recovery of an interrupted order.
	StaleClaimAfter = checkout.InterruptedAfter + time.Minute
	// dueBatch bounds the subscriptions one sweep places; the next sweep takes the rest.
	dueBatch = 1000
)

// placers bounds the subscriptions one sweep places at once. Each placing is a dozen short
// transactions with a gateway call among them: several at once overlap one's commits and calls
// with another's work (PostgreSQL commits them together), while SQLite's one writer still
// serializes their writes, so shoppers' checkouts keep their turn.
const placers = 8

// RetryBackoff is the wait before each retry of a failed due date.
var RetryBackoff = [MaxRetries]time.Duration{15 * time.Minute, 2 * time.Hour, 12 * time.Hour}

type sweepArgs struct{}

func (sweepArgs) Kind() string { return "subscription_order_sweep" }

// InsertOpts runs a failed sweep once: the next one, an interval later, is its retry. A sweep
// is not queued while another is queued or running: one that outlasts the interval (a large
// batch) would otherwise be joined by others taking the same subscriptions in the same order,
// each claim but the first wasted.
func (sweepArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 1, UniqueOpts: river.UniqueOpts{ByState: []rivertype.JobState{rivertype.JobStateAvailable,
		rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
}

type sweepWorker struct {
	river.WorkerDefaults[sweepArgs]
	s *Service
}

// Timeout lets a sweep place a batch: each placing is safe to leave half done.
func (*sweepWorker) Timeout(*river.Job[sweepArgs]) time.Duration { return checkout.SweepInterval }

func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[sweepArgs]) error {
	_, err := w.s.PlaceDueOrders(ctx)
	return err
}

func (s *Service) registerSweep() {
	platform.AddWorker(s.p.Jobs, &sweepWorker{s: s})
	s.p.Jobs.AddPeriodic("subscription_order_sweep", s.cfg.SweepInterval, func() river.JobArgs { return sweepArgs{} })
}

// errPlacedElsewhere stops a run that found another one placing the same due date.
var errPlacedElsewhere = errors.New("the due date is being placed by another run")

// PlaceDueOrders places an order from each subscription due by now (or due for a retry), and
// answers how many it placed. Safe to run at any time, in several processes at once: a
// subscription is claimed by one conditional update, and each due date has one placement row,
// written with its order.
func (s *Service) PlaceDueOrders(ctx context.Context) (int, error) {
	now := s.p.Clock().UTC()
	due, err := s.p.DB.Read.Subscription.Query().Where(
		subscription.SubscriptionStatusIn(subscription.SubscriptionStatusActive, subscription.SubscriptionStatusScheduled, subscription.SubscriptionStatusProcessing),
		subscription.Or(subscription.And(subscription.RetryAtIsNil(), subscription.NextOrderDatetimeLTE(now)), subscription.RetryAtLTE(now))).
		WithShop().Order(ent.Asc(subscription.FieldNextOrderDatetime), ent.Asc(subscription.FieldID)).Limit(dueBatch).All(ctx)
	if err != nil {
		return 0, err
	}
	var placed atomic.Int64
	var wg sync.WaitGroup
	free := make(chan struct{}, placers)
	for _, sub := range due {
		select {
		case free <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-free; wg.Done() }()
			ok, err := s.placeDue(ctx, sub)
			if err != nil {
				s.p.Log.ErrorContext(ctx, "placing a subscription's order failed", "subscription_id", sub.ID, "error", err)
			} else if ok {
				placed.Add(1)
			}
		}()
	}
	wg.Wait()
	// A sweep cut short by its timeout says so; what it did not reach is the next one's.
	return int(placed.Load()), ctx.Err()
}

// claim moves the subscription to processing, unless another run holds it (processing, and not
// for longer than StaleClaimAfter).
func (s *Service) claim(ctx context.Context, sub *ent.Subscription) (*ent.Subscription, bool, error) {
	now := s.p.Clock().UTC()
	n, err := s.p.DB.Client.Subscription.Update().Where(subscription.ID(sub.ID), subscription.UpdatedAt(sub.UpdatedAt),
		subscription.Or(subscription.SubscriptionStatusIn(subscription.SubscriptionStatusActive, subscription.SubscriptionStatusScheduled),
			subscription.And(subscription.SubscriptionStatusEQ(subscription.SubscriptionStatusProcessing), subscription.StatusChangedAtLT(now.Add(-StaleClaimAfter))))).
		SetSubscriptionStatus(subscription.SubscriptionStatusProcessing).SetStatusChangedAt(now).Save(ctx)
	if err != nil || n == 0 {
		return nil, false, err
	}
	claimed, err := s.p.DB.Client.Subscription.Query().Where(subscription.ID(sub.ID)).WithShop().
		WithLineItems().WithAddresses().Only(ctx)
	return claimed, err == nil, err
}

// placeDue places the subscription's due date, next_order_datetime: reports false when another
// run holds it. A failure is recorded on the subscription (recordFailure), not answered.
func (s *Service) placeDue(ctx context.Context, sub *ent.Subscription) (bool, error) {
	sub, ok, err := s.claim(ctx, sub)
	if err != nil || !ok {
		return false, err
	}
	sess, err := s.placementOrder(ctx, sub)
	if errors.Is(err, errPlacedElsewhere) {
		return false, nil
	}
	if err == nil {
		err = s.completeOrder(ctx, sub, sess)
	}
	if err != nil {
		return false, s.recordFailure(ctx, sub, sess, err)
	}
	return true, s.recordPlaced(ctx, sub, sess)
}

// placementOrder is the order of the subscription's due date: the one a run before made (it
// crashed or failed after), or a new one, created in one transaction with the due date's
// placement row. The row is unique per subscription and due date: a second order for the date
// cannot commit.
func (s *Service) placementOrder(ctx context.Context, sub *ent.Subscription) (*orders.OrderSession, error) {
	sh, due := sub.Edges.Shop, *sub.NextOrderDatetime
	pl, err := s.p.DB.Client.SubscriptionPlacement.Query().Where(subscriptionplacement.SubscriptionID(sub.ID), subscriptionplacement.DueAt(due)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	if pl != nil {
		v, err := s.orders.LoadOrder(ctx, sh, pl.PublicOrderID)
		if err != nil {
			return nil, err
		}
		return &orders.OrderSession{Shop: sh, Order: v.Order}, nil
	}
	items := make([]orders.CartItem, len(sub.Edges.LineItems))
	for i, li := range sub.Edges.LineItems {
		items[i] = orders.CartItem{PlatformID: li.PlatformVariantID, Quantity: li.Quantity, LineItemKey: "subscription-line-" + strconv.Itoa(li.ID)}
	}
	v, err := s.orders.InitOrder(ctx, sh, orders.InitOrderInput{CartItems: items,
		OrderMetaData: &schema.OrderMetaData{Notes: sub.OrderNote, NoteAttributes: map[string]string{
			"subscription_id": strconv.Itoa(sub.ID), "subscription_due_at": due.Format(time.RFC3339)}},
		Customer: &orders.CustomerInput{FirstName: sub.CustomerFirstName, LastName: sub.CustomerLastName, EmailAddress: sub.CustomerEmail},
		Recorded: func(ctx context.Context, tx *ent.Tx, o *ent.Order) error {
			return tx.SubscriptionPlacement.Create().SetSubscriptionID(sub.ID).SetDueAt(due).SetOrderID(o.ID).
				SetPublicOrderID(o.PublicOrderID).Exec(ctx)
		}})
	if ent.IsConstraintError(err) {
		return nil, errPlacedElsewhere
	}
	if err != nil {
		return nil, err
	}
	return &orders.OrderSession{Shop: sh, Order: v.Order}, nil
}

// errStillProcessing: the order is being processed by a run that may have died; checkout's
// recovery reopens it after InterruptedAfter, and a later sweep processes it.
var errStillProcessing = &problem.Error{Kind: problem.Unavailable, Code: problem.CodeInternal, Type: "subscription.order_in_processing",
	Message: "the due date's order is still being processed"}

// completeOrder takes the order through the steps a shopper's checkout takes, skipping those a
// run before already took, and processes it: the same pricing, taxes, payment authorization and
// webhooks as any order. The charge runs under checkout's idempotency mechanism, keyed by the
// subscription, the due date and the attempt.
func (s *Service) completeOrder(ctx context.Context, sub *ent.Subscription, sess *orders.OrderSession) error {
	v, err := s.orders.LoadOrder(ctx, sess.Shop, sess.Order.PublicOrderID)
	if err != nil {
		return err
	}
	switch v.Order.Status {
	case order.StatusProcessed:
		return nil
	case order.StatusProcessing:
		return errStillProcessing
	case order.StatusOpen:
	default:
		return problem.Validation("subscription.order_closed", "the due date's order is "+v.Order.Status.String(), nil)
	}
	var billing, shipping *ent.SubscriptionAddress
	for _, a := range sub.Edges.Addresses {
		if a.Kind == subscriptionaddress.KindBilling {
			billing = a
		} else {
			shipping = a
		}
	}
	if billing == nil {
		billing = shipping
	}
	requiresShipping := false
	for _, li := range v.LineItems {
		requiresShipping = requiresShipping || li.RequiresShipping
	}
	steps := []struct {
		needed bool
		run    func() (*orders.OrderView, error)
	}{
		{v.Order.ShippingAddress == nil && shipping != nil && requiresShipping, func() (*orders.OrderView, error) {
			return s.orders.SetAddress(ctx, sess, orders.ShippingAddress, orderAddress(shipping))
		}},
		{v.Order.BillingAddress == nil && billing != nil, func() (*orders.OrderView, error) {
			return s.orders.SetAddress(ctx, sess, orders.BillingAddress, orderAddress(billing))
		}},
	}
	for _, step := range steps {
		if !step.needed {
			continue
		}
		if v, err = step.run(); err != nil {
			return err
		}
	}
	if requiresShipping && v.SelectedShipping == nil {
		if v, err = s.orders.SelectShippingLine(ctx, sess, "0", ""); err != nil {
			return err
		}
	}
	if sub.DiscountCode != "" && len(v.Order.DiscountCodes) == 0 {
		applied, err := s.orders.ApplyDiscountCode(ctx, sess, sub.DiscountCode)
		if err != nil {
			// A code that lapsed does not stop the order: it is placed at the full price.
			s.p.Log.WarnContext(ctx, "a subscription's discount code was refused", "subscription_id", sub.ID, "error", err)
		} else {
			v = applied
		}
	}
	if orders.CheckTaxesCurrent(v) != nil {
		if v, err = s.orders.GenerateTaxes(ctx, sess); err != nil {
			return err
		}
	}
	if len(orders.LivePayments(v.Payments)) == 0 {
		if _, err = s.orders.AddPayment(ctx, sess, orders.PaymentInput{GatewayPublicID: sub.PaymentGatewayPublicID, Token: sub.PaymentMethodToken}); err != nil {
			return err
		}
	}
	key := fmt.Sprintf("subscription:%d:%d:%d", sub.ID, sub.NextOrderDatetime.Unix(), sub.CurrentRetries)
	res, err := checkout.Idempotently(ctx, s.checkout, sess.Shop, key, []byte(key), func(ctx context.Context, _ string) (*placedCharge, error) {
		r, err := s.checkout.ProcessOrder(ctx, sess)
		if err != nil {
			return nil, err
		}
		return &placedCharge{PublicOrderID: r.View.Order.PublicOrderID, RequiresAction: r.RequiresAction != nil}, nil
	})
	if err != nil {
		return err
	}
	if res.RequiresAction {
		return problem.Validation("payment.requires_action", "the payment's gateway asks the customer to act: a subscription cannot", nil)
	}
	return nil
}

// placedCharge is a subscription order's process_order as checkout's idempotency keeps it.
type placedCharge struct {
	PublicOrderID  string `json:"public_order_id"`
	RequiresAction bool   `json:"requires_action"`
}

// Final: an order whose gateway asks the customer to act is tried again at the next attempt.
func (c *placedCharge) Final() bool { return !c.RequiresAction }

func orderAddress(a *ent.SubscriptionAddress) orders.AddressInput {
	return orders.AddressInput{FirstName: a.FirstName, LastName: a.LastName, AddressLine1: a.Street1, AddressLine2: a.Street2,
		Country: a.Country, CountryCode: a.CountryCode, City: a.City, Province: a.Province, ProvinceCode: a.ProvinceCode,
		PostalCode: a.Zip, BusinessName: a.Company, PhoneNumber: a.Phone}
}

// nextDue is the subscription's next order date after t by its rule; nil when the rule has
// none left.
func nextDue(sub *ent.Subscription, t time.Time) *time.Time {
	r, err := parseRule("order_rrule", sub.OrderRrule, sub.OrderRruleStart)
	if err != nil {
		return nil
	}
	return nextAfter(r, t)
}

// held is the subscription as claimed: processing, changed by no other run since.
func held(sub *ent.Subscription) predicate.Subscription {
	return subscription.And(subscription.ID(sub.ID), subscription.SubscriptionStatusEQ(subscription.SubscriptionStatusProcessing),
		subscription.StatusChangedAtEQ(*sub.StatusChangedAt))
}

// recordPlaced closes the due date: its placement is placed, and the subscription counts the
// order and moves to its next date after now (after downtime, the dates missed meanwhile are
// not placed one by one: the date that fell due was placed once).
func (s *Service) recordPlaced(ctx context.Context, sub *ent.Subscription, sess *orders.OrderSession) error {
	v, err := s.orders.LoadOrder(ctx, sess.Shop, sess.Order.PublicOrderID)
	if err != nil {
		return err
	}
	now := s.p.Clock().UTC()
	due := *sub.NextOrderDatetime
	next := nextDue(sub, maxTime(now, due))
	var lines []map[string]any
	if sl := v.SelectedShipping; sl != nil {
		lines = []map[string]any{{"id": 1, "name": sl.Description, "code": sl.Code, "price": sl.Amount, "value": sl.Amount,
			"value_charged": sl.Amount, "tag": "", "subscription_id": sub.ID, "created_at": now, "updated_at": now}}
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		if err := tx.SubscriptionPlacement.Update().Where(subscriptionplacement.SubscriptionID(sub.ID), subscriptionplacement.DueAt(due)).
			SetStatus(subscriptionplacement.StatusPlaced).AddAttempts(1).Exec(ctx); err != nil {
			return err
		}
		update := tx.Subscription.Update().Where(held(sub)).SetStatusChangedAt(now).
			AddOrdersProcessed(1).AddOrderCount(1).SetLastOrderDatetime(now).SetLastProcessedDatetime(now).SetLastPaymentDatetime(now).
			SetCurrentRetries(0).ClearRetryAt().SetShippingLines(lines)
		if next == nil {
			update.SetSubscriptionStatus(subscription.SubscriptionStatusInactive).ClearNextOrderDatetime().ClearNextPaymentDatetime().ClearNextProcessingDatetime()
		} else {
			update.SetSubscriptionStatus(subscription.SubscriptionStatusActive).SetNextOrderDatetime(*next).SetNextPaymentDatetime(*next).SetNextProcessingDatetime(*next)
		}
		n, err := update.Save(ctx)
		if err == nil && n == 0 {
			return errPlacedElsewhere
		}
		return err
	})
}

// recordFailure counts a failed attempt at the due date: it is tried again after its backoff,
// or, past MaxRetries, the subscription is paused, the due date given up and order/failed fired
// on its order.
func (s *Service) recordFailure(ctx context.Context, sub *ent.Subscription, sess *orders.OrderSession, cause error) error {
	now := s.p.Clock().UTC()
	code, reason := "internal_error", "internal error"
	details := map[string]any{}
	if e, ok := problem.As(cause); ok {
		code, reason = e.Type, e.Message
		details["code"] = e.Code
	} else {
		s.p.Log.ErrorContext(ctx, "placing a subscription's order failed", "subscription_id", sub.ID, "error", cause)
	}
	details["message"] = reason
	if sess != nil {
		details["public_order_id"] = sess.Order.PublicOrderID
	}
	retries := sub.CurrentRetries + 1
	if errors.Is(cause, errStillProcessing) {
		// Not an attempt: the order's processing is in doubt until checkout's recovery settles it.
		retries = sub.CurrentRetries
	}
	due := *sub.NextOrderDatetime
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		update := tx.Subscription.Update().Where(held(sub)).SetStatusChangedAt(now).SetCurrentRetries(retries).
			SetLastFailureCode(clipText(code, maxText)).SetLastFailureReason(clipText(reason, maxNote)).SetLastFailureDetails(details)
		final := retries > MaxRetries
		if final {
			update.SetSubscriptionStatus(subscription.SubscriptionStatusPaused).ClearRetryAt()
		} else {
			wait := s.cfg.SweepInterval
			if retries > 0 {
				wait = RetryBackoff[retries-1]
			}
			update.SetSubscriptionStatus(subscription.SubscriptionStatusActive).SetRetryAt(now.Add(wait))
		}
		n, err := update.Save(ctx)
		if err != nil || n == 0 {
			return err
		}
		if sess == nil {
			return nil
		}
		placement := tx.SubscriptionPlacement.Update().Where(subscriptionplacement.SubscriptionID(sub.ID), subscriptionplacement.DueAt(due)).AddAttempts(1)
		if final {
			placement.SetStatus(subscriptionplacement.StatusFailed)
		}
		if err := placement.Exec(ctx); err != nil || !final {
			return err
		}
		o, err := tx.Order.Get(ctx, sess.Order.ID)
		if err != nil {
			return err
		}
		return s.orders.RecordOrderEvent(ctx, tx, sess.Shop, o, platform.TopicOrderFailed,
			map[string]any{"subscription_id": sub.ID, "subscription_status": "paused", "reason": reason, "code": code})
	})
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
