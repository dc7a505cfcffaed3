package customers

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/ent/customeraddress"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
)

// Event notifications of customers. The platform sends the complete customer as of each
// change; checkoutd checks the body, queues it (the caller answers 202 at once) and a worker
// applies it: the fields given replace checkoutd's, the fields left out stay. Changes are ordered
// by platform_updated_at (and a delete by platform_deleted_at), not by arrival: an older save
// than the copy's is ignored, the same notification twice applies once, and a save older than a
// delete does not bring the customer back (a delete of a customer checkoutd never saw leaves a
// tombstone for that).

const (
	// MaxAddresses bounds a customer's addresses in one notification.
	MaxAddresses = 100
)

// AddressInput is a connector address; fields left out stay as they are.
type AddressInput struct {
	PlatformID         string  `json:"platform_id"`
	PlatformCustomerID *string `json:"platform_customer_id"`
	AddressType        *string `json:"address_type"`
	AddressUse         *string `json:"address_use"`
	IsDefault          *bool   `json:"is_default"`
	Company            *string `json:"company"`
	FirstName          *string `json:"first_name"`
	LastName           *string `json:"last_name"`
	Phone              *string `json:"phone"`
	Street1            *string `json:"street_1"`
	Street2            *string `json:"street_2"`
	City               *string `json:"city"`
	Province           *string `json:"province"`
	ProvinceCode       *string `json:"province_code"`
	Country            *string `json:"country"`
	CountryCode        *string `json:"country_code"`
	PostalCode         *string `json:"postal_code"`
}

// CustomerInput is a connector customer as Customer Saved carries it. Email is ours: the spec's
// connector customer has none, and platforms that know one send it.
type CustomerInput struct {
	PlatformID        string          `json:"platform_id"`
	PlatformCreatedAt *string         `json:"platform_created_at"`
	PlatformUpdatedAt string          `json:"platform_updated_at"`
	FirstName         *string         `json:"first_name"`
	LastName          *string         `json:"last_name"`
	Email             *string         `json:"email"`
	Phone             *string         `json:"phone"`
	Addresses         *[]AddressInput `json:"addresses"`
}

// DeletedInput is Customer Deleted's customer.
type DeletedInput struct {
	PlatformID        string `json:"platform_id"`
	PlatformDeletedAt string `json:"platform_deleted_at"`
}

func (in CustomerInput) check() error {
	if err := input.NotificationID("data.customer.platform_id", in.PlatformID); err != nil {
		return err
	}
	if _, err := input.NotificationTime("data.customer.platform_updated_at", in.PlatformUpdatedAt); err != nil {
		return err
	}
	if in.PlatformCreatedAt != nil {
		if _, err := input.NotificationTime("data.customer.platform_created_at", *in.PlatformCreatedAt); err != nil {
			return err
		}
	}
	for f, v := range map[string]*string{"first_name": in.FirstName, "last_name": in.LastName, "email": in.Email, "phone": in.Phone} {
		if err := input.NotificationText("data.customer."+f, v, input.MaxShortText); err != nil {
			return err
		}
	}
	if in.Addresses == nil {
		return nil
	}
	if len(*in.Addresses) > MaxAddresses {
		return input.NotificationInvalid("data.customer.addresses", fmt.Sprintf("has more than %d addresses", MaxAddresses))
	}
	seen := map[string]bool{}
	for i, a := range *in.Addresses {
		f := fmt.Sprintf("data.customer.addresses[%d].", i)
		if err := input.NotificationID(f+"platform_id", a.PlatformID); err != nil {
			return err
		}
		if seen[a.PlatformID] {
			return input.NotificationInvalid(f+"platform_id", "is given twice")
		}
		seen[a.PlatformID] = true
		for name, v := range map[string]*string{"platform_customer_id": a.PlatformCustomerID, "address_type": a.AddressType,
			"address_use": a.AddressUse, "company": a.Company, "first_name": a.FirstName, "last_name": a.LastName, "phone": a.Phone,
			"street_1": a.Street1, "street_2": a.Street2, "city": a.City, "province": a.Province, "province_code": a.ProvinceCode,
			"country": a.Country, "country_code": a.CountryCode, "postal_code": a.PostalCode} {
			if err := input.NotificationText(f+name, v, input.MaxShortText); err != nil {
				return err
			}
		}
	}
	return nil
}

// notificationArgs is the queue job that applies one notification.
type notificationArgs struct {
	ShopID  int            `json:"shop_id"`
	Saved   *CustomerInput `json:"saved,omitempty"`
	Deleted *DeletedInput  `json:"deleted,omitempty"`
}

func (notificationArgs) Kind() string { return "customer_notification" }

func (notificationArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: platform.QueuePlatform}
}

type notificationWorker struct {
	river.WorkerDefaults[notificationArgs]
	s *Service
}

func (w *notificationWorker) Work(ctx context.Context, job *river.Job[notificationArgs]) error {
	if job.Args.Saved != nil {
		return w.s.applySaved(ctx, job.Args.ShopID, *job.Args.Saved)
	}
	if job.Args.Deleted != nil {
		return w.s.applyDeleted(ctx, job.Args.ShopID, *job.Args.Deleted)
	}
	return nil
}

// CustomerSaved checks a Customer Saved notification and queues it.
func (s *Service) CustomerSaved(ctx context.Context, sh *ent.Shop, in CustomerInput) error {
	if err := in.check(); err != nil {
		return err
	}
	return s.p.Jobs.Insert(ctx, []river.InsertManyParams{{Args: notificationArgs{ShopID: sh.ID, Saved: &in}}})
}

// CustomerDeleted checks a Customer Deleted notification and queues it.
func (s *Service) CustomerDeleted(ctx context.Context, sh *ent.Shop, in DeletedInput) error {
	if err := input.NotificationID("data.customer.platform_id", in.PlatformID); err != nil {
		return err
	}
	if _, err := input.NotificationTime("data.customer.platform_deleted_at", in.PlatformDeletedAt); err != nil {
		return err
	}
	return s.p.Jobs.Insert(ctx, []river.InsertManyParams{{Args: notificationArgs{ShopID: sh.ID, Deleted: &in}}})
}

// lockCustomer reads the shop's customer with that platform id for a change (nil when none).
func (s *Service) lockCustomer(ctx context.Context, tx *ent.Tx, shopID int, platformID string) (*ent.Customer, error) {
	q := tx.Customer.Query().Where(customer.ShopID(shopID), customer.PlatformID(platformID))
	if s.p.DB.Dialect == dialect.Postgres {
		q = q.ForUpdate()
	}
	c, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return c, err
}

// applySaved applies a Customer Saved unless the copy is as new or newer, or deleted later.
// Two first saves of one customer racing: the unique index refuses the second, whose job is
// retried and then finds the first.
func (s *Service) applySaved(ctx context.Context, shopID int, in CustomerInput) error {
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		c, err := s.lockCustomer(ctx, tx, shopID, in.PlatformID)
		if err != nil {
			return err
		}
		return applySavedTo(ctx, tx, shopID, c, in)
	})
}

// applySavedTo applies in to c, the shop's copy read for a change (nil when there is none).
func applySavedTo(ctx context.Context, tx *ent.Tx, shopID int, c *ent.Customer, in CustomerInput) error {
	updated, err := time.Parse(time.RFC3339Nano, in.PlatformUpdatedAt)
	if err != nil {
		return nil // checked before
	}
	var created *time.Time
	if in.PlatformCreatedAt != nil {
		if t, err := time.Parse(time.RFC3339Nano, *in.PlatformCreatedAt); err == nil {
			created = &t
		}
	}
	var id int
	if c == nil {
		n, err := tx.Customer.Create().SetShopID(shopID).SetPlatformID(in.PlatformID).SetPlatformUpdatedAt(updated).
			SetNillablePlatformCreatedAt(created).SetNillableFirstName(in.FirstName).SetNillableLastName(in.LastName).
			SetNillableEmail(in.Email).SetNillablePhone(in.Phone).Save(ctx)
		if err != nil {
			return err
		}
		id = n.ID
	} else {
		if !updated.After(c.PlatformUpdatedAt) || (c.PlatformDeletedAt != nil && !updated.After(*c.PlatformDeletedAt)) {
			return nil // as old as the copy, or older than its delete
		}
		if err := tx.Customer.UpdateOne(c).SetPlatformUpdatedAt(updated).ClearPlatformDeletedAt().SetNillablePlatformCreatedAt(created).
			SetNillableFirstName(in.FirstName).SetNillableLastName(in.LastName).SetNillableEmail(in.Email).SetNillablePhone(in.Phone).
			Exec(ctx); err != nil {
			return err
		}
		id = c.ID
	}
	if in.Addresses == nil {
		return nil
	}
	return replaceAddresses(ctx, tx, id, *in.Addresses)
}

// replaceAddresses makes the customer's addresses those given: each updated with the fields it
// carries (or created), and those it no longer has removed.
func replaceAddresses(ctx context.Context, tx *ent.Tx, customerID int, given []AddressInput) error {
	existing, err := tx.CustomerAddress.Query().Where(customeraddress.CustomerID(customerID)).All(ctx)
	if err != nil {
		return err
	}
	byPlatformID := map[string]*ent.CustomerAddress{}
	for _, a := range existing {
		byPlatformID[a.PlatformID] = a
	}
	keep := map[string]bool{}
	for _, a := range given {
		keep[a.PlatformID] = true
		if old, ok := byPlatformID[a.PlatformID]; ok {
			if err := tx.CustomerAddress.UpdateOne(old).SetNillableAddressType(a.AddressType).SetNillableAddressUse(a.AddressUse).
				SetNillableIsDefault(a.IsDefault).SetNillableCompany(a.Company).SetNillableFirstName(a.FirstName).
				SetNillableLastName(a.LastName).SetNillablePhone(a.Phone).SetNillableStreet1(a.Street1).SetNillableStreet2(a.Street2).
				SetNillableCity(a.City).SetNillableProvince(a.Province).SetNillableProvinceCode(a.ProvinceCode).
				SetNillableCountry(a.Country).SetNillableCountryCode(a.CountryCode).SetNillablePostalCode(a.PostalCode).Exec(ctx); err != nil {
				return err
			}
			continue
		}
		if err := tx.CustomerAddress.Create().SetCustomerID(customerID).SetPlatformID(a.PlatformID).SetNillableAddressType(a.AddressType).
			SetNillableAddressUse(a.AddressUse).SetNillableIsDefault(a.IsDefault).SetNillableCompany(a.Company).
			SetNillableFirstName(a.FirstName).SetNillableLastName(a.LastName).SetNillablePhone(a.Phone).SetNillableStreet1(a.Street1).
			SetNillableStreet2(a.Street2).SetNillableCity(a.City).SetNillableProvince(a.Province).SetNillableProvinceCode(a.ProvinceCode).
			SetNillableCountry(a.Country).SetNillableCountryCode(a.CountryCode).SetNillablePostalCode(a.PostalCode).Exec(ctx); err != nil {
			return err
		}
	}
	var gone []int
	for _, a := range existing {
		if !keep[a.PlatformID] {
			gone = append(gone, a.ID)
		}
	}
	if len(gone) == 0 {
		return nil
	}
	_, err = tx.CustomerAddress.Delete().Where(customeraddress.IDIn(gone...)).Exec(ctx)
	return err
}

// applyDeleted marks the customer deleted unless a later save came first; a customer never
// seen gets a tombstone, so that its older saves, arriving after, are ignored.
func (s *Service) applyDeleted(ctx context.Context, shopID int, in DeletedInput) error {
	deleted, err := time.Parse(time.RFC3339Nano, in.PlatformDeletedAt)
	if err != nil {
		return nil // checked when queued
	}
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		c, err := s.lockCustomer(ctx, tx, shopID, in.PlatformID)
		if err != nil {
			return err
		}
		if c == nil {
			return tx.Customer.Create().SetShopID(shopID).SetPlatformID(in.PlatformID).SetPlatformUpdatedAt(deleted).
				SetPlatformDeletedAt(deleted).Exec(ctx)
		}
		if deleted.Before(c.PlatformUpdatedAt) || (c.PlatformDeletedAt != nil && !deleted.After(*c.PlatformDeletedAt)) {
			return nil // a later save came first, or this delete is already applied
		}
		return tx.Customer.UpdateOne(c).SetPlatformDeletedAt(deleted).Exec(ctx)
	})
}

func parseTime(v string) (time.Time, error) { return time.Parse(time.RFC3339Nano, v) }
