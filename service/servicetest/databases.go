// Package servicetest runs tests on every database checkoutd supports: the embedded SQLite and,
// where reachable, PostgreSQL (required under CI=true).
package servicetest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/checkoutd/checkoutd/service/platform"
	_ "github.com/lib/pq"
)

// DefaultPostgres is used when CHECKOUT_TEST_POSTGRES is unset.
const DefaultPostgres = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

var (
	pgOnce  sync.Once
	pgError error
)

func postgresURL() string {
	if u := os.Getenv("CHECKOUT_TEST_POSTGRES"); u != "" {
		return u
	}
	return DefaultPostgres
}

func postgresReachable() error {
	pgOnce.Do(func() {
		db, err := sql.Open("postgres", postgresURL())
		if err == nil {
			err = db.Ping()
			db.Close()
		}
		pgError = err
	})
	return pgError
}

// Each runs fn as a subtest on a fresh, migrated SQLite database and on a fresh, migrated
// PostgreSQL schema.
func Each(t *testing.T, fn func(t *testing.T, db *platform.Database)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite returns a migrated database in a file under the test's temp dir: a copy of a database
// migrated once per test binary. Under the race detector migrating takes about half a second
// (the pure-Go SQLite is instrumented too), writing the copy a few milliseconds.
func SQLite(t testing.TB) *platform.Database {
	t.Helper()
	UseSecretKey()
	file, err := migratedSQLiteFile()
	if err != nil {
		t.Fatalf("migrate: %v", err)
	}
	path := filepath.Join(t.TempDir(), "checkout.db")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	db, err := platform.OpenDatabase("file:" + path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

var (
	sqliteOnce     sync.Once
	sqliteMigrated []byte
	sqliteError    error
)

// migratedSQLiteFile is the content of a newly migrated SQLite database file, its write-ahead log
// copied into it.
func migratedSQLiteFile() ([]byte, error) {
	sqliteOnce.Do(func() {
		sqliteMigrated, sqliteError = migrateSQLiteFile()
	})
	return sqliteMigrated, sqliteError
}

func migrateSQLiteFile() ([]byte, error) {
	dir, err := os.MkdirTemp("", "checkoutd-migrated-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "checkout.db")
	db, err := platform.OpenDatabase("file:" + path)
	if err != nil {
		return nil, err
	}
	err = db.Migrate(context.Background())
	if err == nil {
		_, err = db.SQL.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	}
	if closeErr := db.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// Postgres returns a migrated database in a schema of its own, dropped after the test. It skips
// when PostgreSQL is unreachable, except under CI=true, where that is a failure.
func Postgres(t testing.TB) *platform.Database {
	t.Helper()
	UseSecretKey()
	u := PostgresURL(t)
	db, err := platform.OpenDatabase(u)
	if err != nil {
		t.Fatal(err)
	}
	urls.Store(db, u)
	return migrated(t, db)
}

// urls are the URLs of the PostgreSQL databases opened by Postgres.
var urls sync.Map

// URLOf is the URL of a database of Postgres.
func URLOf(t testing.TB, db *platform.Database) string {
	t.Helper()
	u, ok := urls.Load(db)
	if !ok {
		t.Fatal("URLOf: not a database of servicetest.Postgres")
	}
	return u.(string)
}

// AnotherProcess opens db's PostgreSQL schema again, as a second checkoutd process on it would
// (its own connections, holds and locks), closed after the test.
func AnotherProcess(t testing.TB, db *platform.Database) *platform.Database {
	t.Helper()
	other, err := platform.OpenDatabase(URLOf(t, db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return other
}

// PostgresURL creates an empty schema of the test's own, dropped after it, and returns a URL
// whose connections use it (for tests that run checkoutd as a process). It skips when
// PostgreSQL is unreachable, except under CI=true.
func PostgresURL(t testing.TB) string {
	t.Helper()
	if err := postgresReachable(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("PostgreSQL at %s is unreachable under CI: %v", postgresURL(), err)
		}
		t.Skipf("PostgreSQL unreachable (%v); set CHECKOUT_TEST_POSTGRES to run these tests on it", err)
	}
	admin, err := sql.Open("postgres", postgresURL())
	if err != nil {
		t.Fatal(err)
	}
	schema := fmt.Sprintf("checkoutd_test_%d", rand.Uint64())
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		admin.Close()
	})
	u, err := url.Parse(postgresURL())
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	// public holds the extensions the migrations create once per database (pg_trgm).
	q.Set("search_path", schema+",public")
	// Tests need no durability across a crash of PostgreSQL itself: commits do not wait for the
	// WAL flush, which is most of a test's time on a slow disk. Locking and visibility, what the
	// tests check, are unchanged.
	q.Set("synchronous_commit", "off")
	u.RawQuery = q.Encode()
	return u.String()
}

func migrated(t testing.TB, db *platform.Database) *platform.Database {
	t.Helper()
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return db
}
