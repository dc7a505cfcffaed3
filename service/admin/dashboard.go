package admin

import (
	"context"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/paymenttransaction"
	"github.com/checkoutd/checkoutd/ent/webhooksubscription"
	"github.com/checkoutd/checkoutd/service/orders"
)

// DashboardDays is how many days the dashboard's chart covers, today included.
const DashboardDays = 30

// DayFigures are one UTC day of the dashboard's chart.
type DayFigures struct {
	Day time.Time
	// Orders processed that day.
	Orders int
	// Revenue is money captured minus money refunded that day (settled ledger entries).
	Revenue int64
}

// Dashboard holds the figures an admin looks at first.
type Dashboard struct {
	Currency string
	// Days are the last DashboardDays days, oldest first; the last one is today.
	Days            []DayFigures
	OrdersToday     int
	RevenueToday    int64
	Orders30Days    int
	Revenue30Days   int64
	AbandonedOrders int
	// UnhealthyWebhooks are the subscriptions whose deliveries keep failing.
	UnhealthyWebhooks int
}

// Dashboard reads the shop's figures at the service clock's now, by UTC day.
func (s *Service) Dashboard(ctx context.Context, sh *ent.Shop) (*Dashboard, error) {
	now := s.p.Clock()
	today := dayStart(now)
	since := today.AddDate(0, 0, -(DashboardDays - 1))
	d := &Dashboard{Currency: sh.Currency, Days: make([]DayFigures, DashboardDays)}
	for i := range d.Days {
		d.Days[i].Day = since.AddDate(0, 0, i)
	}
	bucket := func(t time.Time) *DayFigures {
		i := int(dayStart(t).Sub(since).Hours() / 24)
		if i < 0 || i >= DashboardDays {
			return nil
		}
		return &d.Days[i]
	}
	var processed []struct {
		ProcessedAt *time.Time `json:"processed_at"`
	}
	err := s.p.DB.Read.Order.Query().Where(order.ShopID(sh.ID), order.ProcessedAtGTE(since),
		order.StatusIn(order.StatusProcessed, order.StatusCancelled)).
		Select(order.FieldProcessedAt).Scan(ctx, &processed)
	if err != nil {
		return nil, err
	}
	for _, o := range processed {
		if o.ProcessedAt != nil {
			if b := bucket(*o.ProcessedAt); b != nil {
				b.Orders++
			}
		}
	}
	var moves []struct {
		Kind      paymenttransaction.Kind `json:"kind"`
		Amount    int64                   `json:"amount"`
		SettledAt *time.Time              `json:"settled_at"`
	}
	err = s.p.DB.Read.PaymentTransaction.Query().Where(paymenttransaction.ShopID(sh.ID), paymenttransaction.SettledAtGTE(since),
		paymenttransaction.StatusEQ(paymenttransaction.StatusSucceeded),
		paymenttransaction.KindIn(paymenttransaction.KindCapture, paymenttransaction.KindRefund)).
		Select(paymenttransaction.FieldKind, paymenttransaction.FieldAmount, paymenttransaction.FieldSettledAt).Scan(ctx, &moves)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		if m.SettledAt == nil {
			continue
		}
		if b := bucket(*m.SettledAt); b != nil {
			if m.Kind == paymenttransaction.KindRefund {
				b.Revenue -= m.Amount
			} else {
				b.Revenue += m.Amount
			}
		}
	}
	for _, day := range d.Days {
		d.Orders30Days += day.Orders
		d.Revenue30Days += day.Revenue
	}
	d.OrdersToday, d.RevenueToday = d.Days[DashboardDays-1].Orders, d.Days[DashboardDays-1].Revenue
	d.AbandonedOrders, err = s.p.DB.Read.Order.Query().Where(order.ShopID(sh.ID)).Where(orders.IdleSince(orders.AbandonedCutoff(now))...).Count(ctx)
	if err != nil {
		return nil, err
	}
	d.UnhealthyWebhooks, err = s.p.DB.Read.WebhookSubscription.Query().Where(webhooksubscription.ShopID(sh.ID), webhooksubscription.UnhealthySinceNotNil()).Count(ctx)
	if err != nil {
		return nil, err
	}
	return d, nil
}
