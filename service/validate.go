package service

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/bojanz/currency"
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
