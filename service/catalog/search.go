package catalog

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/lib/pq"

	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
	"github.com/checkoutd/checkoutd/service/trigram"
)

// The fuzzy search of the product list (filtercolumn and filtervalue, docs/filters.md), each
// column answered from an index rather than a scan of the shop's products:
//   - name: every word of the value (of at least MinSearchWord characters) is found in the
//     product's name: as a part of it, in any case, or spelt like a part of it: the name holds
//     three letters or digits in a row of the word (wordTrigrams: what the index finds) and pg_trgm's
//     word_similarity of the word in the name is at least trigram.Threshold, so that "Gren"
//     finds Green Tea and "Oolnog" Oolong. The index intersects the words' candidates, on which
//     alone the similarity is computed: PostgreSQL's GIN trigram index product_search (ILIKE
//     ANY) and word_similarity; SQLite's FTS5 trigram table product_search_fts and
//     checkoutd_word_similarity (service/trigram), which decides as PostgreSQL's does.
//   - sku: a variant's SKU starts with the value (case-sensitive), from the index on
//     (shop_id, sku) as a range of byte order.
// A name's handle, kept in the product's platform data, has no column nor index of its own.
// The products found are listed in the list's order (ordercolumn, id by default), as the
// customers' search lists its own: a page's cursor is the list's, and next_url yields each once.

const (
	// MinSearchWord is the shortest word searched, in characters: a trigram index finds
	// nothing shorter than a trigram; shorter words of a search are left out.
	MinSearchWord = 3
	// MaxSearchWords and MaxSearchLength bound a search.
	MaxSearchWords  = 5
	MaxSearchLength = 255
)

// SearchColumns are the columns filtercolumn may name.
var SearchColumns = []string{"name", "sku"}

// highest follows every text of a prefix in byte order (U+10FFFF, the last code point).
const highest = "\U0010FFFF"

func searchPredicate(q url.Values, shopID int) (predicate.Product, error) {
	column, value := q.Get("filtercolumn"), q.Get("filtervalue")
	if column == "" && value == "" {
		return nil, nil
	}
	if column == "" || value == "" {
		return nil, queryInvalid("filtercolumn", "filtercolumn and filtervalue are given together")
	}
	if len(value) > MaxSearchLength || !utf8.ValidString(value) || strings.ContainsRune(value, 0) {
		return nil, queryInvalid("filtervalue", "filtervalue is over 255 bytes or not UTF-8 text")
	}
	switch column {
	case "name":
		words, err := searchWords(value)
		if err != nil {
			return nil, err
		}
		return predicate.Product(nameSearch(words, shopID)), nil
	case "sku":
		return product.HasVariantsWith(variant.SkuGTE(value), variant.SkuLT(value+highest)), nil
	}
	return nil, queryInvalid("filtercolumn", "filtercolumn "+`"`+clip(column)+`"`+" is not one of "+strings.Join(SearchColumns, ", "))
}

func searchWords(value string) ([]string, error) {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(value)) {
		if utf8.RuneCountInString(w) >= MinSearchWord {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return nil, queryInvalid("filtervalue", "filtervalue has no word of at least 3 characters (shorter words are not searched)")
	}
	if len(words) > MaxSearchWords {
		return nil, queryInvalid("filtervalue", "filtervalue has more than 5 words of at least 3 characters")
	}
	return words, nil
}

// nameSearch keeps the shop's products in whose name every word is found: by one query of the
// index for all the words, whose candidates hold a trigram of each (wordTrigrams), so that the
// index intersects the words' candidates, and the word similarity is computed on those alone.
func nameSearch(words []string, shopID int) func(*sql.Selector) {
	return func(s *sql.Selector) {
		id, title := s.C(product.FieldID), s.C(product.FieldTitle)
		s.Where(sql.P(func(b *sql.Builder) {
			if b.Dialect() == dialect.Postgres {
				// The candidates are the shop's whose title is ILIKE ANY of each word's trigrams,
				// which the GIN index answers. OFFSET 0 keeps the subquery apart, planned alone
				// and so answered by the index: pulled up into the list's query, PostgreSQL reads
				// a page in id order by walking the products in that order through
				// word_similarity until the page is full, all of them when fewer are found.
				b.Ident(id).WriteString(" IN (SELECT id FROM " + product.Table + " WHERE ").
					Ident(product.FieldShopID).WriteString(" = ").Arg(shopID)
				for _, w := range words {
					trigrams := wordTrigrams(w)
					patterns := make([]string, len(trigrams))
					for i, t := range trigrams {
						patterns[i] = holding(t)
					}
					b.WriteString(" AND ").Ident(product.FieldTitle).WriteString(" ILIKE ANY (").Arg(pq.Array(patterns)).WriteString("::text[])")
				}
				for _, w := range words {
					b.WriteString(" AND (").Ident(product.FieldTitle).WriteString(" ILIKE ").Arg(holding(w)).
						WriteString(" OR word_similarity(").Arg(w).Comma().Ident(product.FieldTitle).WriteString(") >= ").Arg(trigram.Threshold).
						WriteString(")")
				}
				b.WriteString(" OFFSET 0)")
				return
			}
			// One FTS5 query: an AND of the words' ORs of trigrams. A phrase of the trigram
			// tokenizer matches the rows holding it, in any case.
			match := make([]string, len(words))
			for i, w := range words {
				var either []string
				for _, t := range wordTrigrams(w) {
					either = append(either, phrase(t))
				}
				match[i] = "(" + strings.Join(either, " OR ") + ")"
			}
			b.Ident(id).WriteString(" IN (SELECT rowid FROM product_search_fts WHERE product_search_fts MATCH ").
				Arg(strings.Join(match, " AND ")).WriteString(")")
			for _, w := range words {
				b.WriteString(" AND (").Ident(id).WriteString(" IN (SELECT rowid FROM product_search_fts WHERE product_search_fts MATCH ").
					Arg(phrase(w)).WriteString(") OR " + trigram.WordSimilarityFunc + "(").Arg(w).Comma().Ident(title).
					WriteString(") >= ").Arg(trigram.Threshold).WriteString(")")
			}
		}))
	}
}

// wordTrigrams are the distinct runs of three letters or digits of w, one of which a name
// holds when it holds w or a word spelt alike (pg_trgm's trigrams are of letters and digits, and
// those padding a word with spaces are left out, as the index cannot find them); w itself when
// it has none, whose name must then hold it. A run across other characters would be no help:
// PostgreSQL's index finds no trigram in "%a!!%" and reads all of itself.
func wordTrigrams(w string) []string {
	if out := trigram.Inner(w); len(out) > 0 {
		return out
	}
	return []string{w}
}

// phrase is the FTS5 query of the rows holding t.
func phrase(t string) string { return `"` + strings.ReplaceAll(t, `"`, `""`) + `"` }

// holding is the LIKE pattern of the texts holding t.
func holding(t string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(t) + "%"
}
