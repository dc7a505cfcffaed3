// Package override calls a shop's API overrides: the endpoints a shop (or one order, given at
// init) configured to take over one piece of checkout functionality from checkoutd's built-in
// one (address_validate, shipping, discount, inventory, tax). Calls go through service/remote
// (signed with the override's shared secret, bounded by its timeout, behind its circuit
// breaker), never while a database transaction is open. What a failed call does is the
// override's failure policy: refuse the shopper's request, or fall back on the built-in
// function and say so. docs/overrides.md is the protocol.
package override

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/remote"
)

// The override types, in the spec's words.
const (
	AddressValidate = "address_validate"
	Shipping        = "shipping"
	Discount        = "discount"
	Inventory       = "inventory"
	Tax             = "tax"
)

// Types are every override type.
var Types = []string{AddressValidate, Shipping, Discount, Inventory, Tax}

// Failure policies.
const (
	// Refuse: the shopper's request fails with override.unavailable and nothing changes.
	Refuse = "refuse"
	// Fallback: the built-in function answers, and the answer says a fallback was used.
	Fallback = "fallback"
)

// Policies are every failure policy.
var Policies = []string{Refuse, Fallback}

// DefaultPolicy is the failure policy of an override that sets none. Address validation and
// the inventory check fall back: checkoutd's own checks are sound, only less informed, and a
// shopper kept from paying over a down validator loses the shop the sale. Shipping, discounts
// and taxes refuse: their figures are money the shop decided on, and checkoutd's zones, rates
// or codes may not hold them (a tax service exists because the zones are not the shop's taxes),
// so a fallback would charge a wrong price silently, which is worse than a clear error.
func DefaultPolicy(typ string) string {
	switch typ {
	case AddressValidate, Inventory:
		return Fallback
	}
	return Refuse
}

// Timeout bounds: a shopper waits for the call.
const (
	MinTimeoutMS     = 100
	MaxTimeoutMS     = 10_000
	DefaultTimeoutMS = 2_000
)

// Override is one override in effect for an order.
type Override struct {
	Type    string
	URL     string
	Secret  string
	Policy  string
	Timeout time.Duration
	// PerOrder says the order was given it at init (it took the place of the shop's).
	PerOrder bool
	// remote names its circuit: the configuration row and URL, so a changed URL starts afresh.
	remote string
}

// Set is the overrides in effect for one order (or a shop), by type.
type Set struct {
	ShopID        int
	PublicOrderID string
	ByType        map[string]Override
}

// Has reports whether typ is overridden.
func (s *Set) Has(typ string) bool {
	if s == nil {
		return false
	}
	_, ok := s.ByType[typ]
	return ok
}

// Empty reports whether nothing is overridden.
func (s *Set) Empty() bool { return s == nil || len(s.ByType) == 0 }

// Service calls overrides.
type Service struct {
	remote *remote.Client
	// policy is the outbound policy the URLs an order is given at init must pass.
	policy outbound.Policy
}

// New returns the override caller; calls go through rc, shared with the remote state authority.
func New(rc *remote.Client, policy outbound.Policy) *Service {
	return &Service{remote: rc, policy: policy}
}

// Policy is the outbound policy override URLs must pass.
func (s *Service) Policy() outbound.Policy { return s.policy }

func policyOf(p, typ string) string {
	if p == "" {
		return DefaultPolicy(typ)
	}
	return p
}

// Resolve is the overrides in effect for an order of the shop (publicOrderID empty: the shop's
// alone): the shop's, with the order's own over them (the order's own override of a type wins).
// A shop with a remote state authority has none, which is the caller's to know: the RSA owns
// the order's state, and two authorities for one figure would make the answer depend on which
// was asked last.
func Resolve(shopID int, publicOrderID string, shop []*ent.APIOverride, own []*ent.OrderAPIOverride) *Set {
	set := &Set{ShopID: shopID, PublicOrderID: publicOrderID, ByType: make(map[string]Override, len(shop)+len(own))}
	for _, a := range shop {
		set.ByType[a.OverrideType] = Override{Type: a.OverrideType, URL: a.URL, Secret: a.SharedSecret,
			Policy: policyOf(a.FailurePolicy, a.OverrideType), Timeout: time.Duration(a.TimeoutMs) * time.Millisecond,
			remote: "override:" + strconv.Itoa(a.ID) + ":" + a.URL}
	}
	for _, a := range own {
		set.ByType[a.OverrideType] = Override{Type: a.OverrideType, URL: a.URL, Secret: a.SharedSecret,
			Policy: policyOf(a.FailurePolicy, a.OverrideType), Timeout: time.Duration(a.TimeoutMs) * time.Millisecond,
			PerOrder: true, remote: "order-override:" + strconv.Itoa(a.ID) + ":" + a.URL}
	}
	return set
}

// Outcome is how an overridden function was answered.
type Outcome int

const (
	// BuiltIn: no override of the type; checkoutd's own function answers.
	BuiltIn Outcome = iota
	// Answered: the override answered; its answer is the function's.
	Answered
	// FellBack: the override failed and its policy is fallback: the built-in function answers,
	// and the answer says so.
	FellBack
)

// answerer is an override's answer, which checks its own bounds once decoded.
type answerer interface{ check() error }

// Call asks set's override of typ, sending body and decoding its answer into out. With no
// override of typ it calls nothing and answers BuiltIn. A failed call (no answer in time, a 5xx
// or 4xx, an answer that is not the protocol's, an open circuit) answers FellBack under the
// fallback policy, and override.unavailable under refuse. A request calls each override once:
// with a memo in ctx (WithMemo), a second call of the same override answers the first's answer.
func (s *Service) Call(ctx context.Context, set *Set, typ string, body Request, out answerer) (Outcome, error) {
	ov, ok := set.ByType[typ]
	if !set.Has(typ) || !ok {
		return BuiltIn, nil
	}
	body.OverrideType = typ
	raw, callErr := memoized(ctx, ov.remote, func() ([]byte, error) {
		answer, _, err := s.remote.Do(ctx, remote.Request{Remote: ov.remote, Kind: remote.KindOverride, Call: typ,
			ShopID: set.ShopID, PublicOrderID: set.PublicOrderID, URL: ov.URL, Secret: []byte(ov.Secret),
			Timeout: ov.Timeout, Body: body})
		if err != nil {
			return nil, err
		}
		if answer.Status >= 300 {
			return nil, fmt.Errorf("answered %d", answer.Status)
		}
		return answer.Body, nil
	})
	if callErr == nil {
		if err := json.Unmarshal(raw, out); err != nil {
			callErr = fmt.Errorf("the answer is not the protocol's: %w", err)
		} else if err := out.check(); err != nil {
			callErr = fmt.Errorf("the answer is not the protocol's: %w", err)
		}
	}
	if callErr == nil {
		return Answered, nil
	}
	if ov.Policy == Fallback {
		return FellBack, nil
	}
	return FellBack, Unavailable(typ, callErr)
}

// Unavailable is the refusal of a request whose override failed under the refuse policy.
func Unavailable(typ string, cause error) *problem.Error {
	return &problem.Error{Kind: problem.Unavailable, Code: problem.CodeOverrideUnavailable, Type: "override.unavailable",
		Message: "the shop's " + typ + " service did not answer usably (" + cause.Error() + "); nothing was changed: try again shortly",
		Details: map[string]any{"override_type": typ}}
}
