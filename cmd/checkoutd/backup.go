package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/checkoutd/checkoutd/service/platform"
)

// backupCmd copies the embedded database while checkoutd serves from it.
type backupCmd struct {
	To string `required:"" placeholder:"FILE" help:"File to write the copy to; it must not exist."`
}

func (backupCmd) Help() string {
	return "The copy holds everything committed when the backup began, and serve can go on meanwhile. To restore it, stop checkoutd, move the database file and its -wal and -shm files away, put the copy in the database file's place, and start checkoutd. PostgreSQL is backed up with pg_dump instead."
}

func (c backupCmd) Run(ctx context.Context, cfg *config) error {
	if !cfg.sqlite() {
		// Nothing to attempt: the command does not apply to this configuration, as a bad flag would not.
		return usageError{errors.New("backup copies the embedded SQLite database; back PostgreSQL up with pg_dump (docs/operations.md, Backups)")}
	}
	began := time.Now()
	db, err := platform.OpenDatabase(existingOnly(cfg.DatabaseURL))
	if err != nil {
		return fmt.Errorf("no database to back up at %s: %w", cfg.DatabaseURL, err)
	}
	defer db.Close()
	if err := db.Backup(ctx, c.To); err != nil {
		return err
	}
	var size int64
	if fi, err := os.Stat(c.To); err == nil {
		size = fi.Size()
	}
	slog.Info("backup written", "to", c.To, "bytes", size, "took", time.Since(began).Round(time.Millisecond))
	return nil
}

// existingOnly opens an SQLite database without creating it: a mistyped path is an error, not
// the backup of a new empty database.
func existingOnly(fileURL string) string {
	if strings.Contains(fileURL, "?") {
		return fileURL + "&mode=rw"
	}
	return fileURL + "?mode=rw"
}
