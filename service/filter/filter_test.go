package filter_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/service/filter"
	"github.com/checkoutd/checkoutd/service/problem"
)

// productColumns is the allowlist of the tests' resource, the catalog's products.
var productColumns = filter.Columns{
	"id":         filter.Int("id"),
	"title":      filter.Text("title"),
	"vendor":     filter.Text("vendor"),
	"gift_card":  filter.Bool("gift_card"),
	"created_at": filter.Time("created_at"),
	"updated_at": filter.Time("platform_updated_at"),
}

// refused parses params and wants a filter.invalid 400 whose message contains want.
func refused(t *testing.T, want string, params ...string) {
	t.Helper()
	_, err := filter.Parse(params, productColumns)
	if err == nil {
		t.Fatalf("%q was accepted", params)
	}
	p, ok := problem.As(err)
	if !ok {
		t.Fatalf("%q: %v is not a problem", params, err)
	}
	if p.Kind != problem.Malformed || p.Code != problem.CodeBadRequest || p.Type != "filter.invalid" || p.Details["field"] != "filter" {
		t.Fatalf("%q: refused as %+v", params, p)
	}
	if !strings.Contains(p.Message, want) {
		t.Fatalf("%q: message %q does not say %q", params, p.Message, want)
	}
}

// rendered is the filter as SQLite's SQL and its arguments.
func rendered(t *testing.T, params ...string) (string, []any) {
	t.Helper()
	f, err := filter.Parse(params, productColumns)
	if err != nil {
		t.Fatalf("%q: %v", params, err)
	}
	s := sql.Dialect(dialect.SQLite).Select("*").From(sql.Table("products"))
	f.Predicate()(s)
	return s.Query()
}

func TestAnUnknownColumnIsRefusedNamingTheAllowedOnes(t *testing.T) {
	refused(t, `unknown column "colour" (columns: created_at, gift_card, id, title, updated_at, vendor)`, "eq(colour:red)")
}

func TestAnUnknownOperatorIsRefusedNamingTheOperators(t *testing.T) {
	refused(t, `unknown operator "foo" (operators: eq, neq, gt, gte, lt, lte, like, nlike, in, nin)`, "foo(title:x)")
	refused(t, `unknown operator "EQ"`, "EQ(title:x)")
}

func TestAValueOfTheWrongTypeIsRefused(t *testing.T) {
	refused(t, `value "abc" of column id is not a whole number`, "eq(id:abc)")
	refused(t, `value "1.5" of column id is not a whole number`, "gt(id:1.5)")
	refused(t, `value "9223372036854775808" of column id is out of range`, "eq(id:9223372036854775808)")
	refused(t, `value "yes" of column gift_card is not true or false`, "eq(gift_card:yes)")
	refused(t, `value "yesterday" of column created_at is not an RFC 3339 time`, "gt(created_at:yesterday)")
	refused(t, `value "2024-02-30" of column created_at is not a date (YYYY-MM-DD)`, "eq(created_at:2024-02-30)")
	refused(t, `value "abc" of column id is not a whole number`, "in(id:1, abc)")
}

func TestAnOperatorAppliesOnlyToColumnsOfItsTypes(t *testing.T) {
	refused(t, "operator like does not apply to column id (a whole number)", "like(id:1*)")
	refused(t, "operator nlike does not apply to column created_at (a time)", "nlike(created_at:2024*)")
	refused(t, "operator gt does not apply to column gift_card (true or false)", "gt(gift_card:false)")
}

func TestUnbalancedParenthesesAreRefused(t *testing.T) {
	refused(t, `unbalanced parentheses: "(" at byte 2 is not closed`, "eq(title:x")
	refused(t, `unbalanced parentheses: "(" at byte 2 is not closed`, "in(title:x,y")
	refused(t, `unbalanced parentheses: ")" at byte 11 has no "("`, "eq(title:x))")
	refused(t, `unbalanced parentheses: ")" at byte 0 has no "("`, ")eq(title:x)")
	refused(t, `unbalanced parentheses: "(" at byte 3 inside the condition opened at byte 2`, "eq((title:x))")
	refused(t, `unbalanced parentheses: "(" at byte 10 inside a value (write it %28)`, "eq(title:a(b)")
}

func TestAConditionNeedsAnOperatorAColumnAndAValue(t *testing.T) {
	refused(t, `condition eq( at byte 2 has no ":" between column and value`, "eq(title)")
	refused(t, `missing operator before "(" at byte 0`, "(title:x)")
	refused(t, "expected ( after operator eq", "eq")
	refused(t, "expected ( after operator eq", "eq title:x")
}

func TestAnEmptyFilterIsRefused(t *testing.T) {
	refused(t, "empty filter", "")
	refused(t, "empty filter", "   ")
	refused(t, "empty filter", "eq(title:x)", "")
}

func TestConditionsAreJoinedByOnePlus(t *testing.T) {
	refused(t, "filter ends with +", "eq(title:x)+")
	refused(t, "empty condition at byte 0", "+eq(title:x)")
	refused(t, "empty condition at byte 12", "eq(title:x)++eq(title:y)")
	refused(t, `expected + after the condition ending at byte 11, found "eq(title:y)"`, "eq(title:x)eq(title:y)")
}

// The query string decodes an unencoded + to a space: a space joins conditions as a + does.
func TestASpaceJoinsConditionsAsAPlusDoes(t *testing.T) {
	plus, plusArgs := rendered(t, "eq(title:x)+eq(vendor:y)")
	for _, spaced := range []string{"eq(title:x) eq(vendor:y)", "eq(title:x) + eq(vendor:y)", " eq(title:x)  eq(vendor:y) "} {
		if q, args := rendered(t, spaced); q != plus || fmt.Sprint(args) != fmt.Sprint(plusArgs) {
			t.Fatalf("%q is %s %v, not %s %v", spaced, q, args, plus, plusArgs)
		}
	}
}

func TestEveryFilterParameterIsANDed(t *testing.T) {
	q, args := rendered(t, "eq(title:x)", "eq(vendor:y)+eq(id:3)")
	want := "SELECT * FROM `products` WHERE (`products`.`title` = ?) AND (`products`.`vendor` = ?) AND (`products`.`id` = ?)"
	if q != want || fmt.Sprint(args) != "[x y 3]" {
		t.Fatalf("%s %v", q, args)
	}
}

// The caller's own predicates (the shop's scope) hold whatever the filter says.
func TestAFilterIsOneGroupAmongTheCallersPredicates(t *testing.T) {
	f, err := filter.Parse([]string{"neq(vendor:x)"}, productColumns)
	if err != nil {
		t.Fatal(err)
	}
	s := sql.Dialect(dialect.Postgres).Select("*").From(sql.Table("products"))
	s.Where(sql.EQ(s.C("shop_id"), 1))
	f.Predicate()(s)
	q, _ := s.Query()
	want := `SELECT * FROM "products" WHERE "products"."shop_id" = $1 AND ((NOT ("products"."vendor" = $2)) OR ("products"."vendor" IS NULL))`
	if q != want {
		t.Fatalf("%s\nwant %s", q, want)
	}
}

func TestNoFilterParameterKeepsEveryRow(t *testing.T) {
	if q, _ := rendered(t); q != "SELECT * FROM `products`" {
		t.Fatal(q)
	}
}

// Values are URL-decoded once more after the grammar's split, so that they can hold its
// delimiters; spaces around a value are dropped (lists are written `a, b`).
func TestValuesAreURLDecodedAfterTheSplit(t *testing.T) {
	for filter, want := range map[string]string{
		"in(title:a%2Cb, c%29 ,d)": "[a,b c) d]",
		"eq(title:a+b)":            "[a+b]",
		"eq(title:a%2Bb)":          "[a+b]",
		"eq(title:a%3Ab:c)":        "[a:b:c]",
		"eq(title:%20padded%20)":   "[ padded ]",
		"eq(title:caf%C3%A9)":      "[café]",
		"eq(title:)":               "[]",
	} {
		if _, args := rendered(t, filter); fmt.Sprint(args) != want {
			t.Errorf("%s: values %v, want %s", filter, args, want)
		}
	}
	refused(t, `value "100%" of column title is not URL-encoded correctly (a literal % is written %25)`, "eq(title:100%)")
	refused(t, "value of column title is not UTF-8 text", "eq(title:%FF)")
	refused(t, "value of column title contains a NUL character", "eq(title:a%00)")
}

// In like and nlike, * is the only wildcard: % _ and \ match themselves.
func TestLikeWildcardsAreStarsAndEverythingElseMatchesItself(t *testing.T) {
	for filter, want := range map[string]string{
		"like(title:red*)":         `red%`,
		"nlike(title:*shirt)":      `%shirt`,
		"like(title:*a*b*)":        `%a%b%`,
		"like(title:100%25_off\\)": `100\%\_off\\`,
	} {
		if _, args := rendered(t, filter); len(args) != 2 || args[0] != want || args[1] != `\` {
			t.Errorf("%s: arguments %q, want pattern %q escaped by \\", filter, args, want)
		}
	}
}

func TestBoundsAreRefusedNamingThem(t *testing.T) {
	cond := "eq(id:1)"
	refused(t, "filter has more than 20 conditions", strings.Repeat(cond+"+", 20)+cond)
	refused(t, "filter has more than 20 conditions", strings.Repeat(cond+"+", 10)+cond, strings.Repeat(cond+"+", 9)+cond)
	refused(t, "in(id:...) has more than 100 values", "in(id:"+strings.Repeat("1,", 100)+"1)")
	refused(t, "value of column title is longer than 255 bytes", "eq(title:"+strings.Repeat("a", 256)+")")
	refused(t, "value of column title is longer than 255 bytes", "eq(title:"+strings.Repeat("%41", 256)+")")
	refused(t, "filter is longer than 4096 bytes", "eq(title:x)", "eq(title:"+strings.Repeat("a", 4096-len("eq(title:x)")-len("eq(title:)")+1)+")")
	refused(t, "value of column title has 5 wildcards (*), more than 4", "like(title:*a*b*c*d*)")

	rendered(t, strings.Repeat(cond+"+", 19)+cond)
	rendered(t, "in(id:"+strings.Repeat("1,", 99)+"1)")
	rendered(t, "eq(title:"+strings.Repeat("a", 255)+")")
	rendered(t, "like(title:*a*b*c*)")
}

func TestAMessageQuotesAtMost40BytesOfTheFilter(t *testing.T) {
	refused(t, `unknown operator "`+strings.Repeat("x", 40)+`..."`, strings.Repeat("x", 100)+"(title:y)")
}

func TestBooleansAreTrueOrFalseOrOneOrZero(t *testing.T) {
	if _, args := rendered(t, "in(gift_card:true, FALSE, 1, 0)"); fmt.Sprint(args) != "[true false true false]" {
		t.Fatal(args)
	}
}

// A time in any offset is the instant it names, compared in UTC; a date is its whole UTC day.
func TestTimesAreInstantsInUTCAndDatesAreDays(t *testing.T) {
	at := time.Date(2024, 3, 2, 4, 30, 0, 0, time.UTC)
	day, next := time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC), time.Date(2024, 3, 3, 0, 0, 0, 0, time.UTC)
	for filter, want := range map[string][]time.Time{
		"eq(created_at:2024-03-01T23:30:00-05:00)":   {at},
		"eq(created_at:2024-03-02T06:30:00%2B02:00)": {at},
		"eq(created_at:2024-03-02T06:30:00+02:00)":   {at},
		// What an unencoded + of the query string becomes.
		"eq(created_at:2024-03-02T06:30:00 02:00)": {at},
		"eq(created_at:2024-03-02T04:30:00Z)":      {at},
		"eq(created_at:2024-03-02)":                {day, next},
		"gt(created_at:2024-03-02)":                {next},
		"gte(created_at:2024-03-02)":               {day},
		"lt(created_at:2024-03-02)":                {day},
		"lte(created_at:2024-03-02)":               {next},
	} {
		_, args := rendered(t, filter)
		if len(args) != len(want) {
			t.Fatalf("%s: arguments %v", filter, args)
		}
		for i, a := range args {
			if tm, ok := a.(time.Time); !ok || !tm.Equal(want[i]) || tm.Location() != time.UTC {
				t.Errorf("%s: argument %v, want %v in UTC", filter, a, want[i])
			}
		}
	}
}
