package web

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bojanz/currency"

	"github.com/checkoutd/checkoutd/service/admin"
	"github.com/checkoutd/checkoutd/service/problem"
)

// form is a form as shown: its values (from the object edited, or as posted) and the problems
// the service found, by field name, with the service's message for the form as a whole.
type form struct {
	Values  url.Values
	Errors  map[string]string
	Message string
}

func newForm(values url.Values) form {
	if values == nil {
		values = url.Values{}
	}
	return form{Values: values, Errors: map[string]string{}}
}

func (f form) Get(name string) string { return f.Values.Get(name) }
func (f form) Err(name string) string { return f.Errors[name] }

// Checked reports whether a checkbox of the form is ticked.
func (f form) Checked(name string) bool { return f.Values.Get(name) != "" }

// invalid turns a validation error of the service (Invalid, or Rejected: a refusal of an
// interface whose spec answers 400, such as a destination's) into the form shown again: each
// problem goes next to the field its details name (a "field" entry names the one field the
// message is about; an Invalid's other entries are field: problem), and the message heads the form. Any other
// error is not the form's and comes back.
func invalid(values url.Values, err error) (form, error) {
	se, ok := problem.As(err)
	if !ok || se.Kind != problem.Invalid && se.Kind != problem.Rejected {
		return form{}, err
	}
	f := newForm(values)
	f.Message = se.Message
	for k, v := range se.Details {
		if k == "field" {
			if name, ok := v.(string); ok {
				f.Errors[name] = se.Message
			}
			continue
		}
		// A refusal's other details are facts about it (the URL verified), not fields.
		if msg, ok := v.(string); ok && se.Kind == problem.Invalid {
			f.Errors[k] = msg
		}
	}
	return f, nil
}

// renamed moves the service's problems from its field names (the API's) to the form's.
func (f form) renamed(names map[string]string) form {
	for apiName, formName := range names {
		if problem, ok := f.Errors[apiName]; ok {
			f.Errors[formName] = problem
		}
	}
	return f
}

// decodeError is a form value the console cannot even hand to the service (a number that is not
// one), reported like the service's own problems.
func decodeError(values url.Values, problems map[string]string) form {
	f := newForm(values)
	f.Errors = problems
	parts := make([]string, 0, len(problems))
	for k := range problems {
		parts = append(parts, k+" "+problems[k])
	}
	slices.Sort(parts)
	f.Message = "please correct: " + strings.Join(parts, "; ")
	return f
}

// decoder reads typed values out of a posted form and collects what does not parse.
type decoder struct {
	values   url.Values
	problems map[string]string
}

func newDecoder(values url.Values) *decoder {
	return &decoder{values: values, problems: map[string]string{}}
}

func (d *decoder) ok() bool { return len(d.problems) == 0 }

func (d *decoder) form() form { return decodeError(d.values, d.problems) }

func (d *decoder) str(name string) string { return strings.TrimSpace(d.values.Get(name)) }

// optional is nil for a blank field.
func (d *decoder) optional(name string) *string {
	if v := d.str(name); v != "" {
		return &v
	}
	return nil
}

func (d *decoder) checkbox(name string) bool { return d.values.Get(name) != "" }

func (d *decoder) integer(name string) *int {
	v := d.str(name)
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		d.problems[name] = "must be a whole number"
		return nil
	}
	return &n
}

func (d *decoder) int64(name string) *int64 {
	n := d.integer(name)
	if n == nil {
		return nil
	}
	v := int64(*n)
	return &v
}

// money reads an amount typed in the currency's major units ("12.50") as minor units.
func (d *decoder) money(name, code string) *int64 {
	v := d.str(name)
	if v == "" {
		return nil
	}
	a, err := currency.NewAmount(v, code)
	if err != nil {
		d.problems[name] = "must be an amount like 12.50"
		return nil
	}
	rounded := a.Round()
	n, err := rounded.Int64()
	if err != nil || !a.Equal(rounded) {
		d.problems[name] = "has more decimals than " + code + " allows"
		return nil
	}
	return &n
}

// date reads a yyyy-mm-dd date (an <input type=date>) as midnight UTC.
func (d *decoder) date(name string) *time.Time {
	v := d.str(name)
	if v == "" {
		return nil
	}
	t, err := time.Parse(time.DateOnly, v)
	if err != nil {
		d.problems[name] = "must be a date like 2026-12-31"
		return nil
	}
	return &t
}

// percentPpm reads a percentage ("8.875") as parts per million.
func (d *decoder) percentPpm(name string) *int {
	v := d.str(name)
	if v == "" {
		return nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		d.problems[name] = "must be a percentage like 8.875"
		return nil
	}
	n := int(f*10000 + 0.5)
	if f < 0 {
		n = int(f*10000 - 0.5)
	}
	return &n
}

// pageRequest reads ?page= of a listing.
func pageRequest(r *http.Request) admin.PageRequest {
	p, _ := strconv.Atoi(r.URL.Query().Get("page"))
	return admin.PageRequest{Page: p, PerPage: perPage}
}

// perPage is how many rows a console listing shows.
const perPage = 20

// formatMoney shows minor units in the currency's usual form ("$12.50").
func formatMoney(minor int64, code string) string {
	a, err := currency.NewAmountFromInt64(minor, code)
	if err != nil {
		return fmt.Sprintf("%d %s", minor, code)
	}
	return currency.NewFormatter(currency.NewLocale("en")).Format(a)
}

// majorUnits is minor units as typed in a money field ("12.50").
func majorUnits(minor int64, code string) string {
	a, err := currency.NewAmountFromInt64(minor, code)
	if err != nil {
		return strconv.FormatInt(minor, 10)
	}
	return a.Number()
}
