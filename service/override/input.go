package override

import (
	"slices"
	"strconv"

	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
)

// CheckPolicy adds to p what is wrong with a failure policy as sent (nil: not sent).
func CheckPolicy(p input.Problems, field string, policy *string) {
	if policy != nil && !slices.Contains(Policies, *policy) {
		p.Add(field, "must be refuse or fallback")
	}
}

// CheckTimeout adds to p what is wrong with a timeout as sent (nil: not sent).
func CheckTimeout(p input.Problems, field string, ms *int) {
	if ms != nil && (*ms < MinTimeoutMS || *ms > MaxTimeoutMS) {
		p.Add(field, "must be from "+strconv.Itoa(MinTimeoutMS)+" to "+strconv.Itoa(MaxTimeoutMS))
	}
}

// OrderInput is one override an order is given at init (api_overrides).
type OrderInput struct {
	OverrideType  string  `json:"override_type"`
	URL           string  `json:"url"`
	SharedSecret  string  `json:"shared_secret"`
	FailurePolicy *string `json:"failure_policy"`
	TimeoutMS     *int    `json:"timeout_ms"`
}

// CheckOrderInputs adds to p what is wrong with the overrides an order is given: the rules of a
// shop's override (type, outbound URL, secret, policy, timeout), and one per type.
func CheckOrderInputs(p input.Problems, ins []OrderInput, policy outbound.Policy) {
	if len(ins) > len(Types) {
		p.Add("api_overrides", "has more than one override per type")
		return
	}
	seen := map[string]bool{}
	for i, in := range ins {
		f := "api_overrides[" + strconv.Itoa(i) + "]."
		switch {
		case !slices.Contains(Types, in.OverrideType):
			p.Add(f+"override_type", "must be one of address_validate, shipping, discount, inventory, tax")
		case seen[in.OverrideType]:
			p.Add(f+"override_type", "is given twice")
		}
		seen[in.OverrideType] = true
		if why := input.OutboundURLProblem(policy, in.URL); why != "" {
			p.Add(f+"url", why)
		}
		if in.SharedSecret == "" {
			p.Add(f+"shared_secret", "is required")
		} else {
			p.Text(f+"shared_secret", in.SharedSecret, input.MaxSecretText)
		}
		CheckPolicy(p, f+"failure_policy", in.FailurePolicy)
		CheckTimeout(p, f+"timeout_ms", in.TimeoutMS)
	}
}
