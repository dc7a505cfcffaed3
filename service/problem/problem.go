// Package problem is the typed error every part of the service answers a caller with: a kind
// that says what went wrong in the caller's terms, and the code, type, message and details of
// the error envelope. It knows nothing of HTTP: rest/ and graph/ each map a kind to a status in
// one place.
package problem

import (
	"errors"
	"fmt"
)

// Kind is what went wrong, as the caller can act on it.
type Kind uint8

const (
	// Internal is a fault of checkoutd's, not of the caller's.
	Internal Kind = iota
	// Malformed is a request that cannot be read: broken JSON, a malformed header or path.
	Malformed
	// Unauthorized is a missing, wrong or expired credential.
	Unauthorized
	// NotFound is a resource the caller names that does not exist (for this caller).
	NotFound
	// NotAllowed is a method the address does not take.
	NotAllowed
	// Conflict is a request that collides with another one or with the state (a key in use).
	Conflict
	// TooLarge is a request over a size bound.
	TooLarge
	// Unsupported is a body in a form that is not taken (not JSON).
	Unsupported
	// Invalid is a request refused by a validation or business rule.
	Invalid
	// Unavailable is a request that could not be served now; the same request may succeed later.
	Unavailable
	// Rejected is a request refused by a rule of an interface whose spec answers such refusals
	// with 400 rather than 422 (destinations, event notifications).
	Rejected
	// NotConfigured is a request for something the shop has not set up (a sync of a topic
	// without a destination): the spec's 501.
	NotConfigured
)

var kindNames = [...]string{"internal", "malformed", "unauthorized", "not_found", "not_allowed", "conflict", "too_large", "unsupported", "invalid", "unavailable", "rejected", "not_configured"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// MarshalText writes a kind by its name, so that a kept problem (an idempotent call's) does not
// depend on the order of the constants.
func (k Kind) MarshalText() ([]byte, error) {
	if int(k) >= len(kindNames) {
		return nil, fmt.Errorf("problem: unknown kind %d", k)
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText reads a kind written by MarshalText.
func (k *Kind) UnmarshalText(b []byte) error {
	for i, name := range kindNames {
		if name == string(b) {
			*k = Kind(i)
			return nil
		}
	}
	return fmt.Errorf("problem: unknown kind %q", b)
}

// Error is a failure the caller caused or can act on; front doors translate it as it is.
type Error struct {
	Kind    Kind
	Code    string
	Type    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%s): %s", e.Type, e.Code, e.Message) }

// As returns the problem inside err, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Codes used where the spec names none; docs/errors.md lists them all.
const (
	CodeUnauthorized    = "02-01"
	CodeNotFound        = "02-04"
	CodeBadRequest      = "02-00"
	CodeConflict        = "02-09"
	CodeBodyTooLarge    = "02-13"
	CodeValidation      = "02-22"
	CodeGatewayInvalid  = "02-91"
	CodeElementNotFound = "02-91"
	CodeElementInvalid  = "02-94"
	CodeRSANotSet       = "02-89"
	// CodeOverrideUnavailable: a shop's API override failed under its refuse policy.
	CodeOverrideUnavailable = "02-53"
	CodeInternal            = "02-50"
)

// DetailRequestID is the detail that names the call a refusal was made in (its X-Request-Id),
// which the front doors add and an idempotent replay keeps.
const DetailRequestID = "request_id"

// Validation is a refusal of type typ: the request broke a validation or business rule.
func Validation(typ, message string, details map[string]any) *Error {
	return &Error{Kind: Invalid, Code: CodeValidation, Type: typ, Message: message, Details: details}
}

// NotFoundError is a refusal of type typ for a resource the caller names that does not exist.
func NotFoundError(typ, message string) *Error {
	return &Error{Kind: NotFound, Code: CodeNotFound, Type: typ, Message: message}
}

// ErrUnauthorized says nothing about whether the shop exists.
var ErrUnauthorized = &Error{Kind: Unauthorized, Code: CodeUnauthorized, Type: "auth.unauthorized", Message: "missing or invalid credentials"}
