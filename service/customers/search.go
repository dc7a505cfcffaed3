package customers

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/lib/pq"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/customer"
	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/trigram"
)

// The fuzzy search of the customer list (`search`, docs/api.md "Customers"). Every word of the
// search must be found in the customer. A word of letters alone is a name: it is found in the
// first or the last name spelt alike (pg_trgm's trigram similarity, SimilarityThreshold or more,
// so that "Smiht" finds Smith). Any other word (digits, an email's dots and @, a hyphen) is
// found in a name spelt alike too, or as part of the email or the phone (any case).
//
// Both databases answer without reading every customer, in two steps. First the names spelt
// like each word, from customer_names, the lexicon of every first and last name customers have
// had (kept by triggers): the names sharing one of the word's trigrams, in this process's copy
// of the lexicon by trigram (lexicon.go), of which pg_trgm's similarity (trigram.Set) keeps the
// alike. Then the customers: every way of giving each name word to the first or the last name
// is a pair of name lists, whose customers the B-tree index customer_live_by_first_name gives
// directly (or, a last name alone, customer_live_by_last_name): John Smith reads the John
// Smiths, not every John and every Smith. The other words' email and
// phone parts come from the trigram indexes of the customers (PostgreSQL's customer_search,
// SQLite's customer_search_fts).

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
	// maxNameCandidates bounds the lexicon's names read for one word (those sharing a trigram
	// with it: a common surname's trigrams, "son" of Anderson, are in tens of thousands of
	// names of a million customers'), and maxSearchNames the alike names a search's query
	// lists: a word inside more names than that is refused rather than read.
	maxNameCandidates = 50000
	maxSearchNames    = 5000
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

// searchWord is a word of a search with the names spelt like it.
type searchWord struct {
	text string
	// name: letters alone, found in the names only.
	name  bool
	alike alikeNames
}

// alikeNames are the first names and the last names spelt like a word.
type alikeNames struct{ first, last []string }

// searched is a search's condition on the shop's customers, and its own count of the customers
// it finds.
type searched struct {
	where predicate.Customer
	// count counts the customers found from the indexes of their names alone, when the search
	// has only names (an email's or a phone's word comes from another index) and the database is
	// SQLite; nil otherwise. It is the list's total when nothing else conditions the list:
	// counting the list's query would look each customer found up again by id, to check its
	// shop and that it is not deleted, which the names' indexes have said already.
	count func(ctx context.Context, db *ent.Client) (int, error)
}

// searchFor is the search's condition and count: every word of search found in the customer.
func (s *Service) searchFor(ctx context.Context, shopID int, withDeleted bool, search string) (searched, error) {
	texts, err := searchWords(search)
	if err != nil {
		return searched{}, err
	}
	alike, err := s.namesAlike(ctx, texts)
	if err != nil {
		return searched{}, err
	}
	words := make([]searchWord, len(texts))
	for i, w := range texts {
		words[i] = searchWord{text: w, name: lettersOnly(w), alike: alike[i]}
	}
	return matchWords(shopID, withDeleted, words, s.p.DB.Dialect)
}

// namesAlike are, for each word, the lexicon's names spelt like it: those sharing one of the
// trigrams inside the word's runs of letters and digits (the candidates), of which the
// similarity keeps the alike. Both databases find them in this process's copy of the lexicon
// (lexicon).
func (s *Service) namesAlike(ctx context.Context, words []string) ([]alikeNames, error) {
	if err := s.names.topUp(ctx, s.p.DB); err != nil {
		return nil, err
	}
	alike := make([]alikeNames, len(words))
	for i, w := range words {
		var tooMany bool
		if alike[i], tooMany = s.names.alike(w, s.nameCandidates()); tooMany {
			return nil, tooCommon(w)
		}
	}
	return alike, nil
}

// The kinds of name of customer_names.
const (
	firstName = "first"
	lastName  = "last"
)

// nameCandidates is the most names read for one word (maxNameCandidates unless a test lowers it).
func (s *Service) nameCandidates() int {
	if s.maxNameCandidates > 0 {
		return s.maxNameCandidates
	}
	return maxNameCandidates
}

func tooCommon(w string) *problem.Error {
	return searchInvalid(fmt.Sprintf("the search word %q is part of too many names to search: give more of it", w))
}

// matchWords is the condition of the words: their names' ways (nameWays) and each other
// word's own condition. withDeleted: the search lists deleted customers too. dia is the
// database's dialect (the count is SQLite's).
func matchWords(shopID int, withDeleted bool, words []searchWord, dia string) (searched, error) {
	var names, others []searchWord
	listed := 0
	for _, w := range words {
		if w.name {
			names = append(names, w)
		} else {
			others = append(others, w)
			listed += len(w.alike.first) + len(w.alike.last)
		}
	}
	ways := nameWays(names)
	for _, w := range ways {
		listed += len(w.first) + len(w.last)
	}
	if listed > maxSearchNames {
		return searched{}, searchInvalid("the search's words are spelt like too many names to search: give more of them")
	}
	q := nameQuery{shopID: shopID, withDeleted: withDeleted}
	found := searched{where: func(s *sql.Selector) {
		if len(names) > 0 {
			s.Where(sql.P(func(b *sql.Builder) {
				if len(ways) == 0 {
					b.WriteString("1 = 0")
					return
				}
				q.arms(b, s, ways, "")
			}))
		}
		for _, w := range others {
			s.Where(otherWord(s, q, w))
		}
	}}
	if len(others) == 0 && dia == dialect.SQLite {
		found.count = func(ctx context.Context, db *ent.Client) (int, error) { return q.count(ctx, db, ways) }
	}
	return found, nil
}

// nameArm keeps the shop's customers whose first name is among first and last name among last
// (nil: any).
type nameArm struct{ first, last []string }

// nameQuery writes the conditions on names of one shop's search.
type nameQuery struct {
	shopID      int
	withDeleted bool
}

// armPart is an arm as one index answers it: its index, and its condition on
// platform_deleted_at.
type armPart struct {
	arm     nameArm
	index   string
	deleted string
}

// parts are the arms by index: customer_live_by_first_name when an arm has first names, else
// customer_live_by_last_name, and their customer_deleted_by_ indexes for the deleted, each
// partial index with the condition that selects it.
func (q nameQuery) parts(arms []nameArm) []armPart {
	var parts []armPart
	for _, a := range arms {
		by := "last_name"
		if a.first != nil {
			by = "first_name"
		}
		parts = append(parts, armPart{a, "customer_live_by_" + by, " IS NULL"})
		if q.withDeleted {
			parts = append(parts, armPart{a, "customer_deleted_by_" + by, " IS NOT NULL"})
		}
	}
	return parts
}

// arms writes the OR of arms, each answered from the index that starts with its names (parts).
// PostgreSQL ORs the arms' bitmaps; SQLite is told each arm's index (INDEXED BY), in a UNION
// ALL of their ids, since its planner, without statistics or misled by their averages (most
// names are rare, Smith is not), would rather read every Smith from another index. Each arm
// names the shop (and whether deleted) again: both planners match the conditions of an arm of
// an OR with an index by themselves. On SQLite, match (an FTS5 query of customer_search_fts)
// adds the customers it finds.
func (q nameQuery) arms(b *sql.Builder, s *sql.Selector, arms []nameArm, match string) {
	parts := q.parts(arms)
	if b.Dialect() == dialect.Postgres {
		b.WriteString("(")
		for i, p := range parts {
			if i > 0 {
				b.WriteString(" OR ")
			}
			b.WriteString("(")
			q.armWhere(b, s.C, p)
			b.WriteString(")")
		}
		b.WriteString(")")
		return
	}
	b.Ident(s.C(customer.FieldID)).WriteString(" IN (")
	q.ids(b, parts, " UNION ALL ")
	if match != "" {
		if len(parts) > 0 {
			b.WriteString(" UNION ALL ")
		}
		b.WriteString("SELECT rowid FROM customer_search_fts WHERE customer_search_fts MATCH ").Arg(match)
	}
	b.WriteString(")")
}

// ids writes SQLite's queries of the parts' ids, each from its index, joined by union.
func (q nameQuery) ids(b *sql.Builder, parts []armPart, union string) {
	for i, p := range parts {
		if i > 0 {
			b.WriteString(union)
		}
		b.WriteString("SELECT `id` FROM `customers` INDEXED BY `" + p.index + "` WHERE ")
		q.armWhere(b, b.Quote, p)
	}
}

// armWhere writes the conditions of a part, its columns named by col.
func (q nameQuery) armWhere(b *sql.Builder, col func(string) string, p armPart) {
	b.WriteString(col(customer.FieldShopID) + " = ").Arg(q.shopID)
	if p.arm.first != nil {
		b.WriteString(" AND ")
		in(b, col(customer.FieldFirstName), p.arm.first)
	}
	if p.arm.last != nil {
		b.WriteString(" AND ")
		in(b, col(customer.FieldLastName), p.arm.last)
	}
	b.WriteString(" AND " + col(customer.FieldPlatformDeletedAt) + p.deleted)
}

// count counts the shop's customers of the arms (SQLite), from their indexes alone: each
// part's partial index holds the shop and the names of customers deleted or not. Arms may share
// customers (John Johns is in John as a first name and Johns as a last, and in Johns and John),
// which a UNION counts once; one arm is counted in its index.
func (q nameQuery) count(ctx context.Context, db *ent.Client, arms []nameArm) (int, error) {
	parts := q.parts(arms)
	if len(parts) == 0 {
		return 0, nil
	}
	b := &sql.Builder{}
	b.SetDialect(dialect.SQLite)
	if len(parts) == 1 {
		b.WriteString("SELECT count(*) FROM `customers` INDEXED BY `" + parts[0].index + "` WHERE ")
		q.armWhere(b, b.Quote, parts[0])
	} else {
		b.WriteString("SELECT count(*) FROM (")
		q.ids(b, parts, " UNION ")
		b.WriteString(")")
	}
	query, args := b.Query()
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int
	if rows.Next() {
		err = rows.Scan(&n)
	}
	if err == nil {
		err = rows.Err()
	}
	return n, err
}

// nameWays are the ways of giving each name word to the first or the last name whose names
// exist: a side's names are those alike to every word given to it.
func nameWays(words []searchWord) []nameArm {
	var ways []nameArm
	if len(words) == 0 {
		return nil
	}
	for mask := 0; mask < 1<<len(words); mask++ {
		var first, last []string
		var toFirst, toLast bool
		empty := false
		for i, w := range words {
			if mask&(1<<i) == 0 {
				first, toFirst = intersect(first, w.alike.first, toFirst), true
				empty = empty || len(first) == 0
			} else {
				last, toLast = intersect(last, w.alike.last, toLast), true
				empty = empty || len(last) == 0
			}
		}
		if !empty {
			ways = append(ways, nameArm{first: first, last: last})
		}
	}
	return ways
}

// intersect is the names of both lists (b alone when a is not yet given).
func intersect(a, b []string, given bool) []string {
	if !given {
		return b
	}
	in := make(map[string]bool, len(b))
	for _, n := range b {
		in[n] = true
	}
	out := []string{}
	for _, n := range a {
		if in[n] {
			out = append(out, n)
		}
	}
	return out
}

// in keeps the rows whose col is among names: on PostgreSQL one array parameter (= ANY), which
// the server reads and plans faster than a parameter per name.
func in(b *sql.Builder, col string, names []string) {
	if b.Dialect() == dialect.Postgres {
		b.Ident(col).WriteString(" = ANY(").Arg(pq.StringArray(names)).WriteString(")")
		return
	}
	b.Ident(col).WriteString(" IN (")
	for i, n := range names {
		if i > 0 {
			b.Comma()
		}
		b.Arg(n)
	}
	b.WriteString(")")
}

// otherWord keeps the customers in which w (not letters alone) is found: a name spelt alike, or
// part of the email or the phone.
func otherWord(s *sql.Selector, q nameQuery, w searchWord) *sql.Predicate {
	var arms []nameArm
	if len(w.alike.first) > 0 {
		arms = append(arms, nameArm{first: w.alike.first})
	}
	if len(w.alike.last) > 0 {
		arms = append(arms, nameArm{last: w.alike.last})
	}
	return sql.P(func(b *sql.Builder) {
		if b.Dialect() != dialect.Postgres {
			// The FTS5 phrase of the word in the email or the phone: the rows holding it there.
			q.arms(b, s, arms, `{email phone} : "`+strings.ReplaceAll(w.text, `"`, `""`)+`"`)
			return
		}
		contains := "%" + escapeLike(w.text) + "%"
		b.WriteString("(")
		if len(arms) > 0 {
			q.arms(b, s, arms, "")
			b.WriteString(" OR ")
		}
		b.Ident(s.C(customer.FieldEmail)).WriteString(" ILIKE ").Arg(contains).
			WriteString(" OR ").Ident(s.C(customer.FieldPhone)).WriteString(" ILIKE ").Arg(contains)
		b.WriteString(")")
	})
}

func escapeLike(w string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(w)
}

func lettersOnly(w string) bool {
	for _, c := range w {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return true
}
