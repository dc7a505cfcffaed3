// Package platformorders keeps the shop's orders as its platform knows them, fed by the
// platform's Order Saved and Order Deleted notifications: the orders placed outside checkout
// too. Like customers (service/customers), each notification is checked, queued and applied in
// the order of the platform's times: an older save never overwrites a newer copy, a duplicate
// applies once, and a save older than a delete never brings the order back.
package platformorders

import (
	"context"
	"encoding/json"
	"time"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/platformorder"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Service owns the platform's orders: their rules and their table's writes.
type Service struct{ p *platform.Platform }

// New returns the platform orders domain, with its notification worker and queue registered.
func New(p *platform.Platform) *Service {
	s := &Service{p: p}
	platform.AddWorker(p.Jobs, &notificationWorker{s: s})
	return s
}

// Saved is Order Saved's order: the connector order, of which checkoutd reads the fields below
// and keeps the whole.
type Saved struct {
	PlatformID         string `json:"platform_id"`
	PlatformUpdatedAt  string `json:"platform_updated_at"`
	PlacedAt           string `json:"placed_at"`
	OrderNumber        string `json:"order_number"`
	PlatformCustomerID string `json:"platform_customer_id"`
	Currency           string `json:"currency"`
	Total              string `json:"total"`
	OrderStatus        string `json:"order_status"`
	FinancialStatus    string `json:"financial_status"`
	FulfillmentStatus  string `json:"fulfillment_status"`
	// Data is the whole order as sent.
	Data map[string]any `json:"-"`
}

// Deleted is Order Deleted's order.
type Deleted struct {
	PlatformID        string `json:"platform_id"`
	PlatformDeletedAt string `json:"platform_deleted_at"`
}

// ParseSaved reads an Order Saved's order from its JSON and checks it.
func ParseSaved(raw json.RawMessage) (Saved, error) {
	var in Saved
	if err := json.Unmarshal(raw, &in); err != nil {
		return Saved{}, input.NotificationInvalid("data.order", "must be a connector order: "+err.Error())
	}
	if err := json.Unmarshal(raw, &in.Data); err != nil {
		return Saved{}, input.NotificationInvalid("data.order", "must be a JSON object")
	}
	if err := input.NotificationID("data.order.platform_id", in.PlatformID); err != nil {
		return Saved{}, err
	}
	for f, v := range map[string]string{"order_number": in.OrderNumber, "platform_customer_id": in.PlatformCustomerID,
		"order_status": in.OrderStatus, "financial_status": in.FinancialStatus, "fulfillment_status": in.FulfillmentStatus, "total": in.Total} {
		if err := input.NotificationText("data.order."+f, &v, input.MaxShortText); err != nil {
			return Saved{}, err
		}
	}
	if len(in.Currency) > 3 {
		return Saved{}, input.NotificationInvalid("data.order.currency", "must be an ISO 4217 code")
	}
	if _, err := input.NotificationTime("data.order.platform_updated_at", in.PlatformUpdatedAt); err != nil {
		return Saved{}, err
	}
	if in.PlacedAt != "" {
		if _, err := input.NotificationTime("data.order.placed_at", in.PlacedAt); err != nil {
			return Saved{}, err
		}
	}
	return in, nil
}

type notificationArgs struct {
	ShopID  int             `json:"shop_id"`
	Saved   json.RawMessage `json:"saved,omitempty"`
	Deleted *Deleted        `json:"deleted,omitempty"`
}

func (notificationArgs) Kind() string { return "order_notification" }

func (notificationArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: platform.QueuePlatform}
}

type notificationWorker struct {
	river.WorkerDefaults[notificationArgs]
	s *Service
}

func (w *notificationWorker) Work(ctx context.Context, job *river.Job[notificationArgs]) error {
	if job.Args.Deleted != nil {
		return w.s.applyDeleted(ctx, job.Args.ShopID, *job.Args.Deleted)
	}
	in, err := ParseSaved(job.Args.Saved)
	if err != nil {
		return nil // checked when queued
	}
	return w.s.applySaved(ctx, job.Args.ShopID, in)
}

// OrderSaved checks an Order Saved notification's order and queues it.
func (s *Service) OrderSaved(ctx context.Context, sh *ent.Shop, raw json.RawMessage) error {
	if _, err := ParseSaved(raw); err != nil {
		return err
	}
	return s.p.Jobs.Insert(ctx, []river.InsertManyParams{{Args: notificationArgs{ShopID: sh.ID, Saved: raw}}})
}

// OrderDeleted checks an Order Deleted notification and queues it.
func (s *Service) OrderDeleted(ctx context.Context, sh *ent.Shop, in Deleted) error {
	if err := input.NotificationID("data.order.platform_id", in.PlatformID); err != nil {
		return err
	}
	if _, err := input.NotificationTime("data.order.platform_deleted_at", in.PlatformDeletedAt); err != nil {
		return err
	}
	return s.p.Jobs.Insert(ctx, []river.InsertManyParams{{Args: notificationArgs{ShopID: sh.ID, Deleted: &in}}})
}

func (s *Service) lock(ctx context.Context, tx *ent.Tx, shopID int, platformID string) (*ent.PlatformOrder, error) {
	q := tx.PlatformOrder.Query().Where(platformorder.ShopID(shopID), platformorder.PlatformID(platformID))
	if s.p.DB.Dialect == dialect.Postgres {
		q = q.ForUpdate()
	}
	o, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return o, err
}

func (s *Service) applySaved(ctx context.Context, shopID int, in Saved) error {
	updated, _ := time.Parse(time.RFC3339Nano, in.PlatformUpdatedAt)
	var placed *time.Time
	if t, err := time.Parse(time.RFC3339Nano, in.PlacedAt); err == nil {
		placed = &t
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error { return s.applySavedTx(ctx, tx, shopID, in, updated, placed) })
}

// ImportOrders applies one page of a sync in tx, each order as an Order Saved would be, and
// reports how many rows it could not take (not valid connector orders).
func (s *Service) ImportOrders(ctx context.Context, tx *ent.Tx, shopID int, rows []json.RawMessage) (invalid int, err error) {
	for _, raw := range rows {
		in, err := ParseSaved(raw)
		if err != nil {
			invalid++
			continue
		}
		updated, _ := time.Parse(time.RFC3339Nano, in.PlatformUpdatedAt)
		var placed *time.Time
		if t, err := time.Parse(time.RFC3339Nano, in.PlacedAt); err == nil {
			placed = &t
		}
		if err := s.applySavedTx(ctx, tx, shopID, in, updated, placed); err != nil {
			return 0, err
		}
	}
	return invalid, nil
}

func (s *Service) applySavedTx(ctx context.Context, tx *ent.Tx, shopID int, in Saved, updated time.Time, placed *time.Time) error {
	o, err := s.lock(ctx, tx, shopID, in.PlatformID)
	if err != nil {
		return err
	}
	if o == nil {
		return tx.PlatformOrder.Create().SetShopID(shopID).SetPlatformID(in.PlatformID).SetOrderNumber(in.OrderNumber).
			SetPlatformCustomerID(in.PlatformCustomerID).SetCurrency(in.Currency).SetTotal(in.Total).SetOrderStatus(in.OrderStatus).
			SetFinancialStatus(in.FinancialStatus).SetFulfillmentStatus(in.FulfillmentStatus).SetNillablePlacedAt(placed).
			SetData(in.Data).SetPlatformUpdatedAt(updated).Exec(ctx)
	}
	if !updated.After(o.PlatformUpdatedAt) || (o.PlatformDeletedAt != nil && !updated.After(*o.PlatformDeletedAt)) {
		return nil // as old as the copy, or older than its delete
	}
	return tx.PlatformOrder.UpdateOne(o).SetOrderNumber(in.OrderNumber).SetPlatformCustomerID(in.PlatformCustomerID).
		SetCurrency(in.Currency).SetTotal(in.Total).SetOrderStatus(in.OrderStatus).SetFinancialStatus(in.FinancialStatus).
		SetFulfillmentStatus(in.FulfillmentStatus).SetNillablePlacedAt(placed).SetData(in.Data).SetPlatformUpdatedAt(updated).
		ClearPlatformDeletedAt().Exec(ctx)
}

func (s *Service) applyDeleted(ctx context.Context, shopID int, in Deleted) error {
	deleted, err := time.Parse(time.RFC3339Nano, in.PlatformDeletedAt)
	if err != nil {
		return nil
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		o, err := s.lock(ctx, tx, shopID, in.PlatformID)
		if err != nil {
			return err
		}
		if o == nil {
			// A tombstone: an older save arriving after this delete is ignored.
			return tx.PlatformOrder.Create().SetShopID(shopID).SetPlatformID(in.PlatformID).SetPlatformUpdatedAt(deleted).
				SetPlatformDeletedAt(deleted).Exec(ctx)
		}
		if deleted.Before(o.PlatformUpdatedAt) || (o.PlatformDeletedAt != nil && !deleted.After(*o.PlatformDeletedAt)) {
			return nil
		}
		return tx.PlatformOrder.UpdateOne(o).SetPlatformDeletedAt(deleted).Exec(ctx)
	})
}

// Orders are the shop's platform orders not deleted, for the caller to page through.
func (s *Service) Orders(sh *ent.Shop) *ent.PlatformOrderQuery {
	return s.p.DB.Read.PlatformOrder.Query().Where(platformorder.ShopID(sh.ID), platformorder.PlatformDeletedAtIsNil())
}
