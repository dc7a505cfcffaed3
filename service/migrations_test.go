package service_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"entgo.io/ent/dialect/sql/schema"

	"github.com/checkoutd/checkoutd/ent/migrate/migrations"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/servicetest"
)

func TestCommittedMigrationsMatchTheEntSchema(t *testing.T) {
	servicetest.Each(t, func(t *testing.T, db *platform.Database) {
		var buf bytes.Buffer
		if err := db.Client.Schema.WriteTo(context.Background(), &buf, schema.WithDropColumn(true), schema.WithDropIndex(true)); err != nil {
			t.Fatal(err)
		}
		var pending []string
		for _, line := range strings.Split(buf.String(), "\n") {
			l := strings.TrimSpace(line)
			if l == "" || l == "BEGIN;" || l == "COMMIT;" || strings.HasPrefix(l, "--") {
				continue
			}
			pending = append(pending, l)
		}
		if len(pending) > 0 {
			t.Fatalf("the ent schema differs from the committed migrations; run make generate. Pending:\n%s", strings.Join(pending, "\n"))
		}
	})
}

// A migration that rebuilds a SQLite table (shops gained a column after orders existed) must
// keep every row that references it.
func TestMigrationsKeepRowsThatReferenceARebuiltTable(t *testing.T) {
	ctx := context.Background()
	db, err := platform.OpenDatabase("file:" + filepath.Join(t.TempDir(), "upgrade.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const beforeCheckoutPayments = 20261123164003
	if err := migrations.ApplyTo(ctx, db.SQL, db.Dialect, beforeCheckoutPayments); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO shops (id, created_at, updated_at, identifier, jwt_key) VALUES (1, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'old-shop', x'00')`,
		`INSERT INTO cors_domains (created_at, updated_at, domain, shop_id) VALUES (CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'https://old.example', 1)`,
	} {
		if _, err := db.SQL.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.SQL.QueryRowContext(ctx, `SELECT count(*) FROM cors_domains WHERE shop_id = 1`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d CORS domains of the shop survived the migration, want 1", n)
	}
	var fk int
	if err := db.SQL.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign keys are %d after migrating (%v), want on", fk, err)
	}
}
