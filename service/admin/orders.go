package admin

import (
	"context"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/event"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/payment"
	"github.com/checkoutd/checkoutd/service/problem"
)

// OrderFilter narrows the admin's order listing. Dates are whole UTC days, both included.
type OrderFilter struct {
	// Query matches the public order id, the platform order id or the customer's email.
	Query  string
	Status string
	From   *time.Time
	To     *time.Time
	PageRequest
}

// OrderSummary is one row of the order listing.
type OrderSummary struct {
	Order *ent.Order
	// Authorized is what the order's payments were authorized for, from its ledger.
	Authorized int64
}

// OrderStatuses are the states an order listing can be filtered by.
var OrderStatuses = []string{order.StatusOpen.String(), order.StatusProcessing.String(), order.StatusProcessed.String(), order.StatusCancelled.String()}

func (f OrderFilter) validate() error {
	p := input.Problems{}
	if f.Status != "" && order.StatusValidator(order.Status(f.Status)) != nil {
		p.Add("status", "must be one of open, processing, processed, cancelled")
	}
	if f.From != nil && f.To != nil && f.To.Before(*f.From) {
		p.Add("to", "must not be before from")
	}
	if len(p) > 0 {
		return problem.Validation("order.invalid_filter", "invalid order filter: "+p.Message(), p.Details())
	}
	return nil
}

// Orders lists the shop's orders, newest first, with what each was authorized for.
func (s *Service) Orders(ctx context.Context, sh *ent.Shop, f OrderFilter) (Page[OrderSummary], error) {
	if err := f.validate(); err != nil {
		return Page[OrderSummary]{}, err
	}
	preds := []predicate.Order{order.ShopID(sh.ID)}
	if q := strings.TrimSpace(f.Query); q != "" {
		preds = append(preds, order.Or(order.PublicOrderIDContains(q), order.PlatformOrderID(q),
			func(s *sql.Selector) {
				s.Where(sqljson.StringContains(order.FieldCustomer, q, sqljson.Path("email_address")))
			}))
	}
	if f.Status != "" {
		preds = append(preds, order.StatusEQ(order.Status(f.Status)))
	}
	if f.From != nil {
		preds = append(preds, order.CreatedAtGTE(dayStart(*f.From)))
	}
	if f.To != nil {
		preds = append(preds, order.CreatedAtLT(dayStart(*f.To).AddDate(0, 0, 1)))
	}
	orders, err := Paged[*ent.Order](ctx, s.p.DB.Read.Order.Query().Where(preds...).Order(ent.Desc(order.FieldCreatedAt), ent.Desc(order.FieldID)), f.PageRequest)
	if err != nil {
		return Page[OrderSummary]{}, err
	}
	ids := make([]int, len(orders.Items))
	for i, o := range orders.Items {
		ids[i] = o.ID
	}
	// One grouped query for the page, not one per row.
	var sums []struct {
		OrderID int   `json:"order_id"`
		Sum     int64 `json:"sum"`
	}
	if len(ids) > 0 {
		err = s.p.DB.Read.PaymentTransaction.Query().
			Where(paymenttransaction.OrderIDIn(ids...), paymenttransaction.KindEQ(paymenttransaction.KindAuthorize), paymenttransaction.StatusEQ(paymenttransaction.StatusSucceeded)).
			GroupBy(paymenttransaction.FieldOrderID).Aggregate(ent.Sum(paymenttransaction.FieldAmount)).Scan(ctx, &sums)
		if err != nil {
			return Page[OrderSummary]{}, err
		}
	}
	authorized := make(map[int]int64, len(sums))
	for _, r := range sums {
		authorized[r.OrderID] = r.Sum
	}
	out := Page[OrderSummary]{Total: orders.Total, Page: orders.Page, PerPage: orders.PerPage, Items: make([]OrderSummary, len(orders.Items))}
	for i, o := range orders.Items {
		out.Items[i] = OrderSummary{Order: o, Authorized: authorized[o.ID]}
	}
	return out, nil
}

func dayStart(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// OrderDetail is everything the admin's order page shows: the order's state, its payment
// ledger, its events, and what can still be done with its money.
type OrderDetail struct {
	View *orders.OrderView
	// Ledger is every entry of the payments ledger, oldest first, with its payment.
	Ledger []*ent.PaymentTransaction
	Money  payment.OrderMoney
	// Events are the order's events, newest first.
	Events []*ent.Event
	// Capturable and Refundable are what a capture or a refund could move now.
	Capturable int64
	Refundable int64
	// Cancellable: the order is open or processed.
	Cancellable bool
	// Chargeable are the payments only verified (awaitingPreAuth) that a capture of that payment
	// can charge now: the order is processed and no charge of them is under way.
	Chargeable []*ent.OrderPayment
}

// OrderDetail reads one order of the shop for the admin.
func (s *Service) OrderDetail(ctx context.Context, sh *ent.Shop, publicOrderID string) (*OrderDetail, error) {
	view, err := s.orders.LoadOrder(ctx, sh, publicOrderID)
	if err != nil {
		return nil, err
	}
	ledger, err := payment.LedgerOf(ctx, s.p.DB.Read, view.Order.ID)
	if err != nil {
		return nil, err
	}
	entries, err := s.p.DB.Read.PaymentTransaction.Query().Where(paymenttransaction.OrderID(view.Order.ID)).
		WithPayment().Order(paymenttransaction.ByID()).All(ctx)
	if err != nil {
		return nil, err
	}
	events, err := s.p.DB.Read.Event.Query().Where(event.ShopID(sh.ID), event.OrderID(view.Order.ID)).
		Order(ent.Desc(event.FieldCreatedAt), ent.Desc(event.FieldID)).Limit(MaxPerPage).All(ctx)
	if err != nil {
		return nil, err
	}
	d := &OrderDetail{View: view, Ledger: entries, Money: payment.SumMoney(ledger), Events: events,
		Cancellable: view.Order.Status == order.StatusOpen || view.Order.Status == order.StatusProcessed}
	for _, lp := range ledger {
		if view.Order.Status == order.StatusProcessed {
			d.Capturable += lp.Money.Capturable()
		}
		d.Refundable += lp.Money.Refundable()
		if view.Order.Status == order.StatusProcessed && lp.Payment.Status == orderpayment.StatusVerified && lp.Money.CapturePending == 0 {
			d.Chargeable = append(d.Chargeable, lp.Payment)
		}
	}
	return d, nil
}

// OrderConnection is a Relay page of the shop's orders (GraphQL `orders`), filtered and sorted
// as asked; only the shop's own orders are ever in it.
func (s *Service) OrderConnection(ctx context.Context, sh *ent.Shop, after *ent.Cursor, first *int, before *ent.Cursor, last *int,
	orderBy *ent.OrderOrder, where *ent.OrderWhereInput) (*ent.OrderConnection, error) {
	return s.p.DB.Read.Order.Query().Where(order.ShopID(sh.ID)).
		Paginate(ctx, after, first, before, last, ent.WithOrderOrder(orderBy), ent.WithOrderFilter(where.Filter))
}
