package rsa

import (
	"errors"
	"strings"

	json "github.com/segmentio/encoding/json"

	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/remote"
)

// CodeUnavailable is the code of every answer that says the shop's RSA could not be heard.
const CodeUnavailable = "02-53"

// refused is the RSA's 400: its reason, read from the answer's message, error or reason (or the
// answer's text), is in the message.
func refused(call string, body []byte) *problem.Error {
	reason := reasonOf(body)
	typ, what := "rsa.refused", "the remote state authority refused the change"
	switch call {
	case callValidateAddress:
		typ, what = "rsa.address_refused", "the remote state authority refused the address"
	case callValidateEmail:
		typ, what = "rsa.email_refused", "the remote state authority refused the email address"
	case callValidateDiscountCode:
		typ, what = "rsa.discount_code_refused", "the remote state authority refused the discount code"
	case callValidateInventory:
		typ, what = "rsa.inventory_refused", "the remote state authority refused the order's inventory"
	}
	msg := what
	if reason != "" {
		msg += ": " + reason
	}
	return problem.Validation(typ, msg, map[string]any{"reason": reason})
}

// reasonOf reads a refusal's reason, bounded.
func reasonOf(body []byte) string {
	var a struct {
		Message string `json:"message"`
		Error   string `json:"error"`
		Reason  string `json:"reason"`
		Errors  []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	reason := ""
	if json.Unmarshal(body, &a) == nil {
		switch {
		case a.Reason != "":
			reason = a.Reason
		case a.Message != "":
			reason = a.Message
		case a.Error != "":
			reason = a.Error
		case len(a.Errors) > 0:
			reason = a.Errors[0].Message
		}
	} else {
		reason = strings.TrimSpace(string(body))
	}
	if len(reason) > 500 {
		reason = reason[:500]
	}
	return strings.ToValidUTF8(reason, "")
}

// unavailable is an RSA that gave no usable answer (timeout, 5xx, no connection, open circuit);
// nothing changed.
func unavailable(err error) *problem.Error {
	outcome := remote.Failed
	var re *remote.Error
	if errors.As(err, &re) {
		outcome = re.Outcome
	}
	typ := "rsa.unavailable"
	if outcome == remote.TimedOut {
		typ = "rsa.timeout"
	}
	return &problem.Error{Kind: problem.Unavailable, Code: CodeUnavailable, Type: typ,
		Message: "the shop's remote state authority could not be heard (" + err.Error() + "); the order was not changed, try again",
		Details: map[string]any{"outcome": string(outcome)}}
}

// invalidAnswer is an answer that is not an RSA order state within bounds; nothing changed.
func invalidAnswer(why string) *problem.Error {
	return &problem.Error{Kind: problem.Unavailable, Code: CodeUnavailable, Type: "rsa.invalid_answer",
		Message: "the shop's remote state authority answered something that is not an order state (" + why + "); the order was not changed",
		Details: map[string]any{}}
}

// busy is an order whose earlier RSA call did not end in time.
func busy() *problem.Error {
	return &problem.Error{Kind: problem.Unavailable, Code: CodeUnavailable, Type: "rsa.busy",
		Message: "an earlier change of this order is still with the remote state authority; try again", Details: map[string]any{}}
}
