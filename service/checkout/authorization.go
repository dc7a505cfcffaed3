package checkout

import (
	"context"
	"fmt"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/ent/giftcard"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Authorizing the tenders of an order follows one pattern, so that no gateway is ever called
// while a database transaction is open and a crash at any point can be undone:
//
//  1. reserve (one transaction): the order moves to processing, gift cards are debited, and
//     every gateway tender gets a pending ledger entry whose public id is the call's
//     Idempotency-Key;
//  2. call the gateways one by one, settling each ledger entry in its own short transaction as
//     soon as the answer arrives;
//  3. finish (one transaction): all authorized, or, if one failed, every authorization of the
//     order is voided and everything reserved in step 1 is given back (abandonAuthorization).
//
// An order left in processing by a crash is finished by RecoverInterruptedAuthorizations, which
// works from the ledger alone.

// authorizingTender is one gateway tender being authorized.
type authorizingTender struct {
	payment *ent.OrderPayment
	entry   *ent.PaymentTransaction
	gateway gateway.Gateway
}

// authorizationOutcome is what the gateways said.
type authorizationOutcome struct {
	failed         *ent.OrderPayment // the tender that was declined or could not be authorized
	failure        error
	requiresAction *ent.OrderPayment // the tender whose gateway asks the shopper to act
	// authorizationIDs are the ids the gateways gave the authorizations, by payment id.
	authorizationIDs map[int]string
	// granted are the ledger entries of authorizations granted and not settled yet: every tender
	// was authorized and the caller settles them (authorizeTendersSettlingLater).
	granted []grantedEntry
	// verifiedTokens are the tokens the gateways retained for the tenders only verified (the
	// shop's verify_payments_only), by payment id: the charge of Capture Specific Payment uses them.
	verifiedTokens map[int]string
}

// grantedEntry is a ledger entry whose authorization the gateway granted.
type grantedEntry struct {
	entry     *ent.PaymentTransaction
	gatewayID string
	latency   time.Duration
}

// reserveTenders runs in step 1's transaction: debits gift card tenders and writes the pending
// ledger entries of gateway tenders, through gateways (shops.GatewaysByPublicID). Tenders already
// authorized are left as they are. With verifyOnly, a gateway tender's entry is a retain of no
// amount: the card is verified, and charged later (Capture Specific Payment).
func (s *Service) reserveTenders(ctx context.Context, tx *ent.Tx, sh *ent.Shop, v *orders.OrderView, gateways map[string]*ent.ExternalPaymentGateway, verifyOnly bool) ([]authorizingTender, error) {
	var out []authorizingTender
	for _, p := range v.Payments {
		if p.Status != orderpayment.StatusAdded {
			continue
		}
		entry := payment.Entry{ShopID: sh.ID, OrderID: v.Order.ID, PaymentID: p.ID, Kind: paymenttransaction.KindAuthorize,
			Amount: p.Amount, Currency: p.Currency}
		if p.GiftCardID != nil {
			// The balance only goes down when it covers the amount, whatever runs at the same time.
			n, err := tx.GiftCard.Update().Where(giftcard.ID(*p.GiftCardID), giftcard.BalanceGTE(p.Amount)).
				AddBalance(-p.Amount).Save(ctx)
			if err != nil {
				return nil, err
			}
			if n == 0 {
				return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "payment.gift_card_balance",
					Message: "the gift card no longer holds " + fmt.Sprint(p.Amount), Details: map[string]any{"field": "payments", "payment_id": p.PublicID}}
			}
			entry.Settled = true
			if _, err := s.ledger.Open(ctx, tx, entry); err != nil {
				return nil, err
			}
			if err := tx.OrderPayment.Update().Where(orderpayment.ID(p.ID)).SetStatus(orderpayment.StatusAuthorizing).Exec(ctx); err != nil {
				return nil, err
			}
			continue
		}
		gw, ok := gateways[p.GatewayPublicID]
		if !ok {
			return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "payment.gateway_not_found",
				Message: "the gateway of payment " + p.PublicID + " is no longer configured; remove the payment and add another",
				Details: map[string]any{"field": "payments", "payment_id": p.PublicID}}
		}
		if verifyOnly {
			entry.Kind, entry.Amount = paymenttransaction.KindRetain, 0
		}
		e, err := s.ledger.Open(ctx, tx, entry)
		if err != nil {
			return nil, err
		}
		if err := tx.OrderPayment.Update().Where(orderpayment.ID(p.ID)).SetStatus(orderpayment.StatusAuthorizing).Exec(ctx); err != nil {
			return nil, err
		}
		out = append(out, authorizingTender{payment: p, entry: e, gateway: payment.GatewayOf(gw)})
	}
	return out, nil
}

// authorizeTenders is step 2: no transaction is open while it runs. It stops at the first
// tender that is not authorized; the tenders after it are settled as never sent. Every gateway
// answer is settled on its ledger entry as it comes.
func (s *Service) authorizeTenders(ctx context.Context, v *orders.OrderView, tenders []authorizingTender) authorizationOutcome {
	out := s.authorizeTendersSettlingLater(ctx, v, tenders)
	s.settleGranted(ctx, out.granted)
	out.granted = nil
	return out
}

// authorizeTendersSettlingLater is authorizeTenders leaving the entries of authorizations
// granted to the caller when every tender was authorized (outcome.granted), so that it settles
// them in the transaction that completes the order. A crash before that leaves them pending,
// as a crash before settling always could: the recovery sweep asks their gateways again.
// When a tender is not authorized, every answer is settled before it returns.
func (s *Service) authorizeTendersSettlingLater(ctx context.Context, v *orders.OrderView, tenders []authorizingTender) authorizationOutcome {
	out := s.authorizeEach(ctx, v, tenders)
	if out.failed != nil || out.requiresAction != nil {
		stopped := false
		for _, t := range tenders {
			if stopped {
				s.settle(ctx, t.entry, "", 0, &gateway.Error{Declined: true, Code: "not_sent", Message: "not sent: an earlier payment was not authorized"}, paymenttransaction.StatusFailed)
			}
			stopped = stopped || t.payment.ID == idOf(out.failed) || t.payment.ID == idOf(out.requiresAction)
		}
	}
	return out
}

func idOf(p *ent.OrderPayment) int {
	if p == nil {
		return 0
	}
	return p.ID
}

func (s *Service) authorizeEach(ctx context.Context, v *orders.OrderView, tenders []authorizingTender) authorizationOutcome {
	authorizationIDs := make(map[int]string, len(tenders))
	var granted []grantedEntry
	// The abandoning of the attempt reads the ledger: what was granted is settled before.
	defer func() { s.settleGranted(ctx, granted) }()
	var verifiedTokens map[int]string
	for _, t := range tenders {
		if t.entry.Kind == paymenttransaction.KindRetain {
			start := time.Now()
			var retained string
			err := askTwice(ctx, func(ctx context.Context) (err error) {
				retained, err = s.gateways.Retain(ctx, t.gateway, t.entry.PublicID, gateway.RetainRequest{
					Token: t.payment.Token, CustomerData: customerData(v.Order), BillingAddress: v.Order.BillingAddress})
				return err
			})
			if err != nil {
				s.settle(ctx, t.entry, "", time.Since(start), err, ledgerStatus(err))
				return authorizationOutcome{failed: t.payment, failure: err}
			}
			if verifiedTokens == nil {
				verifiedTokens = map[int]string{}
			}
			verifiedTokens[t.payment.ID] = retained
			granted = append(granted, grantedEntry{entry: t.entry, latency: time.Since(start)})
			continue
		}
		token := t.payment.Token
		if t.payment.Retain {
			retained, err := s.gateways.Retain(ctx, t.gateway, t.entry.PublicID+"-retain", gateway.RetainRequest{
				Token: token, CustomerData: customerData(v.Order), BillingAddress: v.Order.BillingAddress})
			if err != nil {
				s.settle(ctx, t.entry, "", 0, err, paymenttransaction.StatusFailed)
				return authorizationOutcome{failed: t.payment, failure: err}
			}
			token = retained
		}
		req := gateway.AuthRequest{Token: token, Amount: t.payment.Amount, Currency: t.payment.Currency, OrderID: v.Order.PublicOrderID,
			BillingAddress: v.Order.BillingAddress, ShippingAddress: v.Order.ShippingAddress}
		start := time.Now()
		var res gateway.AuthResponse
		err := askTwice(ctx, func(ctx context.Context) (err error) {
			res, err = s.gateways.Authorize(ctx, t.gateway, t.entry.PublicID, req)
			return err
		})
		if err == nil && res.RequiresAction {
			s.settle(ctx, t.entry, "", time.Since(start), nil, paymenttransaction.StatusFailed)
			return authorizationOutcome{requiresAction: t.payment}
		}
		if err != nil {
			s.settle(ctx, t.entry, res.AuthorizationID, time.Since(start), err, ledgerStatus(err))
			return authorizationOutcome{failed: t.payment, failure: err}
		}
		granted = append(granted, grantedEntry{entry: t.entry, gatewayID: res.AuthorizationID, latency: time.Since(start)})
		authorizationIDs[t.payment.ID] = res.AuthorizationID
	}
	out := authorizationOutcome{authorizationIDs: authorizationIDs, granted: granted, verifiedTokens: verifiedTokens}
	granted = nil // every tender authorized: the caller settles them
	return out
}

// settleGranted settles the entries of authorizations granted, each in a transaction of its own.
func (s *Service) settleGranted(ctx context.Context, granted []grantedEntry) {
	for _, g := range granted {
		s.settle(ctx, g.entry, g.gatewayID, g.latency, nil, paymenttransaction.StatusSucceeded)
	}
}

func customerData(o *ent.Order) map[string]any {
	if o.Customer == nil {
		return map[string]any{}
	}
	return map[string]any{"first_name": o.Customer.FirstName, "last_name": o.Customer.LastName, "email_address": o.Customer.EmailAddress}
}

// settle records a gateway answer on its ledger entry, in a transaction of its own. It runs
// even when the caller's context is cancelled: the gateway has acted, the ledger must say so.
func (s *Service) settle(ctx context.Context, entry *ent.PaymentTransaction, gatewayID string, latency time.Duration, callErr error, status paymenttransaction.Status) {
	ctx = context.WithoutCancel(ctx)
	if err := s.ledger.Settle(ctx, nil, entry, gatewayID, latency, callErr, status); err != nil {
		s.p.Log.ErrorContext(ctx, "settling a payment ledger entry failed", "entry", entry.PublicID, "error", err)
	}
}

// abandonAuthorization is step 3 when not every tender was authorized: every authorization of
// the order is voided (those whose outcome was lost are asked again first), gift cards are
// credited, the order's reservation of stock and discount uses is given back, and it reopens. It reads
// everything from the ledger, so it also finishes an attempt a crash interrupted. failedID names
// the tender that failed (it leaves the order), keepID one that stays on the order as added
// (the tender whose gateway asks the shopper to act).
func (s *Service) abandonAuthorization(ctx context.Context, sh *ent.Shop, orderID int, failedID, keepID int, reason string) error {
	ctx = context.WithoutCancel(ctx)
	o, err := s.p.DB.Read.Order.Get(ctx, orderID)
	if err != nil {
		return err
	}
	payments, err := s.p.DB.Read.OrderPayment.Query().Where(orderpayment.OrderID(orderID),
		orderpayment.StatusIn(orderpayment.StatusAuthorizing, orderpayment.StatusAuthorized)).WithTransactions().All(ctx)
	if err != nil {
		return err
	}
	gateways := map[string]gateway.Gateway{}
	gws, err := s.p.DB.Read.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(sh.ID)).All(ctx)
	if err != nil {
		return err
	}
	for _, g := range gws {
		gateways[g.PublicID] = payment.GatewayOf(g)
	}
	voided := map[int]bool{}
	for _, p := range payments {
		if p.GiftCardID != nil {
			continue
		}
		g, ok := gateways[p.GatewayPublicID]
		if !ok {
			continue
		}
		for _, e := range p.Edges.Transactions {
			if e.Kind == paymenttransaction.KindAuthorize && e.Status != paymenttransaction.StatusFailed && s.voidGranted(ctx, sh, o, p, e, g) {
				voided[p.ID] = true
			}
		}
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.orders.LockOrder(ctx, tx, orderID, order.StatusProcessing, order.StatusOpen)
		if err != nil {
			return err
		}
		for _, p := range payments {
			status := orderpayment.StatusAdded
			switch {
			case p.ID == failedID:
				status = orderpayment.StatusFailed
			case p.ID == keepID:
			case voided[p.ID]:
				status = orderpayment.StatusVoided
			}
			if p.GiftCardID != nil {
				if err := s.creditGiftCard(ctx, tx, sh, o, p); err != nil {
					return err
				}
			}
			if err := tx.OrderPayment.Update().Where(orderpayment.ID(p.ID)).SetStatus(status).SetStep("").SetAuthorizationID("").Exec(ctx); err != nil {
				return err
			}
		}
		v, err := s.orders.ViewOf(ctx, tx.Client(), sh, o, nil)
		if err != nil {
			return err
		}
		if o.Reserved {
			if err := s.releaseReservation(ctx, tx, v); err != nil {
				return err
			}
		}
		// Trying to pay was the shopper's activity: the abandoned-order hour starts again.
		if err := tx.Order.UpdateOne(o).SetStatus(order.StatusOpen).SetReserved(false).AddVersion(1).
			SetLastActivityAt(s.p.Clock()).ClearAbandonedAt().Exec(ctx); err != nil {
			return err
		}
		if failedID == 0 && keepID != 0 {
			// A gateway asking the shopper to act has not failed the order: the shopper acts and
			// processes it again, so this is no order/failed.
			return nil
		}
		return s.orders.RecordOrderEvent(ctx, tx, sh, o, platform.TopicOrderFailed, map[string]any{"reason": reason})
	})
}

// voidGranted voids the authorization of ledger entry e if the gateway granted it; an entry
// whose outcome is not known yet is first asked again with its own idempotency key. It reports
// whether an authorization was found and voided.
func (s *Service) voidGranted(ctx context.Context, sh *ent.Shop, o *ent.Order, p *ent.OrderPayment, e *ent.PaymentTransaction, g gateway.Gateway) bool {
	authID := e.GatewayTransactionID
	if e.Status != paymenttransaction.StatusSucceeded {
		res, err := s.gateways.Authorize(ctx, g, e.PublicID, gateway.AuthRequest{Token: p.Token, Amount: e.Amount,
			Currency: e.Currency, OrderID: o.PublicOrderID, BillingAddress: o.BillingAddress, ShippingAddress: o.ShippingAddress})
		switch {
		case err == nil && res.AuthorizationID != "":
			s.settle(ctx, e, res.AuthorizationID, 0, nil, paymenttransaction.StatusSucceeded)
			authID = res.AuthorizationID
		case err == nil || gateway.IsDeclined(err):
			s.settle(ctx, e, "", 0, err, paymenttransaction.StatusFailed)
			return false
		default:
			// Still unknown: the entry stays unknown and the recovery sweep asks again later;
			// no capture can use an authorization whose id checkoutd never learned.
			s.settle(ctx, e, "", 0, err, paymenttransaction.StatusUnknown)
			return false
		}
	}
	if err := s.voidAuthorization(ctx, sh, o, p, e, g, authID); err != nil {
		s.p.Log.ErrorContext(ctx, "voiding an authorization failed; the recovery sweep retries it", "error", err)
	}
	return true
}

// resolveUnknownAuthorization asks the gateway again about an authorization whose answer was
// lost on an order that has moved on, and voids it if it was granted.
func (s *Service) resolveUnknownAuthorization(ctx context.Context, e *ent.PaymentTransaction) error {
	o, p := e.Edges.Order, e.Edges.Payment
	g, err := s.p.DB.Read.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(o.ShopID),
		externalpaymentgateway.PublicID(p.GatewayPublicID)).Only(ctx)
	if err != nil {
		return err
	}
	s.voidGranted(ctx, o.Edges.Shop, o, p, e, payment.GatewayOf(g))
	return nil
}

// retryVoid sends a void whose answer was lost again, under its own idempotency key.
func (s *Service) retryVoid(ctx context.Context, e *ent.PaymentTransaction) error {
	o, p := e.Edges.Order, e.Edges.Payment
	g, err := s.p.DB.Read.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(o.ShopID),
		externalpaymentgateway.PublicID(p.GatewayPublicID)).Only(ctx)
	if err != nil {
		return err
	}
	return s.sendVoid(ctx, payment.GatewayOf(g), e)
}

// voidAuthorization releases one authorization at its gateway, recorded in the ledger as a
// void entry written before the call and settled after it.
func (s *Service) voidAuthorization(ctx context.Context, sh *ent.Shop, o *ent.Order, p *ent.OrderPayment, auth *ent.PaymentTransaction, g gateway.Gateway, authID string) error {
	entry, err := s.ledger.Open(ctx, nil, payment.Entry{ShopID: sh.ID, OrderID: o.ID, PaymentID: p.ID,
		Kind: paymenttransaction.KindVoid, Amount: auth.Amount, Currency: auth.Currency, Reference: authID})
	if err != nil {
		return err
	}
	if err := s.sendVoid(ctx, g, entry); err != nil {
		return fmt.Errorf("voiding authorization %s of order %s: %w", authID, o.PublicOrderID, err)
	}
	return nil
}

// sendVoid sends one reserved void (its reference is the authorization) and settles it. A
// refusal means the gateway holds no open authorization under that id (already voided or
// expired); a lost answer leaves the entry unknown for the sweep, and is returned.
func (s *Service) sendVoid(ctx context.Context, g gateway.Gateway, e *ent.PaymentTransaction) error {
	start := time.Now()
	err := askTwice(ctx, func(ctx context.Context) error {
		return s.gateways.Void(ctx, g, e.PublicID, gateway.VoidRequest{AuthorizationID: e.ReferenceTransactionID})
	})
	txID := ""
	if err == nil {
		txID = e.ReferenceTransactionID
	}
	status := ledgerStatus(err)
	s.settle(ctx, e, txID, time.Since(start), err, status)
	if status == paymenttransaction.StatusUnknown {
		return err
	}
	return nil
}

// askTwice makes one gateway call and, when its answer was lost (not a refusal), asks once more
// under the same idempotency key: the gateway answers what it did the first time.
func askTwice(ctx context.Context, call func(ctx context.Context) error) error {
	err := call(ctx)
	if err != nil && !gateway.IsDeclined(err) {
		err = call(context.WithoutCancel(ctx))
	}
	return err
}

// ledgerStatus is what a call's outcome makes of its ledger entry.
func ledgerStatus(err error) paymenttransaction.Status {
	switch {
	case err == nil:
		return paymenttransaction.StatusSucceeded
	case gateway.IsDeclined(err):
		return paymenttransaction.StatusFailed
	}
	return paymenttransaction.StatusUnknown
}

// creditGiftCard gives a gift card tender's debit back, with a void entry in the ledger.
func (s *Service) creditGiftCard(ctx context.Context, tx *ent.Tx, sh *ent.Shop, o *ent.Order, p *ent.OrderPayment) error {
	if err := tx.GiftCard.UpdateOneID(*p.GiftCardID).AddBalance(p.Amount).Exec(ctx); err != nil {
		return err
	}
	_, err := s.ledger.Open(ctx, tx, payment.Entry{ShopID: sh.ID, OrderID: o.ID, PaymentID: p.ID,
		Kind: paymenttransaction.KindVoid, Amount: p.Amount, Currency: p.Currency, Settled: true})
	return err
}

// authorizationFailed is the 422 naming the tender that was not authorized (or, only verified,
// not verified).
func authorizationFailed(p *ent.OrderPayment, cause error, verifyOnly bool) *problem.Error {
	details := map[string]any{"field": "payments", "payment_id": p.PublicID, "gateway_public_id": p.GatewayPublicID,
		"display_string": p.DisplayString, "amount": p.Amount}
	msg := "the payment " + p.DisplayString + " was not authorized"
	if verifyOnly {
		msg = "the payment " + p.DisplayString + " was not verified"
	}
	typ := "payment.authorization_failed"
	if e, ok := cause.(*gateway.Error); ok {
		details["gateway_error_code"] = e.Code
		if e.Declined {
			msg += ": " + e.Message
			typ = "payment.declined"
		} else {
			msg += ": the payment gateway did not answer"
		}
	}
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: typ, Message: msg, Details: details}
}
