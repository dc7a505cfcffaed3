package customers_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
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
