package filter

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Columns is a resource's allowlist: the public name a filter writes, mapped to its SQL column
// and type. A name not listed is refused, so a filter never reaches a column the resource does
// not show.
type Columns map[string]Column

func (c Columns) names() []string {
	names := make([]string, 0, len(c))
	for n := range c {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Column is a SQL column of one type; its values are read as that type.
type Column struct {
	sql  string
	kind kind
}

// Text is a text column: every operator; like and nlike take `*` wildcards.
func Text(sqlColumn string) Column { return Column{sqlColumn, text} }

// Int is a whole-number column (ids, amounts in minor units): comparisons, in and nin.
func Int(sqlColumn string) Column { return Column{sqlColumn, integer} }

// Bool is a true/false column: eq, neq, in and nin.
func Bool(sqlColumn string) Column { return Column{sqlColumn, boolean} }

// Time is a time column: comparisons, in and nin, with RFC 3339 times (in any offset) or
// calendar dates (YYYY-MM-DD, the day in UTC).
func Time(sqlColumn string) Column { return Column{sqlColumn, instant} }

type kind uint8

const (
	text kind = iota
	integer
	boolean
	instant
)

func (k kind) String() string {
	return [...]string{"text", "a whole number", "true or false", "a time"}[k]
}

func (k kind) takes(op operator) bool {
	switch k {
	case text:
		return true
	case boolean:
		return op == eq || op == neq || op == in || op == nin
	default:
		return op != like && op != nlike
	}
}

// span is a time value: an instant (from == to), or a calendar day [from, to).
type span struct{ from, to time.Time }

func (s span) day() bool { return !s.from.Equal(s.to) }

func (k kind) read(name, v string) (any, error) {
	switch k {
	case integer:
		n, err := strconv.ParseInt(v, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return nil, invalid("value %q of column %s is out of range", clip(v), name)
		}
		if err != nil {
			return nil, invalid("value %q of column %s is not a whole number", clip(v), name)
		}
		return n, nil
	case boolean:
		switch strings.ToLower(v) {
		case "true", "1":
			return true, nil
		case "false", "0":
			return false, nil
		}
		return nil, invalid("value %q of column %s is not true or false", clip(v), name)
	case instant:
		return readTime(name, v)
	}
	return v, nil
}

// readTime reads an RFC 3339 time as the instant it is, in UTC: the databases then compare it
// with stored times whatever offset either was written in (SQLite, which stores times as text,
// is written in UTC in one format by service/platform's DSN, and the driver formats this value
// the same way). A calendar date is that day in UTC.
func readTime(name, v string) (any, error) {
	if len(v) == len("2006-01-02") {
		d, err := time.Parse(time.DateOnly, v)
		if err != nil {
			return nil, invalid("value %q of column %s is not a date (YYYY-MM-DD)", clip(v), name)
		}
		return span{d, d.AddDate(0, 0, 1)}, nil
	}
	// A + of an offset sent unencoded in the query string has been decoded to a space.
	if n := len(v); n > 6 && v[n-6] == ' ' && v[n-3] == ':' {
		v = v[:n-6] + "+" + v[n-5:]
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, invalid("value %q of column %s is not an RFC 3339 time (2006-01-02T15:04:05Z07:00) or a date (YYYY-MM-DD)", clip(v), name)
	}
	t = t.UTC()
	return span{t, t}, nil
}
