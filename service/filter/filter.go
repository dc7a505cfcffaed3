// Package filter is the filter grammar of every read interface's list (`filter=eq(email:a@b.c)`):
// one parser, a per-resource allowlist of typed columns, and ent predicates built with
// entgo.io/ent/dialect/sql, so that a value only ever reaches the database as a bound argument.
// docs/filters.md describes the grammar for callers.
package filter

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/checkoutd/checkoutd/service/problem"
)

// Bounds keep a filter's parse linear in its length and its query small; each refusal names
// its bound.
const (
	// MaxLength is the bound of all filter parameters together, in bytes.
	MaxLength = 4096
	// MaxConditions is the bound of conditions across all filter parameters.
	MaxConditions = 20
	// MaxValues is the bound of values of one in or nin.
	MaxValues = 100
	// MaxValueLength is the bound of one value, in bytes once URL-decoded.
	MaxValueLength = 255
	// MaxWildcards is the bound of `*` in one like or nlike value: SQL LIKE matching costs grow
	// with the number of wildcards, and a prefix, suffix or substring needs at most two.
	MaxWildcards = 4
)

// Filter is a parsed filter: its conditions, all of which a row must meet.
type Filter struct {
	conditions []condition
}

type operator uint8

const (
	eq operator = iota
	neq
	gt
	gte
	lt
	lte
	like
	nlike
	in
	nin
)

var operatorNames = [...]string{"eq", "neq", "gt", "gte", "lt", "lte", "like", "nlike", "in", "nin"}

func (o operator) String() string { return operatorNames[o] }

func operatorNamed(name string) (operator, bool) {
	for i, n := range operatorNames {
		if n == name {
			return operator(i), true
		}
	}
	return 0, false
}

// condition is one op(column:value...) with its values read as the column's type.
type condition struct {
	op     operator
	name   string
	column Column
	values []any
}

// Parse reads the filter query parameters (as net/url decoded them: r.URL.Query()["filter"])
// against the columns a resource allows, and ANDs every condition of every parameter. No
// parameter at all is a filter that keeps every row; an empty one is refused. A refusal is a
// *problem.Error of type filter.invalid naming what is wrong.
func Parse(params []string, columns Columns) (*Filter, error) {
	total := 0
	for _, p := range params {
		total += len(p)
	}
	if total > MaxLength {
		return nil, invalid("filter is longer than %d bytes", MaxLength)
	}
	f := &Filter{}
	for _, p := range params {
		ps := parser{s: p, columns: columns, f: f}
		if err := ps.parse(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// parser reads one filter parameter in a single pass, never going back: its work is linear in
// the parameter's length.
type parser struct {
	s       string
	i       int
	columns Columns
	f       *Filter
}

func (p *parser) parse() error {
	p.skipSpaces()
	if p.i == len(p.s) {
		return invalid("empty filter: write op(column:value), several joined with +")
	}
	for {
		if err := p.condition(); err != nil {
			return err
		}
		// A + that came through the query string unencoded has become a space: either joins.
		spaced := p.skipSpaces()
		if p.i == len(p.s) {
			return nil
		}
		switch c := p.s[p.i]; {
		case c == '+':
			p.i++
			p.skipSpaces()
			if p.i == len(p.s) {
				return invalid("filter ends with +: a condition must follow it")
			}
		case c == ')':
			return invalid(`unbalanced parentheses: ")" at byte %d has no "("`, p.i)
		case !spaced:
			return invalid("expected + after the condition ending at byte %d, found %q", p.i, clip(p.s[p.i:]))
		}
	}
}

func (p *parser) skipSpaces() bool {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
	return p.i > start
}

// condition reads op(column:value[,value...]).
func (p *parser) condition() error {
	if len(p.f.conditions) == MaxConditions {
		return invalid("filter has more than %d conditions", MaxConditions)
	}
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != '(' && p.s[p.i] != ')' && p.s[p.i] != '+' && p.s[p.i] != ' ' {
		p.i++
	}
	name := p.s[start:p.i]
	switch {
	case p.i < len(p.s) && p.s[p.i] == ')':
		return invalid(`unbalanced parentheses: ")" at byte %d has no "("`, p.i)
	case name == "" && p.i < len(p.s) && p.s[p.i] == '(':
		return invalid(`missing operator before "(" at byte %d`, p.i)
	case name == "":
		return invalid("empty condition at byte %d: write op(column:value)", p.i)
	}
	op, ok := operatorNamed(name)
	if !ok {
		return invalid("unknown operator %q (operators: %s)", clip(name), strings.Join(operatorNames[:], ", "))
	}
	if p.i == len(p.s) || p.s[p.i] != '(' {
		return invalid("expected ( after operator %s", op)
	}
	open := p.i
	p.i++

	start = p.i
	for p.i < len(p.s) && p.s[p.i] != ':' {
		switch p.s[p.i] {
		case '(':
			return invalid(`unbalanced parentheses: "(" at byte %d inside the condition opened at byte %d`, p.i, open)
		case ')':
			return invalid(`condition %s( at byte %d has no ":" between column and value`, op, open)
		}
		p.i++
	}
	if p.i == len(p.s) {
		return unclosed(open)
	}
	name = strings.TrimSpace(p.s[start:p.i])
	column, ok := p.columns[name]
	if !ok {
		return invalid("unknown column %q (columns: %s)", clip(name), strings.Join(p.columns.names(), ", "))
	}
	p.i++

	var raw []string
	start = p.i
	for ; ; p.i++ {
		if p.i == len(p.s) {
			return unclosed(open)
		}
		c := p.s[p.i]
		if c == '(' {
			return invalid(`unbalanced parentheses: "(" at byte %d inside a value (write it %%28)`, p.i)
		}
		if c == ')' || (c == ',' && (op == in || op == nin)) {
			if len(raw) == MaxValues {
				return invalid("%s(%s:...) has more than %d values", op, name, MaxValues)
			}
			raw = append(raw, p.s[start:p.i])
			start = p.i + 1
			if c == ')' {
				p.i++
				break
			}
		}
	}
	values := make([]any, len(raw))
	for i, r := range raw {
		v, err := value(op, name, column, r)
		if err != nil {
			return err
		}
		values[i] = v
	}
	p.f.conditions = append(p.f.conditions, condition{op: op, name: name, column: column, values: values})
	return nil
}

// value reads one value: spaces around it dropped (lists are written `a, b`), then URL-decoded
// once more, so that a value may hold a `,` `(` `)` `+` or `%` written %2C %28 %29 %2B %25.
// PathUnescape rather than QueryUnescape: a + decoded from %2B stays a +.
func value(op operator, name string, column Column, raw string) (any, error) {
	raw = strings.TrimSpace(raw)
	v, err := url.PathUnescape(raw)
	if err != nil {
		return nil, invalid("value %q of column %s is not URL-encoded correctly (a literal %% is written %%25)", clip(raw), name)
	}
	switch {
	case len(v) > MaxValueLength:
		return nil, invalid("value of column %s is longer than %d bytes", name, MaxValueLength)
	case !utf8.ValidString(v):
		return nil, invalid("value of column %s is not UTF-8 text", name)
	case strings.IndexByte(v, 0) >= 0:
		return nil, invalid("value of column %s contains a NUL character", name)
	}
	if !column.kind.takes(op) {
		return nil, invalid("operator %s does not apply to column %s (%s)", op, name, column.kind)
	}
	if op == like || op == nlike {
		if n := strings.Count(v, "*"); n > MaxWildcards {
			return nil, invalid("value of column %s has %d wildcards (*), more than %d", name, n, MaxWildcards)
		}
		return v, nil
	}
	return column.kind.read(name, v)
}

func unclosed(open int) error {
	return invalid(`unbalanced parentheses: "(" at byte %d is not closed`, open)
}

// invalid is the 400 of every refused filter.
func invalid(format string, args ...any) *problem.Error {
	return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "filter.invalid",
		Message: fmt.Sprintf(format, args...), Details: map[string]any{"field": "filter"}}
}

// clip keeps a quoted piece of the caller's filter short in a message.
func clip(s string) string {
	const n = 40
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
