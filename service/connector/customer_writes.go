package connector

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/orders"
)

// Customer writes. When an authenticated customer (one with a platform_id) checks out in a shop
// with a customers destination, what the shopper changed at checkout goes to the platform,
// through the queue like every connector call: the addresses the platform does not have yet for
// that customer (as the customer store knows them) are created (create address), and names or
// an email that differ from the store's copy are updated (update customer). What the platform
// answers is kept in the customer store. Guests are not customers of the platform: checkoutd
// creates none for them.

// The connector's create address and update customer.
const (
	OperationCreateAddress  = "create_address"
	OperationUpdateCustomer = "update_customer"
)

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
	stored, known, err := s.customers.CustomerAndAddresses(ctx, tx.Client(), v.Shop.ID, *c.PlatformID)
	if err != nil {
		return err
	}
	if stored != nil && stored.PlatformDeletedAt == nil &&
		(stored.FirstName != c.FirstName || stored.LastName != c.LastName || (c.EmailAddress != "" && stored.Email != c.EmailAddress)) {
		body := map[string]any{"first_name": c.FirstName, "last_name": c.LastName, "email": c.EmailAddress}
		if _, err := s.enqueue(ctx, tx, newCall{shopID: v.Shop.ID, destination: d, orderID: &v.Order.ID, operation: OperationUpdateCustomer,
			method: methodPatch, path: "/customers/" + url.PathEscape(*c.PlatformID),
			body: map[string]any{"data": map[string]any{"customer": body}}}); err != nil {
			return err
		}
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
			method: methodPost, path: "/customers/" + url.PathEscape(*c.PlatformID) + "/addresses",
			body: map[string]any{"data": map[string]any{"address": a}}}); err != nil {
			return err
		}
	}
	return nil
}

// customerUpdated keeps the customer the platform answers in the customer store, as a Customer
// Saved would be (its platform_updated_at decides).
func (s *Service) customerUpdated(ctx context.Context, tx *ent.Tx, sh *ent.Shop, c *ent.ConnectorCall, a *Answer) (func() error, error) {
	var updated struct {
		Data struct {
			Customer customers.CustomerInput `json:"customer"`
		} `json:"data"`
	}
	if err := json.Unmarshal(a.Body, &updated); err != nil || updated.Data.Customer.PlatformID == "" {
		return nil, errors.New("the answer carries no data.customer.platform_id")
	}
	return func() error { return s.customers.KeepCustomer(ctx, tx, sh.ID, updated.Data.Customer) }, nil
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
