// Package rsa is the remote state authority: when a shop has one (its rsa_config), the RSA owns
// the state of the shop's orders during checkout. Each change a shopper or the shop's backend
// makes is sent to it as an event with the order's RSA order state (process_order_events), and
// its answer replaces checkoutd's copy of the order; addresses, email addresses and discount
// codes are first put to its validate operations, and the order's inventory to
// validate_inventory at init and at process order. Calls are signed and bounded by
// service/remote, and never made while a transaction is open; an order's calls are made one at
// a time, across processes, under its hold (orders.RemoteHold).
package rsa

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	json "github.com/segmentio/encoding/json"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/remote"
	"github.com/checkoutd/checkoutd/service/shops"
)

// The RSA's operations, as its paths and the exchange log name them.
const (
	callProcessOrderEvents   = "process_order_events"
	callValidateAddress      = "validate_address"
	callValidateEmail        = "validate_email_address"
	callValidateDiscountCode = "validate_discount_code"
	callValidateInventory    = "validate_inventory"
)

// holdMargin is how long past its call's timeout an order is held: enough to apply the
// answer. waitCalls bounds how long a request waits for the order's hold, in calls of its
// RSA: a shopper's burst of changes is served one after another, not refused.
const (
	holdMargin = 5 * time.Second
	waitCalls  = 4
)

// Service is the remote state authority of each shop that has one.
type Service struct {
	p      *platform.Platform
	shops  *shops.Service
	orders *orders.Service
	client *remote.Client
	passes passes
}

// New returns the RSA domain; the wiring makes orders use it (orders.UseStateAuthority).
func New(p *platform.Platform, sh *shops.Service, o *orders.Service, client *remote.Client) *Service {
	s := &Service{p: p, shops: sh, orders: o, client: client, passes: newPasses()}
	// What an RSA left on the shop's open orders goes with it, in the transaction that deletes
	// it, so that no order change of a shop without one has to look for it.
	sh.OnRSAConfigDeleted(o.ForgetRemoteStateOfShop)
	return s
}

// timeout is the RSA's call timeout (its timeout_ms), bounded by service/remote.
func timeout(cfg *ent.RSAConfig) time.Duration {
	return remote.Timeout(time.Duration(cfg.TimeoutMs) * time.Millisecond)
}

// call makes one call of the shop's RSA about an order: a 2xx answer's body, a 422 for a 400
// (any 4xx), a 503 (CodeUnavailable) when it could not be heard.
func (s *Service) call(ctx context.Context, cfg *ent.RSAConfig, sh *ent.Shop, publicOrderID, call string, body any) ([]byte, error) {
	u := strings.TrimRight(cfg.URL, "/") + "/shops/" + url.PathEscape(sh.Identifier) + "/orders/" + url.PathEscape(publicOrderID) + "/" + call
	a, _, err := s.client.Do(ctx, remote.Request{
		Remote: "rsa:" + strconv.Itoa(cfg.ID) + ":" + cfg.URL, Kind: remote.KindRSA, Call: call,
		ShopID: sh.ID, PublicOrderID: publicOrderID, URL: u, Secret: []byte(cfg.SharedSecret), Timeout: timeout(cfg), Body: body,
	})
	if err != nil {
		return nil, unavailable(err)
	}
	if a.RefusedCredentials() {
		// Not a "no" about the change: the RSA and the shop's configuration disagree on the secret.
		return nil, unavailable(fmt.Errorf("it refused checkoutd's signature (%d): check the shared secret", a.Status))
	}
	if a.Status >= 400 {
		return nil, refused(call, a.Body)
	}
	return a.Body, nil
}

// Event sends one change of the session's order to the shop's RSA, after its validate
// operation where the change has one, and applies the answer.
func (s *Service) Event(ctx context.Context, sess *orders.OrderSession, ev orders.RemoteEvent) (*orders.OrderView, bool, error) {
	cfg, err := s.shops.RSAConfig(ctx, sess.Shop)
	if err != nil {
		return nil, true, err
	}
	if cfg == nil {
		return nil, false, nil
	}
	v, err := s.event(ctx, cfg, sess, ev)
	return v, true, err
}

func (s *Service) event(ctx context.Context, cfg *ent.RSAConfig, sess *orders.OrderSession, ev orders.RemoteEvent) (*orders.OrderView, error) {
	// An order this process has seen is not read before it is held: its id does not change, and
	// its state is read again once held.
	o, err := s.orders.LastKnownOrder(ctx, sess)
	if err != nil {
		return nil, err
	}
	if o.Status != order.StatusOpen {
		return nil, orders.OrderNotInState(o)
	}
	data, err := s.validate(ctx, cfg, sess, ev)
	if err != nil {
		return nil, err
	}
	t := timeout(cfg)
	h, err := s.orders.HoldForRemote(ctx, sess, t+holdMargin, waitCalls*(t+holdMargin))
	if errors.Is(err, orders.ErrRemoteHoldBusy) {
		return nil, busy()
	}
	if err != nil {
		return nil, err
	}
	defer h.Release(ctx)
	sent, answer, r, err := s.processOrderEvent(ctx, cfg, sess, h.View, ev, data, nil, nil)
	if err != nil {
		return nil, err
	}
	// The answer is applied whatever happens to the shopper's request meanwhile: the RSA has
	// made the change.
	v, err := s.orders.ApplyRemoteOrder(context.WithoutCancel(ctx), sess, h, r)
	if !errors.Is(err, orders.ErrHeldOrderMoved) {
		return v, err
	}
	// The order was held as this process kept it, and its row had moved on: read, it is asked
	// about again, unless the RSA was sent the very state it has now.
	if err := s.orders.ReadHeldAgain(ctx, sess, h); err != nil {
		return nil, err
	}
	if _, _, r, err = s.processOrderEvent(ctx, cfg, sess, h.View, ev, data, sent, answer); err != nil {
		return nil, err
	}
	return s.orders.ApplyRemoteOrder(context.WithoutCancel(ctx), sess, h, r)
}

// processOrderEvent sends the event with held's order state to process_order_events, and
// answers the state sent, the answer, and the answer as the order's. When the state is the one
// sent before (sent), that answer (answered) is taken again without a call.
func (s *Service) processOrderEvent(ctx context.Context, cfg *ent.RSAConfig, sess *orders.OrderSession, held *orders.OrderView, ev orders.RemoteEvent, data any, sent *OrderState, answered []byte) (state *OrderState, answer []byte, r orders.RemoteOrder, err error) {
	if c, ok := data.(*Customer); ok && held.Order.Customer != nil && c.PlatformID == nil {
		// An update of the order's customer: it stays the same customer.
		c.PlatformID, c.PublicID = held.Order.Customer.PlatformID, held.Order.Customer.PublicID
	}
	var last *OrderState
	if len(held.Order.RsaState) > 0 {
		last = &OrderState{}
		if json.Unmarshal(held.Order.RsaState, last) != nil {
			last = nil
		}
	}
	body := ProcessOrderEvents{CartID: held.Order.PublicOrderID, PublicOrderID: held.Order.PublicOrderID,
		OrderState: stateOf(held, last), Events: []Event{{EventName: ev.Name, Data: data}}}
	answer = answered
	if sent == nil || !sameState(body.OrderState, *sent) {
		if answer, err = s.call(ctx, cfg, sess.Shop, held.Order.PublicOrderID, callProcessOrderEvents, body); err != nil {
			return nil, nil, r, err
		}
	}
	// segmentio's encoding/json (the package's JSON throughout) decodes an order state in about
	// half the CPU of the standard library's, with its semantics; the first value is read, as
	// a Decoder would. It fills a slice given room in place, and otherwise makes room for ten:
	// the answer's lines are given room for the order's.
	st := OrderState{LineItems: make([]LineItem, 0, max(len(held.LineItems), 1))}
	if _, err := json.Parse(answer, &st, json.UseNumber); err != nil {
		return nil, nil, r, invalidAnswer(err.Error())
	}
	if r, err = remoteOrder(&st, held); err != nil {
		return nil, nil, r, invalidAnswer(err.Error())
	}
	r.TaxesApplied = ev.Name == orders.EventApplyTaxes
	return &body.OrderState, answer, r, nil
}

// sameState says whether two order states are one on the wire.
func sameState(a, b OrderState) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// validate asks the RSA's validate operation of a change that has one (an address or email
// address only when it did not pass it for the order already: passed.go), and answers the
// event's data on the wire.
func (s *Service) validate(ctx context.Context, cfg *ent.RSAConfig, sess *orders.OrderSession, ev orders.RemoteEvent) (any, error) {
	id := sess.PublicOrderID()
	switch d := ev.Data.(type) {
	case schema.OrderAddress:
		a := addressOf(&d)
		return a, s.validateOnce(ctx, cfg, sess, callValidateAddress, passedKey{address: *a}, a)
	case *schema.OrderCustomer:
		c := &Customer{PlatformID: d.PlatformID, PublicID: d.PublicID, FirstName: d.FirstName, LastName: d.LastName,
			EmailAddress: d.EmailAddress, AcceptsMarketing: d.AcceptsMarketing}
		if d.EmailAddress != "" {
			body := map[string]string{"email_address": d.EmailAddress}
			if err := s.validateOnce(ctx, cfg, sess, callValidateEmail, passedKey{email: d.EmailAddress}, body); err != nil {
				return nil, err
			}
		}
		return c, nil
	case map[string]string:
		if code, ok := d["code"]; ok && ev.Name == orders.EventAddDiscountCode {
			_, err := s.call(ctx, cfg, sess.Shop, id, callValidateDiscountCode, map[string]string{"discount_code": code, "cart_id": id})
			return d, err
		}
	}
	return ev.Data, nil
}

// CheckInventory is validate_inventory of the shop's RSA at stage; nil when it has none.
func (s *Service) CheckInventory(ctx context.Context, sess *orders.OrderSession, v *orders.OrderView, stage string) error {
	cfg, err := s.shops.RSAConfig(ctx, sess.Shop)
	if err != nil {
		return err
	}
	if cfg == nil {
		return nil
	}
	if v == nil {
		if v, err = s.orders.CurrentView(ctx, sess); err != nil {
			return err
		}
	}
	st := stateOf(v, nil)
	body := ValidateInventory{CartID: st.CartID, PublicOrderID: v.Order.PublicOrderID, Type: stage, Items: []InventoryItem{},
		ShippingAddress: st.ShippingAddress, Tags: st.Tags, Notes: st.Notes, CartParams: st.CartParams}
	for _, li := range v.LineItems {
		body.Items = append(body.Items, InventoryItem{LineItemKey: li.LineItemKey, PlatformVariantID: li.VariantID,
			Quantity: li.Quantity, SKU: li.Sku, Properties: li.Properties})
	}
	_, err = s.call(ctx, cfg, sess.Shop, v.Order.PublicOrderID, callValidateInventory, body)
	return err
}
