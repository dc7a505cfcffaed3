// Command gen writes the SQL migrations that bring each dialect's database to the ent schema.
// It replays the committed migrations on a scratch database and diffs them against the schema,
// so it writes a file only when the schema changed. Usage: go run ./ent/migrate/gen NAME.
// go run ./ent/migrate/gen -rehash rewrites each directory's atlas.sum instead: after adding a
// migration written by hand (docs/architecture.md "Migrations").
package main

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"math/rand/v2"
	"net/url"
	"os"

	atlasmigrate "ariga.io/atlas/sql/migrate"
	"ariga.io/atlas/sql/sqltool"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql/schema"
	_ "github.com/lib/pq"
	"modernc.org/sqlite"

	"github.com/checkoutd/checkoutd/ent/migrate"
)

func main() {
	if len(os.Args) != 2 {
		log.Fatal("usage: gen NAME")
	}
	name := os.Args[1]
	if name == "-rehash" {
		for _, dir := range []string{"ent/migrate/migrations/sqlite", "ent/migrate/migrations/postgres"} {
			if err := rehash(dir); err != nil {
				log.Fatalf("%s: %v", dir, err)
			}
		}
		return
	}
	ctx := context.Background()
	// Atlas opens SQLite dev databases through the "sqlite3" driver name.
	sql.Register("sqlite3", &sqlite.Driver{})
	if err := diff(ctx, "ent/migrate/migrations/sqlite", dialect.SQLite, "sqlite://dev?mode=memory&_pragma=foreign_keys(1)", name); err != nil {
		log.Fatalf("sqlite: %v", err)
	}
	pgURL := os.Getenv("CHECKOUT_TEST_POSTGRES")
	if pgURL == "" {
		pgURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	devURL, cleanup, err := scratchPostgres(ctx, pgURL)
	if err != nil {
		log.Fatalf("postgres scratch database: %v", err)
	}
	defer cleanup()
	if err := diff(ctx, "ent/migrate/migrations/postgres", dialect.Postgres, devURL, name); err != nil {
		cleanup()
		log.Fatalf("postgres: %v", err)
	}
}

func diff(ctx context.Context, dir, dialectName, devURL, name string) error {
	d, err := sqltool.NewGooseDir(dir)
	if err != nil {
		return err
	}
	return migrate.NamedDiff(ctx, devURL, name,
		schema.WithDir(d),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(dialectName),
		schema.WithFormatter(sqltool.GooseFormatter),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
	)
}

// rehash rewrites dir's atlas.sum from its files.
func rehash(dir string) error {
	d, err := sqltool.NewGooseDir(dir)
	if err != nil {
		return err
	}
	sum, err := d.Checksum()
	if err != nil {
		return err
	}
	return atlasmigrate.WriteSumFile(d, sum)
}

// scratchPostgres creates an empty database to replay migrations on, and a func that drops it.
func scratchPostgres(ctx context.Context, pgURL string) (string, func(), error) {
	db, err := sql.Open("postgres", pgURL)
	if err != nil {
		return "", nil, err
	}
	dbName := fmt.Sprintf("checkoutd_migrate_dev_%d", rand.Uint32())
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+dbName); err != nil {
		return "", nil, err
	}
	u, err := url.Parse(pgURL)
	if err != nil {
		return "", nil, err
	}
	u.Path = "/" + dbName
	q := u.Query()
	q.Set("search_path", "public")
	u.RawQuery = q.Encode()
	return u.String(), func() {
		_, _ = db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+dbName+" WITH (FORCE)")
		_ = db.Close()
	}, nil
}
