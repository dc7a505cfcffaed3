// Package migrations embeds the versioned SQL migrations of each dialect and applies them with
// goose, then brings the job queue's own tables (River's) to the version the binary expects.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"entgo.io/ent/dialect"
	"github.com/pressly/goose/v3"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

//go:embed sqlite/*.sql postgres/*.sql
var files embed.FS

// Apply runs every pending migration of the dialect on db.
func Apply(ctx context.Context, db *sql.DB, dialectName string) error {
	return ApplyTo(ctx, db, dialectName, 0)
}

// ApplyTo runs the pending migrations up to version (0: all of them).
//
// SQLite alters a table by rebuilding it (create new, copy, drop old, rename). With foreign
// keys on, dropping the old table would cascade-delete every row that references it, and the
// "PRAGMA foreign_keys = off" in the generated file is a no-op inside goose's transaction. So
// foreign keys are switched off on the connection around the run (SQLite's documented
// procedure for schema changes) and checked before they are switched back on. The service
// opens SQLite with a single connection, so the pragma holds for every migration.
func ApplyTo(ctx context.Context, db *sql.DB, dialectName string, version int64) error {
	if dialectName == dialect.SQLite {
		if _, err := db.ExecContext(ctx, "PRAGMA foreign_keys = off"); err != nil {
			return err
		}
		defer db.ExecContext(context.WithoutCancel(ctx), "PRAGMA foreign_keys = on")
		if err := apply(ctx, db, dialectName, version); err != nil {
			return err
		}
		rows, err := db.QueryContext(ctx, "PRAGMA foreign_key_check")
		if err != nil {
			return err
		}
		defer rows.Close()
		if rows.Next() {
			return fmt.Errorf("migrations: foreign key violations after migrating")
		}
		return rows.Err()
	}
	// Two processes starting on one PostgreSQL would otherwise both apply the same migration.
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	// The lock is per schema: processes sharing a schema migrate one at a time, while databases
	// in separate schemas of one server (the tests') migrate side by side.
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1, hashtext(current_schema()))", migrationLockKey); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1, hashtext(current_schema()))", migrationLockKey)
	return apply(ctx, db, dialectName, version)
}

// migrationLockKey names the PostgreSQL advisory lock held while migrating; any number no
// other lock user of the database picks will do.
const migrationLockKey int32 = 0x636b6f75 // "ckou"

func apply(ctx context.Context, db *sql.DB, dialectName string, version int64) error {
	var (
		dir string
		gd  goose.Dialect
	)
	switch dialectName {
	case dialect.SQLite:
		dir, gd = "sqlite", goose.DialectSQLite3
	case dialect.Postgres:
		dir, gd = "postgres", goose.DialectPostgres
	default:
		return fmt.Errorf("migrations: unsupported dialect %q", dialectName)
	}
	sub, err := fs.Sub(files, dir)
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(gd, db, sub)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if version > 0 {
		_, err = p.UpTo(ctx, version)
	} else {
		_, err = p.Up(ctx)
	}
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return applyQueue(ctx, db, dialectName)
}

// applyQueue runs River's own migrations for its tables (river_job and the rest). They are
// River's, versioned by River in river_migration, and kept out of the ent schema's diff.
func applyQueue(ctx context.Context, db *sql.DB, dialectName string) error {
	var err error
	if dialectName == dialect.SQLite {
		err = migrateQueue(ctx, riversqlite.New(db))
	} else {
		err = migrateQueue(ctx, riverdatabasesql.New(db))
	}
	if err != nil {
		return fmt.Errorf("migrations: job queue: %w", err)
	}
	return nil
}

func migrateQueue[TTx any](ctx context.Context, driver riverdriver.Driver[TTx]) error {
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return err
	}
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}
