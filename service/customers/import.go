package customers

import (
	"context"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/ent/customeraddress"
)

// ImportCustomers applies one page of a sync in tx, each customer as a Customer Saved would be
// (an older copy never overwrites a newer one), and reports how many it could not take (a row
// that is not a valid connector customer). Customers new to the store are written in two
// statements for the page (them, then their addresses): a sync of a whole platform is mostly
// new customers.
func (s *Service) ImportCustomers(ctx context.Context, tx *ent.Tx, shopID int, rows []CustomerInput) (invalid int, err error) {
	valid := make([]CustomerInput, 0, len(rows))
	last := map[string]int{} // a platform id given twice in a page: its last row
	for _, in := range rows {
		if in.check() != nil {
			invalid++
			continue
		}
		if i, ok := last[in.PlatformID]; ok {
			valid[i] = in
			continue
		}
		last[in.PlatformID] = len(valid)
		valid = append(valid, in)
	}
	if len(valid) == 0 {
		return invalid, nil
	}
	ids := make([]string, len(valid))
	for i, in := range valid {
		ids[i] = in.PlatformID
	}
	q := tx.Customer.Query().Where(customer.ShopID(shopID), customer.PlatformIDIn(ids...))
	if s.p.DB.Dialect == dialect.Postgres {
		q = q.ForUpdate()
	}
	existing, err := q.All(ctx)
	if err != nil {
		return 0, err
	}
	have := make(map[string]*ent.Customer, len(existing))
	for _, c := range existing {
		have[c.PlatformID] = c
	}
	var fresh []CustomerInput
	for _, in := range valid {
		if c, ok := have[in.PlatformID]; ok {
			if err := applySavedTo(ctx, tx, shopID, c, in); err != nil {
				return 0, err
			}
			continue
		}
		fresh = append(fresh, in)
	}
	return invalid, createCustomers(ctx, tx, shopID, fresh)
}

// createCustomers writes customers new to the store, and their addresses, in bulk.
func createCustomers(ctx context.Context, tx *ent.Tx, shopID int, rows []CustomerInput) error {
	if len(rows) == 0 {
		return nil
	}
	creates := make([]*ent.CustomerCreate, len(rows))
	for i, in := range rows {
		updated, _ := parseTime(in.PlatformUpdatedAt)
		c := tx.Customer.Create().SetShopID(shopID).SetPlatformID(in.PlatformID).SetPlatformUpdatedAt(updated).
			SetNillableFirstName(in.FirstName).SetNillableLastName(in.LastName).SetNillableEmail(in.Email).SetNillablePhone(in.Phone)
		if in.PlatformCreatedAt != nil {
			if t, err := parseTime(*in.PlatformCreatedAt); err == nil {
				c.SetPlatformCreatedAt(t)
			}
		}
		creates[i] = c
	}
	created, err := tx.Customer.CreateBulk(creates...).Save(ctx)
	if err != nil {
		return err
	}
	var addresses []*ent.CustomerAddressCreate
	for i, in := range rows {
		if in.Addresses == nil {
			continue
		}
		for _, a := range *in.Addresses {
			addresses = append(addresses, tx.CustomerAddress.Create().SetCustomerID(created[i].ID).SetPlatformID(a.PlatformID).
				SetNillableAddressType(a.AddressType).SetNillableAddressUse(a.AddressUse).SetNillableIsDefault(a.IsDefault).
				SetNillableCompany(a.Company).SetNillableFirstName(a.FirstName).SetNillableLastName(a.LastName).SetNillablePhone(a.Phone).
				SetNillableStreet1(a.Street1).SetNillableStreet2(a.Street2).SetNillableCity(a.City).SetNillableProvince(a.Province).
				SetNillableProvinceCode(a.ProvinceCode).SetNillableCountry(a.Country).SetNillableCountryCode(a.CountryCode).
				SetNillablePostalCode(a.PostalCode))
		}
	}
	// Bound each statement's parameters (SQLite allows 32,766).
	for len(addresses) > 0 {
		n := min(len(addresses), 1000)
		if err := tx.CustomerAddress.CreateBulk(addresses[:n]...).Exec(ctx); err != nil {
			return err
		}
		addresses = addresses[n:]
	}
	return nil
}

// CustomerAndAddresses are the store's copy of the shop's customer platformID and its
// addresses (nil and none when the store does not know the customer), read through c.
func (s *Service) CustomerAndAddresses(ctx context.Context, c *ent.Client, shopID int, platformID string) (*ent.Customer, []*ent.CustomerAddress, error) {
	cu, err := c.Customer.Query().Where(customer.ShopID(shopID), customer.PlatformID(platformID)).WithAddresses().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return cu, cu.Edges.Addresses, nil
}

// KeepCustomer keeps a customer the platform answered to a write of checkoutd's, in tx, as a
// Customer Saved would be applied; one without a valid platform_updated_at is not kept (the
// platform's next notification or sync brings it).
func (s *Service) KeepCustomer(ctx context.Context, tx *ent.Tx, shopID int, in CustomerInput) error {
	if in.check() != nil {
		return nil
	}
	c, err := s.lockCustomer(ctx, tx, shopID, in.PlatformID)
	if err != nil {
		return err
	}
	return applySavedTo(ctx, tx, shopID, c, in)
}

// KeepAddress keeps an address checkoutd created on the platform for the customer platformID,
// in tx; a customer the store does not know yet is kept with it (its names come with its next
// notification or sync).
func (s *Service) KeepAddress(ctx context.Context, tx *ent.Tx, shopID int, platformID string, a AddressInput) error {
	c, err := s.lockCustomer(ctx, tx, shopID, platformID)
	if err != nil {
		return err
	}
	if c == nil {
		// Known from the order only: its platform_updated_at is left at the zero time, so that the
		// platform's own copy, whatever its time, replaces it.
		if c, err = tx.Customer.Create().SetShopID(shopID).SetPlatformID(platformID).SetPlatformUpdatedAt(time.Time{}).Save(ctx); err != nil {
			return err
		}
	}
	existing, err := tx.CustomerAddress.Query().Where(customeraddress.CustomerID(c.ID), customeraddress.PlatformID(a.PlatformID)).Exist(ctx)
	if err != nil || existing {
		return err
	}
	return tx.CustomerAddress.Create().SetCustomerID(c.ID).SetPlatformID(a.PlatformID).SetNillableAddressType(a.AddressType).
		SetNillableAddressUse(a.AddressUse).SetNillableIsDefault(a.IsDefault).SetNillableCompany(a.Company).
		SetNillableFirstName(a.FirstName).SetNillableLastName(a.LastName).SetNillablePhone(a.Phone).SetNillableStreet1(a.Street1).
		SetNillableStreet2(a.Street2).SetNillableCity(a.City).SetNillableProvince(a.Province).SetNillableProvinceCode(a.ProvinceCode).
		SetNillableCountry(a.Country).SetNillableCountryCode(a.CountryCode).SetNillablePostalCode(a.PostalCode).Exec(ctx)
}
