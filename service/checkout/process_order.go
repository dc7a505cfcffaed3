package checkout

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// The spec's payment steps: authorized for its amount, or (verify_payments_only) verified and
// awaiting the authorization and charge of Capture Specific Payment.
const (
	StepPreAuthed       = "preAuthed"
	StepAwaitingPreAuth = "awaitingPreAuth"
)

// ProcessResult is a processed order, or one whose gateway asks the shopper to act first.
type ProcessResult struct {
	View *orders.OrderView
	// RequiresAction names the payment whose gateway wants the shopper to act (3-D Secure and
	// the like) before it authorizes; the order is open again and process_order is called anew.
	RequiresAction *ent.OrderPayment
}

// Final is false while the shopper must act: a repeat with the same idempotency key runs anew.
func (r *ProcessResult) Final() bool { return r.RequiresAction == nil }

func incomplete(typ, message, field string) *problem.Error {
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: typ, Message: message, Details: map[string]any{"field": field}}
}

// checkComplete is process_order's list of what an order needs before its payments are sent.
func checkComplete(v *orders.OrderView) error {
	o := v.Order
	if len(v.LineItems) == 0 {
		return incomplete("order.no_line_items", "the order has no line items", "line_items")
	}
	if v.Pricing.Overflow {
		return orders.OrderTooLarge(0)
	}
	if o.Customer == nil {
		return incomplete("order.no_customer", "the order has no customer", "customer")
	}
	requiresShipping := false
	for _, li := range v.LineItems {
		requiresShipping = requiresShipping || li.RequiresShipping
	}
	if requiresShipping {
		if o.ShippingAddress == nil {
			return incomplete("order.no_shipping_address", "the order ships and has no shipping address", "shipping_address")
		}
		if v.SelectedShipping == nil {
			return incomplete("order.no_shipping_line", "no shipping line is selected, or the selected one is no longer offered", "shipping_line")
		}
	}
	live := orders.LivePayments(v.Payments)
	hasGateway := false
	for _, p := range live {
		hasGateway = hasGateway || p.GiftCardID == nil
	}
	if hasGateway && o.BillingAddress == nil {
		return incomplete("order.no_billing_address", "card payments need a billing address", "billing_address")
	}
	if err := orders.CheckTaxesCurrent(v); err != nil {
		return err
	}
	if paid := orders.TenderedAmount(live); paid != v.Pricing.Total {
		return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "order.payments_do_not_cover_total",
			Message: fmt.Sprintf("the payments add up to %d and the order total is %d", paid, v.Pricing.Total),
			Details: map[string]any{"field": "payments", "order_total": v.Pricing.Total, "payments_total": paid}}
	}
	return nil
}

// ProcessOrder completes an order: it checks that the order is complete, reserves its stock and
// discount uses, authorizes every payment through its gateway (all or nothing) and marks it
// processed with a platform_order_id of checkoutd's own.
func (s *Service) ProcessOrder(ctx context.Context, sess *orders.OrderSession) (*ProcessResult, error) {
	// The shop's remote state authority, if any, must agree that the order can be had before
	// anything is reserved or authorized; without one, the inventory override, if any.
	if err := s.orders.CheckRemoteInventory(ctx, sess, nil, orders.InventoryStageFinal); err != nil {
		return nil, err
	}
	if err := s.orders.CheckFinalInventoryOverride(ctx, sess); err != nil {
		return nil, err
	}
	r, err := s.reserveForProcessing(ctx, sess)
	if err != nil {
		return nil, err
	}
	view := r.view
	outcome := s.authorizeTendersSettlingLater(ctx, view, r.tenders)
	if outcome.failed != nil || outcome.requiresAction != nil {
		reason := "payment authorization failed"
		if outcome.requiresAction != nil {
			reason = "payment requires customer action"
		}
		if err := s.abandonAuthorization(ctx, sess.Shop, view.Order.ID, idOf(outcome.failed), idOf(outcome.requiresAction), reason); err != nil {
			return nil, err
		}
		if outcome.failed != nil {
			return nil, authorizationFailed(outcome.failed, outcome.failure, sess.Shop.VerifyPaymentsOnly)
		}
		v, err := s.orders.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
		if err != nil {
			return nil, err
		}
		return &ProcessResult{View: v, RequiresAction: outcome.requiresAction}, nil
	}
	v, err := s.completeProcessing(context.WithoutCancel(ctx), sess.Shop, r, outcome)
	if err != nil {
		return nil, err
	}
	return &ProcessResult{View: v.Detached()}, nil
}

// completeProcessing is process_order's last transaction, every tender authorized: the ledger
// entries granted are settled, and the order is marked processed and its payments authorized, as
// the reservation left them (completeAsReserved) or, when a row moved on since, from the rows
// locked and read (markAuthorized), the entries then settled first, each on its own.
func (s *Service) completeProcessing(ctx context.Context, sh *ent.Shop, r *reservation, outcome authorizationOutcome) (*orders.OrderView, error) {
	var v *orders.OrderView
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		for _, g := range outcome.granted {
			if err := s.ledger.Settle(ctx, tx, g.entry, g.gatewayID, g.latency, nil, paymenttransaction.StatusSucceeded); err != nil {
				return err
			}
		}
		o, payments, err := s.completeAsReserved(ctx, tx, r, outcome)
		if err != nil {
			return err
		}
		v, err = s.finishProcessed(ctx, tx, sh, o, r.view.LineItems, payments)
		return err
	})
	if err == nil {
		s.processCompletions.WithLabelValues("reserved").Inc()
		s.processed.Inc()
		return v, nil
	}
	// The gateways granted what they granted: the ledger says so whatever comes next.
	s.settleGranted(ctx, outcome.granted)
	if !errors.Is(err, errNotAsReserved) {
		return nil, err
	}
	s.processCompletions.WithLabelValues("locked").Inc()
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.orders.LockOrder(ctx, tx, r.order.ID, order.StatusProcessing)
		if err != nil {
			return err
		}
		payments, err := s.markAuthorized(ctx, tx, o, outcome.verifiedTokens)
		if err != nil {
			return err
		}
		if o, err = s.orders.UpdateLockedOrder(ctx, tx, o, s.processedUpdate(tx, o)); err != nil {
			return err
		}
		v, err = s.finishProcessed(ctx, tx, sh, o, r.view.LineItems, payments)
		return err
	})
	if err == nil {
		s.processed.Inc()
	}
	return v, err
}

// processedUpdate marks the order o, being processed, processed.
func (s *Service) processedUpdate(tx *ent.Tx, o *ent.Order) *ent.OrderUpdate {
	return tx.Order.Update().Where(order.ID(o.ID)).SetStatus(order.StatusProcessed).
		SetProcessedAt(s.p.Clock()).SetPlatformOrderID(platformOrderID(o)).AddVersion(1)
}

// finishProcessed is the end of process_order's last transaction, the order o marked processed:
// its events and the gift cards it bought. The line items are those reserve read: an order in
// processing cannot change them.
func (s *Service) finishProcessed(ctx context.Context, tx *ent.Tx, sh *ent.Shop, o *ent.Order, items []*ent.LineItem, payments []*ent.OrderPayment) (*orders.OrderView, error) {
	v, err := s.orders.ViewWith(ctx, tx.Client(), sh, o, items, payments)
	if err != nil {
		return nil, err
	}
	// With no orders destination checkoutd is the platform: the order is created as it is
	// processed. With one, order/created waits for the platform's answer.
	topics := []string{platform.TopicOrderProcessed, platform.TopicOrderCreated}
	onPlatform, err := s.connector.CreateOrderOnPlatform(ctx, tx, v)
	if err != nil {
		return nil, err
	}
	if onPlatform {
		topics = topics[:1]
	}
	if err := s.orders.RecordLockedOrderEvents(ctx, tx, v, topics, nil); err != nil {
		return nil, err
	}
	return v, s.orders.IssuePurchasedGiftCards(ctx, tx, v)
}

// reservation is what process_order's first transaction did.
type reservation struct {
	// view is the order as the reservation read it, before its changes.
	view *orders.OrderView
	// order is the order's row as the reservation left it: processing, at its version.
	order *ent.Order
	// tenders are the payments to authorize through their gateways.
	tenders []authorizingTender
}

// reserveForProcessing is process_order's first transaction: the order must be complete; its
// stock, discount uses and gift card amounts are taken; it moves to processing. Every payment
// added to the order moves to authorizing (reserveTenders), to be verified only when the shop
// says so.
func (s *Service) reserveForProcessing(ctx context.Context, sess *orders.OrderSession) (*reservation, error) {
	gateways, err := s.shops.GatewaysByPublicID(ctx, sess.Shop)
	if err != nil {
		return nil, err
	}
	r := &reservation{}
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.orders.LockSessionOrder(ctx, tx, sess, order.StatusOpen)
		if err != nil {
			return err
		}
		view, err := s.orders.ViewOf(ctx, tx.Client(), sess.Shop, o, nil)
		if err != nil {
			return err
		}
		if err := checkComplete(view); err != nil {
			return err
		}
		if err := s.reserveStock(ctx, tx, view); err != nil {
			return err
		}
		update := tx.Order.Update().Where(order.ID(o.ID))
		if err := orders.RedeemDiscountCodes(ctx, tx, view, s.p.Clock(), update); err != nil {
			return err
		}
		tenders, err := s.reserveTenders(ctx, tx, sess.Shop, view, gateways, sess.Shop.VerifyPaymentsOnly)
		if err != nil {
			return err
		}
		frozen, err := orders.FrozenPricing(view)
		if err != nil {
			return err
		}
		reserved, err := s.orders.UpdateLockedOrder(ctx, tx, o, update.SetStatus(order.StatusProcessing).
			SetReserved(true).SetSettledPricing(frozen).AddVersion(1))
		*r = reservation{view: view, order: reserved, tenders: tenders}
		return err
	})
	if err != nil {
		return nil, err
	}
	// No longer open: the order as a change left it is not the order any more.
	s.orders.ForgetKeptOrder(r.order.ID)
	return r, nil
}

// errNotAsReserved stops completeAsReserved's transaction: a row is no longer as the reservation
// left it, and the order is completed the locked way.
var errNotAsReserved = errors.New("the order moved on since its reservation")

// completeAsReserved marks the order processed and its payments authorized, with the ids their
// gateways answered (or verified, with the tokens they retained), when they are as the reservation left them: the order at the version it
// wrote and processing, each payment it moved still authorizing. Each row is written by one
// update conditioned on that, instead of being read and locked first, and the rows written are
// worked out, not read back. When a condition fails, errNotAsReserved rolls the transaction back.
func (s *Service) completeAsReserved(ctx context.Context, tx *ent.Tx, r *reservation, outcome authorizationOutcome) (*ent.Order, []*ent.OrderPayment, error) {
	update := s.processedUpdate(tx, r.order).Where(order.Version(r.order.Version), order.StatusEQ(order.StatusProcessing))
	if n, err := update.Save(ctx); err != nil || n == 0 {
		return nil, nil, cmp.Or(err, errNotAsReserved)
	}
	o, err := s.orders.AppliedOrder(r.order, update.Mutation())
	if err != nil {
		return nil, nil, err
	}
	now := orders.StoredNow()
	payments := make([]*ent.OrderPayment, len(r.view.Payments))
	for i, p := range r.view.Payments {
		moved := *p
		moved.Edges = ent.OrderPaymentEdges{}
		payments[i] = &moved
		switch p.Status {
		case orderpayment.StatusAuthorizing:
			return nil, nil, errNotAsReserved // left by an attempt before: the locked way settles it
		case orderpayment.StatusAdded: // moved to authorizing by reserveTenders
		default:
			continue
		}
		update := tx.OrderPayment.Update().Where(orderpayment.ID(p.ID), orderpayment.StatusEQ(orderpayment.StatusAuthorizing)).SetUpdatedAt(now)
		moved.UpdatedAt = now
		if token, ok := outcome.verifiedTokens[p.ID]; ok {
			update.SetStatus(orderpayment.StatusVerified).SetStep(StepAwaitingPreAuth).SetToken(token)
			moved.Status, moved.Step, moved.Token = orderpayment.StatusVerified, StepAwaitingPreAuth, token
		} else {
			authID := outcome.authorizationIDs[p.ID] // a gift card has none
			update.SetStatus(orderpayment.StatusAuthorized).SetStep(StepPreAuthed).SetAuthorizationID(authID)
			moved.Status, moved.Step, moved.AuthorizationID = orderpayment.StatusAuthorized, StepPreAuthed, authID
		}
		if n, err := update.Save(ctx); err != nil || n == 0 {
			return nil, nil, cmp.Or(err, errNotAsReserved)
		}
	}
	if orders.VerifyAppliedOrders {
		if err := orders.CheckAppliedOrder(ctx, tx.Client(), o); err != nil {
			return nil, nil, err
		}
		if err := checkAuthorizedPayments(ctx, tx.Client(), o.ID, payments); err != nil {
			return nil, nil, err
		}
	}
	return o, payments, nil
}

// platformOrderID is checkoutd's own order number: the order's row number within its type.
func platformOrderID(o *ent.Order) string { return fmt.Sprintf("CKD-%d", o.ID&0xffffffff) }

// markAuthorized moves every tender being authorized to authorized, with its authorization id,
// or to verified when verifiedTokens holds the token its gateway retained, and answers all the order's payments as it leaves them, in the view's order: they are read once,
// and those it moved are changed as their rows are (their times as the databases keep them).
func (s *Service) markAuthorized(ctx context.Context, tx *ent.Tx, o *ent.Order, verifiedTokens map[int]string) ([]*ent.OrderPayment, error) {
	payments, err := tx.OrderPayment.Query().Where(orderpayment.OrderID(o.ID)).Order(orderpayment.ByPosition(), orderpayment.ByID()).
		WithTransactions(func(q *ent.PaymentTransactionQuery) {
			q.Where(paymenttransaction.KindEQ(paymenttransaction.KindAuthorize), paymenttransaction.StatusEQ(paymenttransaction.StatusSucceeded))
		}).All(ctx)
	if err != nil {
		return nil, err
	}
	now := orders.StoredNow()
	for i, p := range payments {
		if p.Status != orderpayment.StatusAuthorizing {
			continue
		}
		moved := *p
		moved.UpdatedAt = now
		update := tx.OrderPayment.Update().Where(orderpayment.ID(p.ID)).SetUpdatedAt(now)
		if token, ok := verifiedTokens[p.ID]; ok {
			update.SetStatus(orderpayment.StatusVerified).SetStep(StepAwaitingPreAuth).SetToken(token)
			moved.Status, moved.Step, moved.Token = orderpayment.StatusVerified, StepAwaitingPreAuth, token
		} else {
			authID := ""
			for _, e := range p.Edges.Transactions {
				authID = e.GatewayTransactionID
			}
			update.SetStatus(orderpayment.StatusAuthorized).SetStep(StepPreAuthed).SetAuthorizationID(authID)
			moved.Status, moved.Step, moved.AuthorizationID = orderpayment.StatusAuthorized, StepPreAuthed, authID
		}
		if err := update.Exec(ctx); err != nil {
			return nil, err
		}
		payments[i] = &moved
	}
	for _, p := range payments {
		p.Edges = ent.OrderPaymentEdges{} // only some transactions were loaded: the view loads its own
	}
	if orders.VerifyAppliedOrders {
		if err := checkAuthorizedPayments(ctx, tx.Client(), o.ID, payments); err != nil {
			return nil, err
		}
	}
	return payments, nil
}

// checkAuthorizedPayments compares the payments an authorizing transaction answers with their
// rows read through c, in test binaries (VerifyAppliedOrders).
func checkAuthorizedPayments(ctx context.Context, c *ent.Client, orderID int, payments []*ent.OrderPayment) error {
	stored, err := orders.OrderPayments(ctx, c, orderID)
	if err != nil {
		return err
	}
	if !orders.SameRows(payments, stored) {
		return fmt.Errorf("order %d: authorized payments %v differ from their rows %v", orderID, payments, stored)
	}
	return nil
}

func outOfStock(li *ent.LineItem) *problem.Error {
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "inventory.insufficient",
		Message: "not enough stock left for " + li.Title + " (" + li.LineItemKey + ")",
		Details: map[string]any{"field": "line_items", "line_item_key": li.LineItemKey, "quantity": li.Quantity}}
}

// reserveStock takes each tracked line's quantity off its variant's stock (catalog.Reserve: two
// orders can never both take the last unit).
func (s *Service) reserveStock(ctx context.Context, tx *ent.Tx, v *orders.OrderView) error {
	for _, li := range v.LineItems {
		if li.VariantID == "" {
			continue
		}
		ok, err := s.catalog.Reserve(ctx, tx, v.Shop.ID, li.VariantID, li.Quantity)
		if err != nil {
			return err
		}
		if !ok {
			return outOfStock(li)
		}
	}
	return nil
}

// releaseReservation gives back the stock and discount uses an order held.
func (s *Service) releaseReservation(ctx context.Context, tx *ent.Tx, v *orders.OrderView) error {
	for _, li := range v.LineItems {
		if li.VariantID == "" {
			continue
		}
		if err := s.catalog.Release(ctx, tx, v.Shop.ID, li.VariantID, li.Quantity); err != nil {
			return err
		}
	}
	return orders.ReleaseDiscountCodes(ctx, tx, v)
}

// AuthorizeResult is the spec's authorize result.
type AuthorizeResult struct {
	Total        int64                      `json:"total"`
	Transactions []AuthorizationTransaction `json:"transactions"`
}

// AuthorizationTransaction is one authorized tender in an authorize result.
type AuthorizationTransaction struct {
	Gateway             string         `json:"gateway"`
	PaymentID           string         `json:"payment_id"`
	Amount              int64          `json:"amount"`
	TransactionID       string         `json:"transaction_id"`
	Currency            string         `json:"currency"`
	Step                string         `json:"step"`
	Status              string         `json:"status"`
	TenderType          string         `json:"tender_type"`
	TenderDetails       map[string]any `json:"tender_details"`
	GatewayResponseData []any          `json:"gateway_response_data"`
}

// AuthorizePayments authorizes every tender of the order not yet authorized, all or nothing
// (the spec: if one fails, every payment of the order is voided), and answers every
// authorization the order holds. The order itself does not change state.
func (s *Service) AuthorizePayments(ctx context.Context, sess *orders.OrderSession) (*AuthorizeResult, error) {
	var (
		view    *orders.OrderView
		tenders []authorizingTender
	)
	gateways, err := s.shops.GatewaysByPublicID(ctx, sess.Shop)
	if err != nil {
		return nil, err
	}
	err = s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.orders.LockSessionOrder(ctx, tx, sess, order.StatusOpen, order.StatusProcessed)
		if err != nil {
			return err
		}
		if view, err = s.orders.ViewOf(ctx, tx.Client(), sess.Shop, o, nil); err != nil {
			return err
		}
		if len(orders.LivePayments(view.Payments)) == 0 {
			return incomplete("order.no_payments", "the order has no payments to authorize", "payments")
		}
		if o.Status != order.StatusOpen {
			return nil
		}
		// Authorize Payments is asked for authorizations: it authorizes whatever the shop's mode.
		if tenders, err = s.reserveTenders(ctx, tx, sess.Shop, view, gateways, false); err != nil {
			return err
		}
		return tx.Order.Update().Where(order.ID(o.ID)).SetStatus(order.StatusProcessing).AddVersion(1).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	s.orders.ForgetKeptOrder(view.Order.ID)
	if view.Order.Status == order.StatusOpen {
		outcome := s.authorizeTenders(ctx, view, tenders)
		if outcome.failed != nil || outcome.requiresAction != nil {
			if err := s.abandonAuthorization(ctx, sess.Shop, view.Order.ID, idOf(outcome.failed), idOf(outcome.requiresAction), "payment authorization failed"); err != nil {
				return nil, err
			}
			if outcome.failed != nil {
				return nil, authorizationFailed(outcome.failed, outcome.failure, false)
			}
			return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "payment.requires_action",
				Message: "the payment's gateway asks the shopper to act before it authorizes", Details: map[string]any{"payment_id": outcome.requiresAction.PublicID}}
		}
		err = s.p.InTx(context.WithoutCancel(ctx), func(tx *ent.Tx) error {
			o, err := s.orders.LockOrder(ctx, tx, view.Order.ID, order.StatusProcessing)
			if err != nil {
				return err
			}
			if _, err := s.markAuthorized(ctx, tx, o, nil); err != nil {
				return err
			}
			return tx.Order.Update().Where(order.ID(o.ID)).SetStatus(order.StatusOpen).AddVersion(1).Exec(ctx)
		})
		if err != nil {
			return nil, err
		}
	}
	return s.authorizeResult(ctx, sess)
}

func (s *Service) authorizeResult(ctx context.Context, sess *orders.OrderSession) (*AuthorizeResult, error) {
	v, err := s.orders.LoadOrder(ctx, sess.Shop, sess.PublicOrderID())
	if err != nil {
		return nil, err
	}
	out := &AuthorizeResult{Total: v.Pricing.Total, Transactions: []AuthorizationTransaction{}}
	for _, p := range v.Payments {
		if p.Status != orderpayment.StatusAuthorized {
			continue
		}
		gw := p.GatewayPublicID
		if p.GiftCardID != nil {
			gw = orders.TenderGiftCard
		}
		out.Transactions = append(out.Transactions, AuthorizationTransaction{Gateway: gw, PaymentID: p.PublicID, Amount: p.Amount,
			TransactionID: p.AuthorizationID, Currency: p.Currency, Step: p.Step, Status: "success", TenderType: p.TenderType,
			TenderDetails: map[string]any{"brand": "", "last_four": "", "bin": "", "expiration": ""}, GatewayResponseData: []any{}})
	}
	return out, nil
}

// RecoverInterruptedAuthorizations finishes what a crash or a lost answer left behind: orders
// stuck in processing for longer than olderThan are abandoned (authorizations voided, stock and
// gift cards given back, the order reopened), and authorizations whose outcome is unknown are
// asked again and voided if they were granted. It is safe to run at any time and more than once.
func (s *Service) RecoverInterruptedAuthorizations(ctx context.Context, olderThan time.Duration) error {
	cutoff := s.p.Clock().Add(-olderThan)
	stuck, err := s.p.DB.Read.Order.Query().Where(order.StatusEQ(order.StatusProcessing), order.UpdatedAtLT(cutoff)).WithShop().All(ctx)
	if err != nil {
		return err
	}
	for _, o := range stuck {
		if err := s.abandonAuthorization(ctx, o.Edges.Shop, o.ID, 0, 0, "processing was interrupted"); err != nil {
			s.p.Log.ErrorContext(ctx, "recovering an interrupted order failed", "public_order_id", o.PublicOrderID, "error", err)
		}
	}
	// An authorization under an operation key is a charge's (charge.go): its capture, followed up,
	// asks again for it.
	unknown, err := s.p.DB.Read.PaymentTransaction.Query().Where(paymenttransaction.KindEQ(paymenttransaction.KindAuthorize),
		paymenttransaction.StatusEQ(paymenttransaction.StatusUnknown), paymenttransaction.OperationKeyEQ(""), paymenttransaction.UpdatedAtLT(cutoff)).
		WithPayment().WithOrder(func(q *ent.OrderQuery) { q.WithShop() }).All(ctx)
	if err != nil {
		return err
	}
	for _, e := range unknown {
		if e.Edges.Order.Status == order.StatusProcessing {
			continue
		}
		if err := s.resolveUnknownAuthorization(ctx, e); err != nil {
			s.p.Log.ErrorContext(ctx, "resolving an authorization of unknown outcome failed", "entry", e.PublicID, "error", err)
		}
	}
	voids, err := s.p.DB.Read.PaymentTransaction.Query().Where(paymenttransaction.KindEQ(paymenttransaction.KindVoid),
		paymenttransaction.StatusIn(paymenttransaction.StatusUnknown, paymenttransaction.StatusPending), paymenttransaction.UpdatedAtLT(cutoff)).
		WithPayment().WithOrder(func(q *ent.OrderQuery) { q.WithShop() }).All(ctx)
	if err != nil {
		return err
	}
	for _, e := range voids {
		if err := s.retryVoid(ctx, e); err != nil {
			s.p.Log.ErrorContext(ctx, "retrying a void failed", "entry", e.PublicID, "error", err)
		}
	}
	return nil
}

// FollowUpPendingMoves asks the gateways again, under the same keys, about captures and refunds
// that are still pending (answered 202) or whose answer was lost, older than olderThan, and
// records what they say.
func (s *Service) FollowUpPendingMoves(ctx context.Context, olderThan time.Duration) error {
	pending, err := s.p.DB.Read.PaymentTransaction.Query().Where(
		paymenttransaction.KindIn(paymenttransaction.KindCapture, paymenttransaction.KindRefund),
		paymenttransaction.StatusIn(paymenttransaction.StatusPending, paymenttransaction.StatusUnknown),
		paymenttransaction.UpdatedAtLT(s.p.Clock().Add(-olderThan))).
		WithOrder(func(q *ent.OrderQuery) { q.WithShop() }).All(ctx)
	if err != nil {
		return err
	}
	for _, e := range pending {
		s.followUp(ctx, e)
	}
	return nil
}

// followUp asks the gateway again, under the entry's key, about a capture or refund in doubt and
// settles it; e comes with its order and the order's shop.
func (s *Service) followUp(ctx context.Context, e *ent.PaymentTransaction) {
	sess := &orders.OrderSession{Shop: e.Edges.Order.Edges.Shop, Order: e.Edges.Order}
	if e.Kind == paymenttransaction.KindCapture {
		s.sendCapture(ctx, sess, e, false)
	} else {
		s.sendRefund(ctx, sess, e, "")
	}
}
