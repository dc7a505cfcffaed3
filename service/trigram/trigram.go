// Package trigram is pg_trgm's measures of text spelt alike, in Go: SQLite's side of the fuzzy
// searches (customers' names, products' names), whose PostgreSQL side is pg_trgm itself. Both
// are registered as SQLite functions, under the names the searches' SQL calls them by, so that
// SQLite decides among an index's candidates as PostgreSQL does.
package trigram

import (
	"database/sql/driver"
	"slices"
	"strings"
	"unicode"

	"modernc.org/sqlite"
)

// The SQLite functions: SimilarityFunc(a, b) is Similarity, WordSimilarityFunc(word, text)
// WordSimilarity.
const (
	SimilarityFunc     = "checkoutd_similarity"
	WordSimilarityFunc = "checkoutd_word_similarity"
)

// Threshold is pg_trgm's default threshold of similarity (its % operator): a word as similar
// as this, or more, to a name is spelt alike.
const Threshold = 0.3

func init() {
	for name, f := range map[string]func(a, b string) float64{SimilarityFunc: Similarity, WordSimilarityFunc: WordSimilarity} {
		if err := sqlite.RegisterDeterministicScalarFunction(name, 2, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			return f(text(args[0]), text(args[1])), nil
		}); err != nil {
			panic(err)
		}
	}
}

func text(v driver.Value) string {
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	}
	return ""
}

// Similarity is pg_trgm's similarity of a and b: the trigrams they share over the trigrams of
// either.
func Similarity(a, b string) float64 { return similarity(set(grams(a)), set(grams(b))) }

// Set is the distinct trigrams of a text, made once to be measured against many others (the
// customer search keeps one for each name of its lexicon).
type Set []gram

// SetOf is the Set of s.
func SetOf(s string) Set { return set(grams(s)) }

// Similarity is Similarity of the texts of a and b.
func (a Set) Similarity(b Set) float64 { return similarity(a, b) }

// similarity is the similarity of two sets of trigrams.
func similarity(ta, tb []gram) float64 {
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	common := 0
	for i, j := 0, 0; i < len(ta) && j < len(tb); {
		switch {
		case ta[i] < tb[j]:
			i++
		case ta[i] > tb[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	return float64(common) / float64(len(ta)+len(tb)-common)
}

// WordSimilarity is pg_trgm's word_similarity of word in text: the similarity of the trigrams of
// word with those of the run of text's trigrams (in their order in text) most like them, so
// that a word is as similar to a long name holding it as to itself. The run is pg_trgm's, which
// is not always the best: walking text, each trigram of word met ends a run, whose start is
// moved right to where the run is most similar, and stays there for the runs after it.
func WordSimilarity(word, text string) float64 {
	want := set(grams(word))
	if len(want) == 0 {
		return 0
	}
	// Computed in float32, as pg_trgm computes it.
	sim := func(common, distinct int) float32 { return float32(common) / float32(len(want)+distinct-common) }
	in := grams(text)
	// Each distinct trigram of text by its rank: whether word has it, and where the run
	// meets it last (-1: not in the run).
	ranks := set(in)
	type seen struct {
		wanted bool
		last   int
	}
	of := make([]seen, len(ranks))
	for i, g := range ranks {
		_, wanted := slices.BinarySearch(want, g)
		of[i] = seen{wanted, -1}
	}
	rank := make([]int, len(in))
	for i, g := range in {
		rank[i], _ = slices.BinarySearch(ranks, g)
	}
	// distinct and common count the run's trigrams and those of word.
	start, distinct, common := -1, 0, 0
	var best float32
	for end, r := range rank {
		if start < 0 {
			if !of[r].wanted {
				continue
			}
			start = end
		}
		if of[r].last < 0 {
			distinct++
			if of[r].wanted {
				common++
			}
		}
		of[r].last = end
		if !of[r].wanted {
			continue
		}
		from, most := start, sim(common, distinct)
		d, c := distinct, common
		for s := start; s <= end; s++ {
			if v := sim(c, d); v > most {
				from, most, distinct, common = s, v, d, c
			}
			if t := &of[rank[s]]; t.last == s {
				d--
				if t.wanted {
					c--
				}
			}
		}
		for s := start; s < from; s++ {
			if t := &of[rank[s]]; t.last == s {
				t.last = -1
			}
		}
		start = from
		best = max(best, most)
	}
	return float64(best)
}

// gram is a trigram: three characters of 21 bits each.
type gram uint64

// grams are the trigrams of s's words in order, repeats kept: each word (letters and digits, in
// lower case) padded with two spaces before and one after.
func grams(s string) []gram { return appendGrams(make([]gram, 0, len(s)+1), s) }

// appendGrams appends the trigrams of s (grams) to out.
func appendGrams(out []gram, s string) []gram {
	var a, b rune
	inWord := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if !inWord {
				a, b, inWord = ' ', ' ', true
			}
			r = unicode.ToLower(r)
			out = append(out, gram(a)<<42|gram(b)<<21|gram(r))
			a, b = b, r
		} else if inWord {
			out = append(out, gram(a)<<42|gram(b)<<21|gram(' '))
			inWord = false
		}
	}
	if inWord {
		out = append(out, gram(a)<<42|gram(b)<<21|gram(' '))
	}
	return out
}

// set is gs sorted, without repeats.
func set(gs []gram) []gram {
	out := slices.Clone(gs)
	slices.Sort(out)
	return slices.Compact(out)
}

// Inner are the distinct trigrams inside the runs of letters and digits of w: those a trigram
// index finds by substring (pg_trgm's trigrams are of such runs; those padding each word with
// spaces are left out). A trigram across other characters would be no help: PostgreSQL's index
// finds no trigram in "%a!!%" and reads all of itself.
func Inner(w string) []string {
	seen := map[string]bool{}
	var out []string
	for _, run := range strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		r := []rune(run)
		for i := 0; i+3 <= len(r); i++ {
			if t := string(r[i : i+3]); !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
