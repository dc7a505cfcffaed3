package service

import "github.com/checkoutd/checkoutd/service/problem"

// Error is a failure the caller caused or can act on (package problem); rest and graph
// translate its kind to a status.
type Error = problem.Error

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
	CodeInternal        = "02-50"
)

func validationError(typ, message string, details map[string]any) *Error {
	return &Error{Kind: problem.Invalid, Code: CodeValidation, Type: typ, Message: message, Details: details}
}

func notFound(typ, message string) *Error {
	return &Error{Kind: problem.NotFound, Code: CodeNotFound, Type: typ, Message: message}
}

// ErrUnauthorized says nothing about whether the shop exists.
var ErrUnauthorized = &Error{Kind: problem.Unauthorized, Code: CodeUnauthorized, Type: "auth.unauthorized", Message: "missing or invalid credentials"}

// AsError returns the service error inside err, if any.
func AsError(err error) (*Error, bool) { return problem.As(err) }
