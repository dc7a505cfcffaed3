// Package migrations embeds the versioned SQL migrations of each dialect and applies them with goose.
package migrations

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"

	"entgo.io/ent/dialect"
	"github.com/pressly/goose/v3"
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
	return apply(ctx, db, dialectName, version)
}

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
	return nil
}
