package filter

import (
	"strings"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
)

// Predicate is the filter as a predicate of any entity's query; the caller wraps it in its
// entity's predicate type: query.Where(predicate.Customer(f.Predicate())). A filter without
// conditions keeps every row.
func (f *Filter) Predicate() func(*sql.Selector) {
	return func(s *sql.Selector) {
		if f == nil || len(f.conditions) == 0 {
			return
		}
		preds := make([]*sql.Predicate, len(f.conditions))
		for i, c := range f.conditions {
			preds[i] = c.predicate(s.C(c.column.sql))
		}
		s.Where(group("AND", preds...))
	}
}

// group joins predicates by op, each in parentheses: ent's And and Or leave out the
// parentheses of a lone operand, so that the OR of a one-condition filter (neq: NOT (...) OR
// col IS NULL) would bind looser than the AND of the caller's own predicates.
func group(op string, preds ...*sql.Predicate) *sql.Predicate {
	return sql.P(func(b *sql.Builder) {
		for i, p := range preds {
			if i > 0 {
				b.WriteString(" " + op + " ")
			}
			b.Wrap(func(b *sql.Builder) { b.Join(p) })
		}
	})
}

func (c condition) predicate(col string) *sql.Predicate {
	switch c.op {
	case neq, nlike, nin:
		// A row whose column is null is not equal to (not like, not in) the value, which SQL's
		// three-valued NOT would leave out.
		return group("OR", sql.Not(c.positive(col)), sql.IsNull(col))
	}
	return c.positive(col)
}

// positive is the condition without its negation: eq for neq, like for nlike, in for nin.
func (c condition) positive(col string) *sql.Predicate {
	v := c.values[0]
	if t, ok := v.(span); ok {
		return timePredicate(c.op, col, c.values, t)
	}
	switch c.op {
	case eq, neq:
		return sql.EQ(col, v)
	case gt:
		return sql.GT(col, v)
	case gte:
		return sql.GTE(col, v)
	case lt:
		return sql.LT(col, v)
	case lte:
		return sql.LTE(col, v)
	case like, nlike:
		return likePredicate(col, v.(string))
	}
	return sql.In(col, c.values...)
}

// timePredicate compares with an instant, or with a whole day: eq is within the day, gt after
// its end, lte before its end.
func timePredicate(op operator, col string, values []any, t span) *sql.Predicate {
	switch op {
	case gt:
		if t.day() {
			return sql.GTE(col, t.to)
		}
		return sql.GT(col, t.from)
	case gte:
		return sql.GTE(col, t.from)
	case lt:
		return sql.LT(col, t.from)
	case lte:
		if t.day() {
			return sql.LT(col, t.to)
		}
		return sql.LTE(col, t.from)
	case in, nin:
		preds := make([]*sql.Predicate, len(values))
		for i, v := range values {
			preds[i] = timePredicate(eq, col, nil, v.(span))
		}
		return group("OR", preds...)
	}
	if t.day() {
		return group("AND", sql.GTE(col, t.from), sql.LT(col, t.to))
	}
	return sql.EQ(col, t.from)
}

// likePredicate matches a value whose `*` are wildcards and whose other characters match
// themselves (% _ and \ escaped), ignoring the case of ASCII letters on both databases: SQLite's
// LIKE does so, PostgreSQL's ILIKE (which folds other letters too).
func likePredicate(col, value string) *sql.Predicate {
	var pattern strings.Builder
	for _, r := range value {
		switch r {
		case '*':
			pattern.WriteByte('%')
		case '%', '_', '\\':
			pattern.WriteByte('\\')
			pattern.WriteRune(r)
		default:
			pattern.WriteRune(r)
		}
	}
	return sql.P(func(b *sql.Builder) {
		b.Ident(col)
		if b.Dialect() == dialect.Postgres {
			b.WriteString(" ILIKE ").Arg(pattern.String())
			return
		}
		// SQLite's LIKE has no escape character unless told.
		b.WriteString(" LIKE ").Arg(pattern.String()).WriteString(" ESCAPE ").Arg(`\`)
	})
}
