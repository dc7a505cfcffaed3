package trigram_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lib/pq"

	"github.com/checkoutd/checkoutd/service/servicetest"
	"github.com/checkoutd/checkoutd/service/trigram"
)

// Similarity is pg_trgm's: the shared trigrams of the padded words over all of them.
func TestSimilarityIsPgTrgms(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"Smith", "smiht", 3.0 / 9},
		{"John", "jonh", 2.0 / 8},
		{"word", "word", 1},
		{"", "word", 0},
		{"Smithe", "smith", 5.0 / 8},
	} {
		if got := trigram.Similarity(c.a, c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("similarity(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// WordSimilarity is pg_trgm's word_similarity, as PostgreSQL 15 answers it: the run of the
// text's trigrams most like the word's, as pg_trgm finds it (not always the best run: the last
// two cases), in any case and whatever the characters between words.
func TestWordSimilarityIsPgTrgms(t *testing.T) {
	for _, c := range []struct {
		word, text string
		want       float64
	}{
		{"word", "two words", 0.8},
		{"Smith", "smiht", 0.5},
		{"gren", "Green Tea", 0.6},
		{"oolnog", "Oolong Tea", 0.42857143},
		{"reen", "Green Tea", 0.6},
		{"ree", "Green Tea", 0.25},
		{"tea", "Black Tea", 1},
		{"xqz", "Tea Cup", 0},
		{"", "Tea Cup", 0},
		{"café", "CAFÉ au lait", 1},
		{"grey", "Earl Grey, 100 g", 1},
		{"bcabaac", "bb b abbcabb a caaac", 0.25},
		{"baabacba", "ccc b cabaaabcabacababbbc", 0.30769232},
	} {
		if got := trigram.WordSimilarity(c.word, c.text); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("word_similarity(%q, %q) = %v, want %v", c.word, c.text, got, c.want)
		}
	}
}

// SQLite decides as PostgreSQL does (and the customer search's Sets): on random texts of few letters (so that they share many
// trigrams, and pg_trgm's run is often not the best), and with capitals, accents and
// characters between words, both measures equal pg_trgm's.
func TestBothMeasuresEqualPostgreSQLsOnRandomTexts(t *testing.T) {
	db := servicetest.Postgres(t)
	r := rand.New(rand.NewPCG(3, 4))
	var words, texts []string
	for _, alphabet := range []string{"abcab c", "abcAB c-éÉ1ßΣσς."} {
		letters := []rune(alphabet)
		random := func(n int) string {
			b := make([]rune, n)
			for i := range b {
				b[i] = letters[r.IntN(len(letters))]
			}
			return string(b)
		}
		for range 5000 {
			words, texts = append(words, random(1+r.IntN(10))), append(texts, random(1+r.IntN(60)))
		}
	}
	rows, err := db.SQL.Query("SELECT word_similarity(w, t), similarity(w, t) FROM unnest($1::text[], $2::text[]) AS pairs(w, t)",
		pq.Array(words), pq.Array(texts))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for i := 0; rows.Next(); i++ {
		var ws, s float64
		if err := rows.Scan(&ws, &s); err != nil {
			t.Fatal(err)
		}
		if got := trigram.WordSimilarity(words[i], texts[i]); math.Abs(got-ws) > 1e-6 {
			t.Errorf("word_similarity(%q, %q) = %v, PostgreSQL's %v", words[i], texts[i], got, ws)
		}
		if got := trigram.Similarity(words[i], texts[i]); math.Abs(got-s) > 1e-6 {
			t.Errorf("similarity(%q, %q) = %v, PostgreSQL's %v", words[i], texts[i], got, s)
		}
		if got := trigram.SetOf(words[i]).Similarity(trigram.SetOf(texts[i])); math.Abs(got-s) > 1e-6 {
			t.Errorf("the Sets' similarity(%q, %q) = %v, PostgreSQL's %v", words[i], texts[i], got, s)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}

// Inner's trigrams are those inside the runs of letters and digits, once each: none across
// other characters, none of a run shorter than three.
func TestInnerTrigramsAreThoseOfTheRunsOfLettersAndDigits(t *testing.T) {
	got := trigram.Inner("o'brien-smith1 brie")
	want := []string{"bri", "rie", "ien", "smi", "mit", "ith", "th1"}
	if !slices.Equal(got, want) {
		t.Fatalf("Inner: %q, want %q", got, want)
	}
}
