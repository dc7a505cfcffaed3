package catalog

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent/predicate"
	"github.com/checkoutd/checkoutd/ent/product"
	"github.com/checkoutd/checkoutd/ent/variant"
)

// The fuzzy search of the product list (filtercolumn and filtervalue, docs/api.md "Products"),
// each column answered from an index rather than a scan of the shop's products:
//   - name: every word of the value (of at least MinSearchWord characters) is found somewhere in
//     the product's name, in any case. PostgreSQL answers from the GIN trigram index
//     product_search (ILIKE), SQLite from the FTS5 trigram table product_search_fts.
//   - sku: a variant's SKU starts with the value (case-sensitive), from the index on
//     (shop_id, sku) as a range of byte order.
// A name's handle, kept in the product's platform data, has no column nor index of its own.

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

func searchPredicate(q url.Values) (predicate.Product, error) {
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
		return predicate.Product(func(s *sql.Selector) {
			for _, w := range words {
				s.Where(nameHolds(s, w))
			}
		}), nil
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

// nameHolds keeps the products whose name holds w, in any case.
func nameHolds(s *sql.Selector, w string) *sql.Predicate {
	title := s.C(product.FieldTitle)
	return sql.P(func(b *sql.Builder) {
		if b.Dialect() == dialect.Postgres {
			contains := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(w) + "%"
			b.Ident(title).WriteString(" ILIKE ").Arg(contains)
			return
		}
		// A phrase of the trigram tokenizer matches the rows holding it, in any case.
		b.Ident(s.C(product.FieldID)).WriteString(" IN (SELECT rowid FROM product_search_fts WHERE product_search_fts MATCH ").
			Arg(`"` + strings.ReplaceAll(w, `"`, `""`) + `"`).WriteString(")")
	})
}
