package platform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"entgo.io/ent/dialect"
)

// Backup writes a copy of the SQLite database to path, which must not exist. VACUUM INTO reads
// the database in one read transaction, so the copy holds exactly what was committed when it
// began, while the writers of a live server go on (WAL readers do not block them).
func (d *Database) Backup(ctx context.Context, path string) error {
	if d.Dialect != dialect.SQLite {
		return errors.New("backup copies SQLite databases only; PostgreSQL has pg_dump")
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s exists: a backup is written to a new file", path)
	}
	// The copy is written beside its destination under another name and renamed when whole, so
	// path never holds a partial copy, even if this process dies.
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.partial")
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if _, err := d.SQL.ExecContext(ctx, "VACUUM INTO ?", tmp.Name()); err != nil {
		return fmt.Errorf("VACUUM INTO: %w", err)
	}
	// VACUUM INTO does not sync what it writes; a copy a power cut could tear is no backup.
	if err := syncPath(tmp.Name()); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncPath(filepath.Dir(path))
}

func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
