package orders

import (
	"context"
	"net/mail"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// CustomerInput is a customer as a storefront or platform sends it.
type CustomerInput struct {
	PlatformID       *string `json:"platform_id"`
	PublicID         *string `json:"public_id"`
	FirstName        string  `json:"first_name"`
	LastName         string  `json:"last_name"`
	EmailAddress     string  `json:"email_address"`
	AcceptsMarketing bool    `json:"accepts_marketing"`
}

// ValidateEmailAddress checks the form of an email address.
func ValidateEmailAddress(email string) error {
	if input.TooLong(email, input.MaxShortText) {
		return input.TextTooLong("email_address", input.MaxShortText)
	}
	a, err := mail.ParseAddress(email)
	if email == "" || err != nil || a.Address != strings.TrimSpace(email) || !strings.Contains(a.Address[strings.LastIndex(a.Address, "@"):], ".") {
		return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "customer.invalid_email_address",
			Message: "email_address is not a valid email address", Details: map[string]any{"field": "email_address"}}
	}
	return nil
}

func (in CustomerInput) validate(needPlatformID bool) error {
	p := input.Problems{}
	if strings.TrimSpace(in.FirstName) == "" {
		p.Add("first_name", "is required")
	}
	if strings.TrimSpace(in.LastName) == "" {
		p.Add("last_name", "is required")
	}
	if ValidateEmailAddress(in.EmailAddress) != nil {
		p.Add("email_address", "is not a valid email address")
	}
	if needPlatformID && (in.PlatformID == nil || *in.PlatformID == "") {
		p.Add("platform_id", "is required for an authenticated customer")
	}
	p.Text("first_name", in.FirstName, input.MaxShortText)
	p.Text("last_name", in.LastName, input.MaxShortText)
	p.Text("email_address", in.EmailAddress, input.MaxShortText)
	if in.PlatformID != nil {
		p.Text("platform_id", *in.PlatformID, input.MaxShortText)
	}
	if in.PublicID != nil {
		p.Text("public_id", *in.PublicID, input.MaxShortText)
	}
	if len(p) > 0 {
		field := ""
		for k := range p {
			field = k
		}
		d := p.Details()
		d["field"] = field
		return problem.Validation("customer.invalid_customer_data", "invalid customer: "+p.Message(), d)
	}
	return nil
}

// CreateCustomer puts a customer on an order that has none: guest without platform_id,
// authenticated with one.
func (s *Service) CreateCustomer(ctx context.Context, sess *OrderSession, in CustomerInput, authenticated bool) (*OrderView, error) {
	if !authenticated {
		in.PlatformID = nil
	}
	if err := in.validate(authenticated); err != nil {
		return nil, err
	}
	if v, ok, err := s.remoteEvent(ctx, sess, EventSetCustomer, in.orderCustomer()); ok {
		return v, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if o.Customer != nil {
			return problem.Validation("customer.already_exists", "the order already has a customer: delete it first", nil)
		}
		update.SetCustomer(in.orderCustomer())
		return nil
	})
}

// orderCustomer is the customer as the order keeps it, with a public id of its own unless one
// was given.
func (in CustomerInput) orderCustomer() *schema.OrderCustomer {
	publicID := platform.NewPublicID()
	if in.PublicID != nil && *in.PublicID != "" {
		publicID = *in.PublicID
	}
	return &schema.OrderCustomer{
		PlatformID: in.PlatformID, PublicID: publicID, FirstName: strings.TrimSpace(in.FirstName),
		LastName: strings.TrimSpace(in.LastName), EmailAddress: strings.TrimSpace(in.EmailAddress), AcceptsMarketing: in.AcceptsMarketing,
	}
}

// UpdateGuestCustomer is the deprecated Update Guest Customer: UpdateCustomer, except that what
// init supplied (the customer's names and email address) cannot change through it (422
// customer.supplied_at_init naming the fields). The marketing choice stays the shopper's.
func (s *Service) UpdateGuestCustomer(ctx context.Context, sess *OrderSession, in CustomerInput) (*OrderView, error) {
	if err := in.validate(false); err != nil {
		return nil, err
	}
	if v, ok, err := s.remoteEvent(ctx, sess, EventSetCustomer, in.orderCustomer()); ok {
		return v, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if o.Customer == nil {
			return problem.Validation("customer.not_found", "the order has no customer to update", nil)
		}
		if err := keepsInitCustomer(o.InitCustomer, in); err != nil {
			return err
		}
		updateCustomer(o, in, update)
		return nil
	})
}

// keepsInitCustomer refuses a change of what init supplied.
func keepsInitCustomer(init *schema.OrderCustomer, in CustomerInput) error {
	if init == nil {
		return nil
	}
	var changed []string
	for _, f := range []struct{ name, supplied, sent string }{
		{"first_name", init.FirstName, in.FirstName}, {"last_name", init.LastName, in.LastName},
		{"email_address", init.EmailAddress, in.EmailAddress},
	} {
		if f.supplied != "" && strings.TrimSpace(f.sent) != f.supplied {
			changed = append(changed, f.name)
		}
	}
	if len(changed) == 0 {
		return nil
	}
	return problem.Validation("customer.supplied_at_init",
		strings.Join(changed, ", ")+" was supplied at order initialization and cannot be changed by Update Guest Customer (use Update Customer)",
		map[string]any{"field": changed[0], "fields": changed})
}

// UpdateCustomer changes the names, email and marketing choice; platform_id, public_id and
// saved addresses stay as they are.
func (s *Service) UpdateCustomer(ctx context.Context, sess *OrderSession, in CustomerInput) (*OrderView, error) {
	if err := in.validate(false); err != nil {
		return nil, err
	}
	if v, ok, err := s.remoteEvent(ctx, sess, EventSetCustomer, in.orderCustomer()); ok {
		return v, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if o.Customer == nil {
			return problem.Validation("customer.not_found", "the order has no customer to update", nil)
		}
		updateCustomer(o, in, update)
		return nil
	})
}

// updateCustomer writes in's names, email and marketing choice on o's customer.
func updateCustomer(o *ent.Order, in CustomerInput, update *ent.OrderUpdate) {
	c := *o.Customer
	c.FirstName, c.LastName = strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName)
	c.EmailAddress, c.AcceptsMarketing = strings.TrimSpace(in.EmailAddress), in.AcceptsMarketing
	update.SetCustomer(&c)
}

// DeleteCustomer removes the order's customer.
func (s *Service) DeleteCustomer(ctx context.Context, sess *OrderSession) (*OrderView, error) {
	if v, ok, err := s.remoteEvent(ctx, sess, EventRemoveCustomer, struct{}{}); ok {
		return v, err
	}
	return s.changeOrderFields(ctx, sess, func(read *ent.Client, o *ent.Order, update *ent.OrderUpdate) error {
		if o.Customer == nil {
			return problem.Validation("customer.not_found", "the order has no customer to delete", nil)
		}
		// A customer put on afterwards is no longer init's.
		update.ClearCustomer().ClearInitCustomer()
		return nil
	})
}
