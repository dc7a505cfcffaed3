package customers_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/customers"
	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

func searched(t *testing.T, svc *service.Service, sh *ent.Shop, search string) []string {
	t.Helper()
	page, err := svc.Customers.List(context.Background(), sh, url.Values{"search": {search}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range page.Customers {
		out = append(out, c.PlatformID)
	}
	return out
}

// The search index follows every change of a customer: a save, a rename, a delete from the
// store (on SQLite through the FTS5 table's triggers, which a migration rebuilding customers
// would drop).
func TestCustomerSearchIndexFollowsEveryChange(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		in := saved("c1", "2026-11-01T10:00:00Z", "Ada")
		in.LastName = str("Lovelace")
		apply(t, svc, sh, in)
		if got := searched(t, svc, sh, "Lovelase"); len(got) != 1 {
			t.Fatalf("after the save: %v", got)
		}
		renamed := saved("c1", "2026-11-02T10:00:00Z", "Ada")
		renamed.LastName = str("Byron")
		apply(t, svc, sh, renamed)
		if got := searched(t, svc, sh, "Lovelace"); len(got) != 0 {
			t.Fatalf("the old name still found: %v", got)
		}
		if got := searched(t, svc, sh, "Byrom"); len(got) != 1 {
			t.Fatalf("the new name not found: %v", got)
		}
		c := mustGet(t, svc, sh, "c1")
		if err := svc.Client().Customer.DeleteOneID(c.ID).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := searched(t, svc, sh, "Byron"); len(got) != 0 {
			t.Fatalf("a removed customer found: %v", got)
		}
	})
}

// A search's page and total are read by one query: every page of it, reached through next_url,
// previous_url or an offset, in either order, says the total of the whole search and holds its
// rows once.
func TestEveryPageOfASearchCarriesTheWholeSearchsTotal(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		for i, last := range []string{"Smith", "Smyth", "Jones", "Smith", "Smith", "Brown", "Smith", "Smithe", "Smith"} {
			in := saved(fmt.Sprintf("c%d", i), "2026-11-01T10:00:00Z", fmt.Sprintf("Ann%c", 'a'+i))
			in.LastName = str(last)
			apply(t, svc, sh, in)
		}
		// Smith x5, Smithe: six found by "smiht" (Smyth's similarity is under the threshold).
		for _, order := range []url.Values{{}, {"orderby": {"first_name"}, "orderdirection": {"desc"}}} {
			list := func(q url.Values) *customers.Page {
				t.Helper()
				q.Set("search", "Smiht")
				q.Set("limit", "4")
				for k, v := range order {
					q[k] = v
				}
				page, err := svc.Customers.List(context.Background(), sh, q)
				if err != nil {
					t.Fatal(err)
				}
				if page.Pagination.Total != 6 {
					t.Fatalf("%v: total %d, want 6", q, page.Pagination.Total)
				}
				return page
			}
			first := list(url.Values{})
			second := list(first.Pagination.Next)
			if len(first.Customers) != 4 || len(second.Customers) != 2 || second.Pagination.Next != nil {
				t.Fatalf("pages of %d and %d rows", len(first.Customers), len(second.Customers))
			}
			seen := map[string]bool{}
			for _, c := range append(first.Customers, second.Customers...) {
				if seen[c.PlatformID] || !strings.HasPrefix(c.LastName, "Smith") {
					t.Fatalf("%s %s twice or not searched for", c.PlatformID, c.LastName)
				}
				seen[c.PlatformID] = true
			}
			back := list(second.Pagination.Previous)
			byOffset := list(url.Values{"page": {"2"}})
			for i, c := range first.Customers {
				if back.Customers[i].ID != c.ID {
					t.Fatalf("previous_url: %v, want the first page again", back.Customers)
				}
			}
			if len(byOffset.Customers) != 2 || byOffset.Customers[0].ID != second.Customers[0].ID {
				t.Fatalf("page=2: %v", byOffset.Customers)
			}
			// Past the last page no row is read with the total: it is counted.
			past := list(url.Values{"page": {"3"}})
			if len(past.Customers) != 0 {
				t.Fatalf("page 3: %d rows", len(past.Customers))
			}
		}
	})
}

func searchedWith(t *testing.T, svc *service.Service, sh *ent.Shop, q url.Values) []string {
	t.Helper()
	page, err := svc.Customers.List(context.Background(), sh, q)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, c := range page.Customers {
		out = append(out, c.PlatformID)
	}
	return out
}

// Every way of giving the words to the first and the last name finds its customers: both words
// in either order, one word alone in either name; a deleted customer is found only when the
// deleted are listed (its last name alone comes from an index of the deleted).
func TestASearchFindsEachWayOfGivingItsWordsToTheNamesAndTheDeletedOnlyWhenAsked(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		for _, c := range []struct{ id, first, last string }{
			{"c1", "John", "Smith"}, {"c2", "Smith", "Johnson"}, {"c3", "Mary", "Smith"}, {"c4", "Smith", "Jones"}, {"c5", "Ada", "Smith"},
		} {
			in := saved(c.id, "2026-11-01T10:00:00Z", c.first)
			in.LastName = str(c.last)
			apply(t, svc, sh, in)
		}
		apply(t, svc, sh, customers.DeletedInput{PlatformID: "c5", PlatformDeletedAt: "2026-11-02T10:00:00Z"})
		for _, c := range []struct {
			q    url.Values
			want []string
		}{
			{url.Values{"search": {"Johm Smiht"}}, []string{"c1", "c2"}},
			{url.Values{"search": {"smiht"}}, []string{"c1", "c2", "c3", "c4"}},
			{url.Values{"search": {"smiht"}, "include_deleted": {"true"}}, []string{"c1", "c2", "c3", "c4", "c5"}},
			{url.Values{"search": {"ada smith"}}, []string{}},
			{url.Values{"search": {"ada smith"}, "include_deleted": {"true"}}, []string{"c5"}},
			{url.Values{"search": {"mary jones"}}, []string{}},
		} {
			if got := searchedWith(t, svc, sh, c.q); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("%v: %v, want %v", c.q, got, c.want)
			}
		}
	})
}

// A search's total is the number of customers it finds, each once, the deleted only when asked:
// whether its names count their customers by themselves (a search of names alone, nothing else
// conditioning the list) or the list's query counts them, even where the ways of giving its
// words to the names find one customer twice (John Johns: both words alike both names).
func TestASearchsTotalCountsEachCustomerFoundOnceTheDeletedOnlyWhenAsked(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		for _, c := range []struct{ id, first, last string }{
			{"c1", "John", "Johns"}, {"c2", "Johns", "John"}, {"c3", "John", "Smith"}, {"c4", "Johns", "Johns"}, {"c5", "Mary", "Johns"}, {"c6", "John", "Johns"}, {"c7", "Mary", "Smith"},
		} {
			in := saved(c.id, "2026-11-01T10:00:00Z", c.first)
			in.LastName = str(c.last)
			apply(t, svc, sh, in)
		}
		apply(t, svc, sh, customers.DeletedInput{PlatformID: "c6", PlatformDeletedAt: "2026-11-02T10:00:00Z"})
		for _, c := range []struct {
			q    url.Values
			want string
		}{
			// John Smith: both words alike his first name; Mary Johns: both alike her last.
			{url.Values{"search": {"john johns"}}, "[c1 c2 c3 c4 c5]"},
			{url.Values{"search": {"john johns"}, "include_deleted": {"true"}}, "[c1 c2 c3 c4 c5 c6]"},
			{url.Values{"search": {"mary johns"}}, "[c5]"},
			{url.Values{"search": {"smith"}, "include_deleted": {"true"}}, "[c3 c7]"},
		} {
			for _, also := range []url.Values{{}, {"since_id": {"0"}}} {
				q := url.Values{}
				for k, v := range c.q {
					q[k] = v
				}
				for k, v := range also {
					q[k] = v
				}
				page, err := svc.Customers.List(context.Background(), sh, q)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, c := range page.Customers {
					got = append(got, c.PlatformID)
				}
				if fmt.Sprint(got) != c.want || page.Pagination.Total != len(got) {
					t.Errorf("%v: %v of a total of %d, want %s", q, got, page.Pagination.Total, c.want)
				}
			}
		}
	})
}

// A word of letters alone is a name: it is not looked for in emails (a word with a dot or an @
// is, and in phones a word with digits).
func TestAWordOfLettersIsANameAndOtherWordsAreAlsoLookedForInTheEmailAndPhone(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		in := saved("c1", "2026-11-01T10:00:00Z", "Ada")
		in.LastName, in.Email, in.Phone = str("Lovelace"), str("countess@example.org"), str("+15550104242")
		apply(t, svc, sh, in)
		for search, want := range map[string][]string{
			"countess": {}, "countess@": {"c1"}, "example.org": {"c1"}, "0104242": {"c1"}, "lovelase": {"c1"}, "ada 555": {"c1"},
		} {
			if got := searched(t, svc, sh, search); fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("search %q: %v, want %v", search, got, want)
			}
		}
	})
}

// A word inside more names than a search reads is refused with a 400 that says so, not read.
func TestAWordInsideTooManyNamesIsRefused(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, sh *ent.Shop) {
		svc.Customers.LimitNameCandidates(100)
		names := make([]string, 101)
		for i := range names {
			names[i] = fmt.Sprintf("Ann%05d", i)
		}
		if err := svc.Customers.AddNames(context.Background(), names); err != nil {
			t.Fatal(err)
		}
		_, err := svc.Customers.List(context.Background(), sh, url.Values{"search": {"ann"}})
		var pe *problem.Error
		if !errors.As(err, &pe) || pe.Type != "query.invalid" || !strings.Contains(pe.Message, "too many names") {
			t.Fatalf("got %v", err)
		}
	})
}

// On PostgreSQL another process's transaction may commit a name whose id is below one a search
// already read: the next search finds it all the same (the lexicon asks again for the ids it
// has not seen below its last).
func TestANameCommittedBelowOneAlreadyReadIsFoundByTheNextSearch(t *testing.T) {
	t.Parallel()
	db := servicetest.Postgres(t)
	svc := service.New(db)
	ctx := context.Background()
	if err := svc.Customers.AddNames(ctx, []string{"Quincy"}); err != nil {
		t.Fatal(err)
	}
	if got := firstNamesAlike(t, svc, "Quincy"); !slices.Equal(got, []string{"Quincy"}) {
		t.Fatalf("Quincy: %v", got)
	}
	// Another process takes the next id, and commits after a higher one was read.
	tx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(`INSERT INTO customer_names (kind, name) VALUES ('first', 'Zebediah')`); err != nil {
		t.Fatal(err)
	}
	if err := svc.Customers.AddNames(ctx, []string{"Cornelius"}); err != nil {
		t.Fatal(err)
	}
	if got := firstNamesAlike(t, svc, "Cornelius"); !slices.Equal(got, []string{"Cornelius"}) {
		t.Fatalf("Cornelius: %v", got)
	}
	if got := firstNamesAlike(t, svc, "Zebediah"); len(got) != 0 {
		t.Fatalf("an uncommitted name found: %v", got)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := firstNamesAlike(t, svc, "Zebediah"); !slices.Equal(got, []string{"Zebediah"}) {
		t.Fatalf("the name committed below Cornelius's id: %v", got)
	}
}

func firstNamesAlike(t *testing.T, svc *service.Service, word string) []string {
	t.Helper()
	got, err := svc.Customers.FirstNamesAlike(context.Background(), word)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// Ids far below the last read are not asked for again (they were never used: a transaction
// holds the ids it takes near the sequence's end), so that a lexicon read after years of gaps
// does not ask for each of them with every search.
func TestOnlyIdsMissingNearTheLastAreAskedForAgain(t *testing.T) {
	eachStore(t, func(t *testing.T, svc *service.Service, _ *ent.Shop) {
		ctx := context.Background()
		if err := svc.Customers.AddNames(ctx, []string{"Quincy"}); err != nil {
			t.Fatal(err)
		}
		firstNamesAlike(t, svc, "Quincy")
		if _, err := svc.Client().ExecContext(ctx, `INSERT INTO customer_names (id, kind, name) VALUES (100000, 'first', 'Cornelius')`); err != nil {
			t.Fatal(err)
		}
		if got := firstNamesAlike(t, svc, "Cornelius"); !slices.Equal(got, []string{"Cornelius"}) {
			t.Fatalf("Cornelius: %v", got)
		}
		if got := svc.Customers.LexiconGaps(); got != 1000 {
			t.Fatalf("%d ids asked for again, want the 1,000 below the last", got)
		}
		if _, err := svc.Client().ExecContext(ctx, `INSERT INTO customer_names (id, kind, name) VALUES (99990, 'first', 'Zebediah')`); err != nil {
			t.Fatal(err)
		}
		if got := firstNamesAlike(t, svc, "Zebediah"); !slices.Equal(got, []string{"Zebediah"}) {
			t.Fatalf("a name of a missing id near the last: %v", got)
		}
		if got := svc.Customers.LexiconGaps(); got != 999 {
			t.Fatalf("%d ids asked for again after one came, want 999", got)
		}
	})
}
