package subscription

import (
	"fmt"
	"strings"
	"time"

	"github.com/teambition/rrule-go"
)

// MaxInterval bounds a rule's INTERVAL: an order every thousand days, weeks or months at most.
const MaxInterval = 1000

// allowedParts are the parts an order_rrule may hold: enough for "every n days, weeks, months or
// years, on these days", and nothing that makes orders more often than daily.
var allowedParts = map[string]bool{"FREQ": true, "INTERVAL": true, "COUNT": true, "UNTIL": true,
	"BYDAY": true, "BYMONTHDAY": true, "BYMONTH": true, "WKST": true}

// ruleError says why a text is not a rule orders are placed by.
type ruleError struct{ why string }

func (e *ruleError) Error() string {
	return "is not a recurrence rule checkoutd places orders by: " + e.why
}

func invalidRule(_, why string) error { return &ruleError{why} }

// parseRule reads an RFC 5545 RRULE (with or without its "RRULE:" prefix) whose occurrences
// start at start. Orders are placed at most daily, so FREQ is DAILY, WEEKLY, MONTHLY or YEARLY.
func parseRule(field, text string, start time.Time) (*rrule.RRule, error) {
	body := strings.TrimPrefix(strings.TrimSpace(text), "RRULE:")
	if body == "" {
		return nil, invalidRule(field, "it is empty")
	}
	for _, part := range strings.Split(body, ";") {
		name, _, _ := strings.Cut(part, "=")
		if !allowedParts[strings.ToUpper(name)] {
			return nil, invalidRule(field, fmt.Sprintf("part %q is not one of FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, WKST", clip(name)))
		}
	}
	opt, err := rrule.StrToROption(body)
	if err != nil {
		return nil, invalidRule(field, err.Error())
	}
	switch opt.Freq {
	case rrule.DAILY, rrule.WEEKLY, rrule.MONTHLY, rrule.YEARLY:
	default:
		return nil, invalidRule(field, "FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY")
	}
	if opt.Interval > MaxInterval {
		return nil, invalidRule(field, fmt.Sprintf("INTERVAL is at most %d", MaxInterval))
	}
	if opt.Count > 100_000 {
		return nil, invalidRule(field, "COUNT is at most 100000")
	}
	opt.Dtstart = start.UTC().Truncate(time.Second)
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		return nil, invalidRule(field, err.Error())
	}
	return r, nil
}

// nextAfter is the rule's first occurrence after t, or nil when it has none left.
func nextAfter(r *rrule.RRule, t time.Time) *time.Time {
	n := r.After(t, false)
	if n.IsZero() {
		return nil
	}
	n = n.UTC()
	return &n
}

var freqNouns = map[rrule.Frequency][2]string{
	rrule.DAILY: {"day", "days"}, rrule.WEEKLY: {"week", "weeks"}, rrule.MONTHLY: {"month", "months"}, rrule.YEARLY: {"year", "years"},
}

var dayNames = map[string]string{"MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday", "FR": "Friday", "SA": "Saturday", "SU": "Sunday"}

// ruleText explains a rule parsed by parseRule in English: "every 2 weeks on Monday and Friday,
// 10 times".
func ruleText(r *rrule.RRule) string {
	o := r.OrigOptions
	nouns := freqNouns[o.Freq]
	var b strings.Builder
	if o.Interval > 1 {
		fmt.Fprintf(&b, "every %d %s", o.Interval, nouns[1])
	} else {
		b.WriteString("every " + nouns[0])
	}
	if len(o.Bymonth) > 0 {
		months := make([]string, len(o.Bymonth))
		for i, m := range o.Bymonth {
			months[i] = time.Month(m).String()
		}
		b.WriteString(" in " + joinAnd(months))
	}
	if len(o.Bymonthday) > 0 {
		days := make([]string, len(o.Bymonthday))
		for i, d := range o.Bymonthday {
			days[i] = ordinal(d)
		}
		b.WriteString(" on the " + joinAnd(days) + " day of the month")
	}
	if len(o.Byweekday) > 0 {
		days := make([]string, len(o.Byweekday))
		for i, d := range o.Byweekday {
			s := d.String()
			name := dayNames[s[len(s)-2:]]
			if n := d.N(); n != 0 {
				name = ordinal(n) + " " + name
			}
			days[i] = name
		}
		b.WriteString(" on " + joinAnd(days))
	}
	if o.Count > 0 {
		if o.Count == 1 {
			b.WriteString(", once")
		} else {
			fmt.Fprintf(&b, ", %d times", o.Count)
		}
	}
	if !o.Until.IsZero() {
		b.WriteString(", until " + o.Until.UTC().Format("January 2, 2006"))
	}
	return b.String()
}

func ordinal(n int) string {
	if n == -1 {
		return "last"
	}
	if n < 0 {
		return ordinal(-n) + " to last"
	}
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

func joinAnd(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
