package service

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a failure the caller caused or can act on; rest and graph translate it as is.
type Error struct {
	Status  int
	Code    string
	Type    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string { return fmt.Sprintf("%s (%s): %s", e.Type, e.Code, e.Message) }

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
	return &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation, Type: typ, Message: message, Details: details}
}

func notFound(typ, message string) *Error {
	return &Error{Status: http.StatusNotFound, Code: CodeNotFound, Type: typ, Message: message}
}

// ErrUnauthorized says nothing about whether the shop exists.
var ErrUnauthorized = &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Type: "auth.unauthorized", Message: "missing or invalid credentials"}

// AsError returns the service error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
