package connector

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Orders on the platform. With an orders destination the platform is the order's system of
// record: a processed order is created there (create order, through the queue, under one
// Idempotency-Key), the platform_id it answers becomes the order's platform_order_id, and
// order/created fires when the platform confirms; order/failed (reason "platform creation")
// when the call fails for good. Without one, checkoutd stays the system of record.

// OperationCreateOrder is the connector's create order.
const OperationCreateOrder = "create_order"

// destinationsOf are a shop's live destinations by topic, through the cache; read through c
// (a transaction's client inside one).
func (s *Service) destinationsOf(ctx context.Context, c *ent.Client, shopID int) (map[destination.Topic]*ent.Destination, error) {
	return s.destinations.Get(shopID, s.p.Clock, func() (map[destination.Topic]*ent.Destination, error) {
		ds, err := c.Destination.Query().Where(destination.ShopID(shopID), destination.DeletedAtIsNil()).All(ctx)
		out := make(map[destination.Topic]*ent.Destination, len(ds))
		for _, d := range ds {
			out[d.Topic] = d
		}
		return out, err
	})
}

// watchDestinations clears the destinations cache after every write of one.
func (s *Service) watchDestinations() {
	s.p.DB.Client.Destination.Use(platform.ClearingHook(s.destinations.Clear, nil))
}

// CreateOrderOnPlatform is called in process_order's last transaction, with the order v just
// processed: when the shop has an orders destination it writes the create order call (and its
// job) and reports true, and the caller leaves order/created to the platform's answer.
func (s *Service) CreateOrderOnPlatform(ctx context.Context, tx *ent.Tx, v *orders.OrderView) (bool, error) {
	ds, err := s.destinationsOf(ctx, tx.Client(), v.Shop.ID)
	if err != nil {
		return false, err
	}
	if d := ds[destination.TopicCustomers]; d != nil {
		if err := s.saveCustomerAddresses(ctx, tx, d, v); err != nil {
			return false, err
		}
	}
	d := ds[destination.TopicOrders]
	if d == nil {
		return false, nil
	}
	_, err = s.enqueue(ctx, tx, newCall{shopID: v.Shop.ID, destination: d, orderID: &v.Order.ID, operation: OperationCreateOrder,
		method: methodPost, path: "/orders", body: map[string]any{"data": map[string]any{"order": ConnectorOrder(v)}}})
	return true, err
}

// createdOrder is what checkoutd reads of create order's answer.
type createdOrder struct {
	Data struct {
		Order struct {
			PlatformID string `json:"platform_id"`
		} `json:"order"`
	} `json:"data"`
}

// orderCreated reads the platform's order id from its answer, and returns the change that
// records it on the order with order/created.
func (s *Service) orderCreated(ctx context.Context, tx *ent.Tx, sh *ent.Shop, c *ent.ConnectorCall, a *Answer) (func() error, error) {
	var created createdOrder
	if err := json.Unmarshal(a.Body, &created); err != nil || created.Data.Order.PlatformID == "" {
		return nil, errors.New("the answer carries no data.order.platform_id")
	}
	if len(created.Data.Order.PlatformID) > 255 {
		return nil, errors.New("the answer's platform_id is longer than 255 characters")
	}
	return func() error {
		o, err := s.orders.LockOrder(ctx, tx, *c.OrderID, order.StatusProcessed, order.StatusCancelled)
		if err != nil {
			return err
		}
		o, err = tx.Order.UpdateOne(o).SetPlatformOrderID(created.Data.Order.PlatformID).AddVersion(1).Save(ctx)
		if err != nil {
			return err
		}
		return s.orders.RecordOrderEvent(ctx, tx, sh, o, platform.TopicOrderCreated, nil)
	}, nil
}

// orderCreationFailed records order/failed when the platform never created the order.
func (s *Service) orderCreationFailed(ctx context.Context, tx *ent.Tx, sh *ent.Shop, c *ent.ConnectorCall, reason string) error {
	o, err := s.orders.LockOrder(ctx, tx, *c.OrderID, order.StatusProcessed, order.StatusCancelled)
	if err != nil {
		return err
	}
	return s.orders.RecordOrderEvent(ctx, tx, sh, o, platform.TopicOrderFailed,
		map[string]any{"reason": "platform creation", "detail": reason})
}
