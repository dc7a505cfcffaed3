package platform_test

import (
	"context"
	"testing"

	"github.com/checkoutd/checkoutd/service/platform"
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

// On PostgreSQL a statement with parameters is prepared once per connection and then runs by
// name; JSON parameters still reach jsonb columns and []byte ones bytea columns intact.
func TestPostgresStatementsArePreparedOncePerConnection(t *testing.T) {
	db := servicetest.Postgres(t)
	ctx := context.Background()
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q = `SELECT $1::jsonb ->> 'a', length($2::bytea)`
	for range 3 {
		var a string
		var n int
		if err := conn.QueryRowContext(ctx, q, []byte(`{"a":"x"}`), []byte{0, 1, 2}).Scan(&a, &n); err != nil || a != "x" || n != 3 {
			t.Fatalf("got %q, %d, %v", a, n, err)
		}
	}
	var prepared int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_prepared_statements WHERE statement = $1`, q).Scan(&prepared); err != nil {
		t.Fatal(err)
	}
	if prepared != 1 {
		t.Fatalf("the statement is prepared %d times on the connection, want 1", prepared)
	}
}

func TestPostgresQueriesToBePlannedWithTheirValuesAreNotPrepared(t *testing.T) {
	db := servicetest.Postgres(t)
	ctx := platform.PlanWithValues(context.Background())
	conn, err := db.SQL.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const q = `SELECT $1::int + 1`
	for range 6 {
		var n int
		if err := conn.QueryRowContext(ctx, q, 41).Scan(&n); err != nil || n != 42 {
			t.Fatalf("got %d, %v", n, err)
		}
	}
	var prepared int
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM pg_prepared_statements WHERE statement = $1`, q).Scan(&prepared); err != nil {
		t.Fatal(err)
	}
	if prepared != 0 {
		t.Fatalf("the statement is prepared %d times on the connection, want none: a prepared statement may be run with a generic plan", prepared)
	}
}
