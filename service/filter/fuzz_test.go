package filter_test

import (
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/problem"
)

var seeds = []string{
	"eq(title:x)",
	"neq(vendor:Acme)+gt(id:3)",
	"in(id:1, 2,3)",
	"nin(gift_card:true,0)",
	"like(title:*a*b%25_\\*)",
	"nlike(title:*shirt)",
	"gte(created_at:2024-03-02)+lte(updated_at:2024-03-02T06:30:00%2B02:00)",
	"lt(created_at:2024-03-02T06:30:00 02:00) eq(title:a%2Cb)",
	"eq(title:x",
	"eq(title:x))",
	"eq((title:x))",
	"eq(title:a(b)",
	"foo(bar:baz)",
	"eq(title:%zz)",
	"eq(title:%FF%00)",
	"+",
	"",
	"eq(created_at:2024-02-30)",
	"in(created_at:2024-01-01,2024-01-01T00:00:00.999999999Z)",
	"eq(id:-9223372036854775808)",
}

// adversarial are inputs of the largest size taken, shaped to make a careless parser backtrack,
// nest or allocate per byte.
func adversarial() []string {
	const n = filter.MaxLength
	return []string{
		strings.Repeat("(", n),
		strings.Repeat(")", n),
		strings.Repeat("+", n),
		strings.Repeat(" ", n),
		strings.Repeat("eq(id:1)+", n/9+1)[:n],
		strings.Repeat("eq(id:1) ", n/9+1)[:n],
		"eq(" + strings.Repeat("a", n-6) + ":1)",
		strings.Repeat("a", n-2) + "()",
		"in(id:" + strings.Repeat("1,", (n-8)/2) + ")",
		"in(title:" + strings.Repeat(",", n-11) + ")",
		"eq(title:" + strings.Repeat("%41", (n-10)/3) + ")",
		"eq(title:" + strings.Repeat(":", n-10) + ")",
		"like(title:" + strings.Repeat("*", n-12) + ")",
		"eq(created_at:" + strings.Repeat("9", n-15) + ")",
		"eq(title:" + strings.Repeat("\xff", n-10) + ")",
		// Accepted: 19 lists of 100 values, 3,932 bytes.
		strings.Repeat("in(id:"+strings.Repeat("1,", 99)+"1)+", 18) + "in(id:" + strings.Repeat("1,", 99) + "1)",
	}
}

// FuzzParse: whatever the filter, Parse answers a filter or a filter.invalid problem, never
// panics, and a filter it accepts renders as SQL on both dialects. The seeds are short: the
// fuzzer minimizes every new input it finds interesting, which takes up to a minute for one of
// 4 KiB (the adversarial inputs are TestAFilterOfTheLargestSizeIsReadInAFewMilliseconds's).
func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check(t, []string{s})
		check(t, strings.Split(s, "&"))
	})
}

// check parses params and wants a refusal whose message stays short (it quotes at most 40 bytes
// of the filter, which %q may write 4 characters a byte) or a filter that renders.
func check(t *testing.T, params []string) {
	t.Helper()
	parsed, err := filter.Parse(params, productColumns)
	if err != nil {
		p, ok := problem.As(err)
		if !ok || p.Type != "filter.invalid" || p.Kind != problem.Malformed || p.Message == "" || len(p.Message) > 400 {
			t.Fatalf("%q: refused with %v", params, err)
		}
		return
	}
	for _, d := range []string{dialect.SQLite, dialect.Postgres} {
		s := sql.Dialect(d).Select("*").From(sql.Table("products"))
		parsed.Predicate()(s)
		if _, args := s.Query(); len(args) > filter.MaxConditions*filter.MaxValues*2+filter.MaxConditions*2 {
			t.Fatalf("%q: %d arguments", params, len(args))
		}
	}
}

func TestTheSeedsAnswerAFilterOrARefusal(t *testing.T) {
	for _, s := range append(seeds, adversarial()...) {
		check(t, []string{s})
	}
}

// The parser is linear: a filter of the largest size, however shaped, is read or refused in
// well under a millisecond on an idle machine; the bound leaves room for a busy one.
func TestAFilterOfTheLargestSizeIsReadInAFewMilliseconds(t *testing.T) {
	for _, s := range adversarial() {
		if len(s) > filter.MaxLength {
			t.Fatalf("adversarial input of %d bytes", len(s))
		}
		best := time.Hour
		for range 5 {
			start := time.Now()
			filter.Parse([]string{s}, productColumns)
			best = min(best, time.Since(start))
		}
		if best > 5*time.Millisecond {
			t.Errorf("%.20q... took %v", s, best)
		}
	}
}
