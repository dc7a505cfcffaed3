package input

import (
	"fmt"
	"net/url"
	"unicode/utf8"

	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Text bounds: every text a caller sends has one, counted in characters (docs/errors.md lists
// them under request.text_too_long).
const (
	// MaxShortText bounds names, titles, labels, codes, keys, emails and address lines.
	MaxShortText = 255
	// MaxLongText bounds notes, descriptions, reasons, messages and regular expressions.
	MaxLongText = 5000
	// MaxURLText bounds URLs.
	MaxURLText = 2048
	// MaxSecretText bounds shared secrets and tokens.
	MaxSecretText = 1024
)

// TooLong reports whether value holds more than max characters.
func TooLong(value string, max int) bool {
	return len(value) > max && utf8.RuneCountInString(value) > max
}

// TextTooLong is the 422 for one text longer than its bound, for inputs that check one field.
func TextTooLong(field string, max int) *problem.Error {
	return problem.Validation("request.text_too_long", fmt.Sprintf("%s is longer than %d characters", field, max),
		map[string]any{"field": field, "max_length": max})
}

// Currency refuses what is not an ISO 4217 code.
func Currency(code string) error {
	if len(code) != 3 || !currency.IsValid(code) {
		return problem.Validation("currency.invalid", "currency must be a 3-letter ISO 4217 code", map[string]any{"field": "currency"})
	}
	return nil
}

// IsHTTPURL reports whether s is an absolute http(s) URL with a host.
func IsHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// OutboundURLProblem is what is wrong with a URL checkoutd will call, or "": longer than
// MaxURLText, not an absolute http or https URL, or refused by the outbound policy (an internal
// address in any spelling, a metadata or local name, a user name or password). Names are not
// resolved here: what a name resolves to can change, so the client checks the address it
// connects to at every call.
func OutboundURLProblem(policy outbound.Policy, value string) string {
	if TooLong(value, MaxURLText) {
		return fmt.Sprintf("is longer than %d characters", MaxURLText)
	}
	if !IsHTTPURL(value) {
		return "must be an absolute http or https URL"
	}
	if r, ok := outbound.AsRefused(policy.CheckURL(value)); ok {
		return r.Reason
	}
	return ""
}
