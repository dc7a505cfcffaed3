package connector

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/orders"
)

// Customer writes. When an authenticated customer (one with a platform_id) checks out in a shop
// with a customers destination, the addresses the shopper entered at checkout that the
// platform does not have yet for that customer (as the customer store knows them) are created
// on the platform (create address, through the queue like every connector call), and the
// address the platform answers is kept in the customer store. Guests are not customers of the
// platform: checkoutd creates none for them.

// OperationCreateAddress is the connector's create address.
const OperationCreateAddress = "create_address"

// sameAddress compares addresses the way a shopper would: the street, city, postal code and
// country, case and spaces aside.
func sameAddress(a Address, b *ent.CustomerAddress) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	return norm(a.Street1) == norm(b.Street1) && norm(a.City) == norm(b.City) &&
		norm(a.PostalCode) == norm(b.PostalCode) && norm(a.CountryCode) == norm(b.CountryCode)
}

// saveCustomerAddresses queues the create address calls of order v's addresses that its
// authenticated customer does not have on the platform.
func (s *Service) saveCustomerAddresses(ctx context.Context, tx *ent.Tx, d *ent.Destination, v *orders.OrderView) error {
	c := v.Order.Customer
	if c == nil || c.PlatformID == nil || *c.PlatformID == "" {
		return nil
	}
	known, err := s.customers.AddressesOf(ctx, tx.Client(), v.Shop.ID, *c.PlatformID)
	if err != nil {
		return err
	}
	var queued []Address
	for _, a := range []*Address{address(v.Order.ShippingAddress, "shipping"), address(v.Order.BillingAddress, "billing")} {
		if a == nil {
			continue
		}
		seen := false
		for _, k := range known {
			seen = seen || sameAddress(*a, k)
		}
		for _, q := range queued {
			seen = seen || sameAddress(*a, &ent.CustomerAddress{Street1: q.Street1, City: q.City, PostalCode: q.PostalCode, CountryCode: q.CountryCode})
		}
		if seen {
			continue
		}
		a.PlatformCustomerID = *c.PlatformID
		queued = append(queued, *a)
		if _, err := s.enqueue(ctx, tx, newCall{shopID: v.Shop.ID, destination: d, orderID: &v.Order.ID, operation: OperationCreateAddress,
			method: http.MethodPost, path: "/customers/" + url.PathEscape(*c.PlatformID) + "/addresses",
			body: map[string]any{"data": map[string]any{"address": a}}}); err != nil {
			return err
		}
	}
	return nil
}

// addressCreated keeps the address the platform created in the customer store.
func (s *Service) addressCreated(ctx context.Context, tx *ent.Tx, sh *ent.Shop, c *ent.ConnectorCall, a *Answer) (func() error, error) {
	var created struct {
		Data struct {
			Address customers.AddressInput `json:"address"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.Body, &created); err != nil || created.Data.Address.PlatformID == "" {
		return nil, errors.New("the answer carries no data.address.platform_id")
	}
	customerID := strings.TrimSuffix(strings.TrimPrefix(c.Path, "/customers/"), "/addresses")
	if id, err := url.PathUnescape(customerID); err == nil {
		customerID = id
	}
	return func() error { return s.customers.KeepAddress(ctx, tx, sh.ID, customerID, created.Data.Address) }, nil
}
