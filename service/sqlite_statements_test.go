package service_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/servicetest"
)

// The same statement run again while rows of its first run are still open (one connection,
// one transaction) gets a statement of its own: the cached one is not reset under the reader.
func TestACachedStatementInUseIsNotReusedUnderItsReader(t *testing.T) {
	db := servicetest.SQLite(t)
	ctx := context.Background()
	tx, err := db.SQL.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const q = `SELECT value FROM json_each('[1,2,3]') WHERE value >= ?`
	outer, err := tx.QueryContext(ctx, q, 1)
	if err != nil {
		t.Fatal(err)
	}
	var sum, inner int
	for outer.Next() {
		var v int
		if err := outer.Scan(&v); err != nil {
			t.Fatal(err)
		}
		sum += v
		if err := tx.QueryRowContext(ctx, q, 3).Scan(&inner); err != nil {
			t.Fatal(err)
		}
	}
	if err := outer.Close(); err != nil {
		t.Fatal(err)
	}
	if sum != 6 || inner != 3 {
		t.Fatalf("outer rows summed %d (want 6), inner %d (want 3)", sum, inner)
	}
	for range 3 { // and the cached statement serves again once released
		var n int
		if err := tx.QueryRowContext(ctx, q, 2).Scan(&n); err != nil || n != 2 {
			t.Fatalf("reuse: %d, %v", n, err)
		}
	}
}
