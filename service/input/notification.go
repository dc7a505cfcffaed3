package input

import (
	"fmt"
	"time"

	"github.com/checkoutd/checkoutd/service/problem"
)

// The checks of the platform's event notifications, whichever domain applies them (customers,
// catalog, platform orders): a refusal is the spec's 400 naming the field, nothing queued.

// NotificationInvalid is the refusal of a notification's field.
func NotificationInvalid(field, message string) *problem.Error {
	return &problem.Error{Kind: problem.Rejected, Code: problem.CodeBadRequest, Type: "notification.invalid",
		Message: field + " " + message, Details: map[string]any{"field": field}}
}

// NotificationID checks a platform id: given, at most MaxShortText.
func NotificationID(field, id string) error {
	if id == "" {
		return NotificationInvalid(field, "is required")
	}
	return NotificationText(field, &id, MaxShortText)
}

// NotificationText checks that a text, when given, is at most max bytes.
func NotificationText(field string, v *string, max int) error {
	if v != nil && len(*v) > max {
		return NotificationInvalid(field, fmt.Sprintf("is longer than %d characters", max))
	}
	return nil
}

// NotificationTime reads a platform time (platform_updated_at, platform_deleted_at): given, and
// RFC 3339, because it puts changes arriving out of order back in order.
func NotificationTime(field, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, NotificationInvalid(field, "is required: an RFC 3339 time, accurate, so that changes arriving out of order are put back in order")
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, NotificationInvalid(field, "must be an RFC 3339 time such as 2026-11-25T23:59:00Z")
	}
	return t, nil
}
