package service

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/service/outbound"
)

func validateCurrency(code string) error {
	if len(code) != 3 || !currency.IsValid(code) {
		return validationError("currency.invalid", "currency must be a 3-letter ISO 4217 code", map[string]any{"field": "currency"})
	}
	return nil
}

// isHTTPURL reports whether s is an absolute http(s) URL with a host.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// outboundURLProblem is what is wrong with a URL checkoutd will call, or "": longer than
// MaxURLText, not an absolute http or https URL, or refused by the outbound policy (an internal
// address in any spelling, a metadata or local name, a user name or password). Names are not
// resolved here: what a name resolves to can change, so the client checks the address it
// connects to at every call.
func outboundURLProblem(policy outbound.Policy, value string) string {
	if tooLong(value, MaxURLText) {
		return fmt.Sprintf("is longer than %d characters", MaxURLText)
	}
	if !isHTTPURL(value) {
		return "must be an absolute http or https URL"
	}
	if r, ok := outbound.AsRefused(policy.CheckURL(value)); ok {
		return r.Reason
	}
	return ""
}

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

// tooLong reports whether value holds more than max characters.
func tooLong(value string, max int) bool {
	return len(value) > max && utf8.RuneCountInString(value) > max
}

// text adds a problem for field when value holds more than max characters.
func (f fieldErrors) text(field, value string, max int) {
	if tooLong(value, max) {
		f.add(field, fmt.Sprintf("is longer than %d characters", max))
	}
}

// textTooLong is the 422 for one text longer than its bound, for inputs that check one field.
func textTooLong(field string, max int) *Error {
	return validationError("request.text_too_long", fmt.Sprintf("%s is longer than %d characters", field, max),
		map[string]any{"field": field, "max_length": max})
}

// fieldErrors collects per-field problems of one input.
type fieldErrors map[string]string

func (f fieldErrors) add(field, problem string) { f[field] = problem }

func (f fieldErrors) details() map[string]any {
	d := make(map[string]any, len(f))
	for k, v := range f {
		d[k] = v
	}
	return d
}

func (f fieldErrors) message() string {
	parts := make([]string, 0, len(f))
	for k, v := range f {
		parts = append(parts, k+" "+v)
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

func itoa(i int) string { return strconv.Itoa(i) }
