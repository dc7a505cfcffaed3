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
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return nil
}
