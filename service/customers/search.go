package customers

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/trigram"
)

// The fuzzy search of the customer list (`search`, docs/api.md "Customers"): each word of the
// search must be found in a customer: in the first or last name as a name spelt alike (pg_trgm's
// trigram similarity of at least SimilarityThreshold, so that "Smiht" finds Smith), or as part
// of the email or phone (any case). Both databases answer from an index:
// PostgreSQL from the GIN trigram index customer_search (its % operator and ILIKE), SQLite from
// the FTS5 trigram table customer_search_fts (the rows sharing a trigram with the word), whose
// candidates the same similarity, computed by checkoutd_similarity (service/trigram), then decides.

const (
	// SimilarityThreshold is pg_trgm's default threshold of its % operator.
	SimilarityThreshold = trigram.Threshold
	// MinSearchWord is the shortest word searched, in characters: a trigram index finds
	// nothing shorter than a trigram; shorter words of a search are left out.
	MinSearchWord = 3
	// MaxSearchWords and MaxSearchLength bound a search.
	MaxSearchWords  = 5
	MaxSearchLength = 255
	maxSearchWord   = 64
)

func searchInvalid(message string) *problem.Error {
	return &problem.Error{Kind: problem.Malformed, Code: problem.CodeBadRequest, Type: "query.invalid", Message: message,
		Details: map[string]any{"field": "search"}}
}

// searchWords are the words of a search that are searched: at least MinSearchWord characters.
func searchWords(search string) ([]string, error) {
	if len(search) > MaxSearchLength || !utf8.ValidString(search) || strings.ContainsRune(search, 0) {
		return nil, searchInvalid("search is over 255 bytes or not UTF-8 text")
	}
	var words []string
	for _, w := range strings.Fields(strings.ToLower(search)) {
		if utf8.RuneCountInString(w) < MinSearchWord {
			continue
		}
		if len(w) > maxSearchWord {
			return nil, searchInvalid("a word of search is over 64 bytes")
		}
		words = append(words, w)
	}
	if len(words) == 0 {
		return nil, searchInvalid("search has no word of at least 3 characters (shorter words are not searched)")
	}
	if len(words) > MaxSearchWords {
		return nil, searchInvalid("search has more than 5 words of at least 3 characters")
	}
	return words, nil
}

// searchPredicate keeps the customers in which every word is found.
func searchPredicate(words []string) func(*sql.Selector) {
	return func(s *sql.Selector) {
		// On SQLite the candidates of every word are one FTS5 query (an AND of the words'),
		// which FTS5 intersects in its index rather than SQLite joining a list per word.
		s.Where(sql.P(func(b *sql.Builder) {
			if b.Dialect() == dialect.Postgres {
				b.WriteString("TRUE")
				return
			}
			match := make([]string, len(words))
			for i, w := range words {
				match[i] = "(" + matchAnyTrigram(w) + ")"
			}
			b.Ident(s.C(customer.FieldID)).WriteString(" IN (SELECT rowid FROM customer_search_fts WHERE customer_search_fts MATCH ").
				Arg(strings.Join(match, " AND ")).WriteString(")")
		}))
		for _, w := range words {
			s.Where(wordPredicate(s, w))
		}
	}
}

func wordPredicate(s *sql.Selector, w string) *sql.Predicate {
	names := []string{customer.FieldFirstName, customer.FieldLastName}
	parts := []string{customer.FieldEmail, customer.FieldPhone}
	contains := "%" + escapeLike(w) + "%"
	return sql.P(func(b *sql.Builder) {
		if b.Dialect() == dialect.Postgres {
			// One condition per column, ORed: PostgreSQL answers each from the GIN index, ORs
			// the bitmaps of a word and ANDs those of the words, so that only the rows that may
			// hold every word are read from the table. That plan needs the table's statistics
			// (docs/operations.md): without them the planner takes a large table for a small one
			// and reads every row. A subquery per column, which leaves the planner no other way,
			// reads from the table every row holding each word on its own: all the Johns of a
			// search for John Smith.
			b.WriteString("(")
			for i, c := range names {
				if i > 0 {
					b.WriteString(" OR ")
				}
				b.Ident(s.C(c)).WriteString(" % ").Arg(w)
			}
			for _, c := range parts {
				b.WriteString(" OR ").Ident(s.C(c)).WriteString(" ILIKE ").Arg(contains)
			}
			b.WriteString(")")
			return
		}
		b.WriteString("(")
		for i, c := range names {
			if i > 0 {
				b.WriteString(" OR ")
			}
			b.WriteString(trigram.SimilarityFunc + "(").Ident(s.C(c)).Comma().Arg(w).WriteString(") >= ").Arg(SimilarityThreshold)
		}
		for _, c := range parts {
			b.WriteString(" OR ").Ident(s.C(c)).WriteString(" LIKE ").Arg(contains).WriteString(" ESCAPE ").Arg(`\`)
		}
		b.WriteString(")")
	})
}

func escapeLike(w string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(w)
}

// matchAnyTrigram is the FTS5 query of the candidates of w: the rows holding w (as a phrase
// of the trigram tokenizer, a part of a column), and those whose first or last name holds a
// trigram of w, which a name spelt alike does. A word of letters alone is matched as any of its
// trigrams in any column, which holds both and costs FTS5 neither the phrase's positions nor
// the column filter (the words' conditions then keep the rows that match); a word with other
// characters (digits, an email's dots and @) keeps the phrase and matches names alone by
// trigram: in emails and phones the trigrams of a number are common to most rows.
func matchAnyTrigram(w string) string {
	quote := func(t string) string { return `"` + strings.ReplaceAll(t, `"`, `""`) + `"` }
	r := []rune(w)
	seen := map[string]bool{}
	var terms []string
	for i := 0; i+3 <= len(r); i++ {
		t := string(r[i : i+3])
		if seen[t] {
			continue
		}
		seen[t] = true
		terms = append(terms, quote(t))
	}
	if lettersOnly(w) {
		return strings.Join(terms, " OR ")
	}
	return quote(w) + " OR {first_name last_name} : (" + strings.Join(terms, " OR ") + ")"
}

func lettersOnly(w string) bool {
	for _, c := range w {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return true
}
