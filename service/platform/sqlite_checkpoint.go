package platform

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// checkpointInterval is how often the checkpointer copies SQLite's write-ahead log into the
// database file. With synchronous NORMAL a checkpoint is also when committed transactions reach
// the disk, so it bounds what a power cut (not a crash of the process) can take back.
const checkpointInterval = 200 * time.Millisecond

// The writer connection does not checkpoint SQLite's write-ahead log itself (its DSN turns
// wal_autocheckpoint off): SQLite would do it inside the commit that crosses 1,000 pages of log,
// holding the one writer connection, and so every write queued behind it, while it copies pages
// and waits for two fsyncs. Measured under the checkout benchmark, that was about a quarter of the
// writer's time. checkpointer runs PASSIVE checkpoints on a connection of its own instead: they
// neither wait for nor block the writer and the readers, and copy what no reader still needs.
type checkpointer struct {
	db   *sql.DB
	stop chan struct{}
	done sync.WaitGroup
}

func startCheckpointer(db *sql.DB) *checkpointer {
	db.SetMaxOpenConns(1)
	c := &checkpointer{db: db, stop: make(chan struct{})}
	c.done.Add(1)
	go func() {
		defer c.done.Done()
		tick := time.NewTicker(checkpointInterval)
		defer tick.Stop()
		for {
			select {
			case <-c.stop:
				return
			case <-tick.C:
				// A checkpoint that finds a reader in its way copies what it can and the next one
				// goes on; an error (the file gone in a test) is retried at the next tick.
				_, _ = c.db.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
			}
		}
	}()
	return c
}

// close stops the checkpoints. The last connection to close copies the rest of the log into the
// database file and removes the log, as SQLite always does.
func (c *checkpointer) close() {
	close(c.stop)
	c.done.Wait()
	c.db.Close()
}
