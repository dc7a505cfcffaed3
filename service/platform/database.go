package platform

import (
	"context"
	"database/sql"
	"fmt"
	neturl "net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/migrate/migrations"
)

// Database is an open connection to the service's store, with its dialect.
type Database struct {
	SQL     *sql.DB
	Dialect string
	// Client writes (and reads inside transactions).
	Client *ent.Client
	// Read serves reads outside transactions. On SQLite it is a pool of read-only connections
	// beside the one writer: in WAL mode readers neither wait for the writer nor block it, and
	// each sees every transaction committed before it started. On PostgreSQL it is Client.
	Read *ent.Client
	read *sql.DB
	// checkpoints copies SQLite's write-ahead log into its database file (sqlite_checkpoint.go).
	checkpoints *checkpointer
	closed      atomic.Bool
	holdsOnce   sync.Once
	holds       *LocalHolds
	// The rest is this process's part in the deployment's hold lock on PostgreSQL
	// (sole_process.go). rowHoldsOnly: holds_in_memory=false in the URL, or a pool of one;
	// ownLease: this process's lease (JoinHolders).
	holdTimings  HoldTimings
	rowHoldsOnly bool
	ownLease     atomic.Value
	soleOnce     sync.Once
	sole         *soleProcess
}

// sqlitePragmas make SQLite safe for a concurrent server: foreign keys on, WAL, a busy
// timeout instead of instant SQLITE_BUSY, and write transactions that lock at BEGIN so two
// read-then-write transactions cannot deadlock. Times are written in SQLite's own format in
// UTC, so that comparing them as text (SQLite has no time type) orders them as times; the
// driver's default, Go's time.String(), carries a zone name and a monotonic reading. The busy
// timeout comes first so that the pragmas after it wait for a lock too. Each connection may
// keep up to 32 MiB of the database's pages (SQLite's default is 2 MiB, filled as pages are
// read): a search or a write that reaches rows all over a large table's indexes otherwise reads
// most of its pages from the OS again, one system call each.
const sqlitePragmas = "_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-32768)&_txlock=immediate&_time_format=sqlite&_timezone=UTC"

// DefaultPoolMaxConns is how many PostgreSQL connections one process opens at most, unless the
// URL's pool_max_conns says otherwise.
const DefaultPoolMaxConns = 20

// OpenDatabase opens `file:PATH` (SQLite) or `postgres://...` URLs. A PostgreSQL URL may carry
// pool_max_conns (pgxpool's name for it), the most connections this process opens, and
// holds_in_memory (checkoutdParams); they are checkoutd's, and taken out of the URL before the
// driver sees it.
func OpenDatabase(url string) (*Database, error) {
	var (
		driver, dsn, dia string
		poolMax          = DefaultPoolMaxConns
		holdsInMemory    = true
	)
	switch {
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		var err error
		if url, poolMax, holdsInMemory, err = checkoutdParams(url); err != nil {
			return nil, err
		}
		driver, dsn, dia = postgresDriverName, url, dialect.Postgres
	case strings.HasPrefix(url, "file:"):
		sep := "?"
		if strings.Contains(url, "?") {
			sep = "&"
		}
		driver, dsn, dia = sqliteDriverName, url+sep+sqlitePragmas, dialect.SQLite
	default:
		return nil, fmt.Errorf("database URL must start with file: or postgres://")
	}
	writerDSN := dsn
	if dia == dialect.SQLite {
		writerDSN += "&_pragma=wal_autocheckpoint(0)" // the checkpointer's work
	}
	db, err := sql.Open(driver, writerDSN)
	if err != nil {
		return nil, err
	}
	if dia == dialect.SQLite {
		// One writer at a time is all SQLite allows; a single connection keeps writers queued in Go
		// instead of spinning on the busy timeout.
		db.SetMaxOpenConns(1)
	} else {
		// The HTTP server, the job queue and the lease share this pool.
		db.SetMaxOpenConns(poolMax)
		db.SetMaxIdleConns(poolMax)
	}
	client := ent.NewClient(ent.Driver(txCapture{entsql.OpenDB(dia, db)}))
	// The lock of a process holding in memory keeps a connection: a pool of one cannot spare it.
	d := &Database{SQL: db, Dialect: dia, Client: client, Read: client, rowHoldsOnly: !holdsInMemory || poolMax < 2}
	if dia == dialect.SQLite {
		// The writer's connection opens first and alone: on a new file it is the one that turns
		// on WAL. Two connections switching a new file to WAL at once can deadlock in SQLite,
		// which then answers SQLITE_BUSY at once whatever the busy timeout (seen as a failed
		// migration when the checkpointer's first connection came in between).
		if err := db.Ping(); err != nil {
			db.Close()
			return nil, err
		}
		read, err := sql.Open(driver, dsn+"&_pragma=query_only(1)")
		if err != nil {
			db.Close()
			return nil, err
		}
		read.SetMaxOpenConns(runtime.NumCPU() * 2)
		read.SetMaxIdleConns(runtime.NumCPU() * 2)
		d.read, d.Read = read, ent.NewClient(ent.Driver(entsql.OpenDB(dia, read)))
		checkpoints, err := sql.Open(driver, dsn)
		if err != nil {
			read.Close()
			db.Close()
			return nil, err
		}
		d.checkpoints = startCheckpointer(checkpoints)
	}
	return d, nil
}

// checkoutdParams takes checkoutd's own parameters out of a PostgreSQL URL (lib/pq would send
// them to the server as settings): pool_max_conns, the most connections this process opens
// (DefaultPoolMaxConns without it), and holds_in_memory=false, which keeps a process that is
// alone on its database holding orders on their rows (behind a pooler that does not keep a
// session's advisory locks: sole_process.go).
func checkoutdParams(raw string) (string, int, bool, error) {
	u, err := neturl.Parse(raw)
	if err != nil {
		return "", 0, false, fmt.Errorf("database URL: %w", err)
	}
	q := u.Query()
	if !q.Has("pool_max_conns") && !q.Has("holds_in_memory") {
		return raw, DefaultPoolMaxConns, true, nil
	}
	n := DefaultPoolMaxConns
	if q.Has("pool_max_conns") {
		v := q.Get("pool_max_conns")
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			return "", 0, false, fmt.Errorf("database URL: pool_max_conns must be a positive number, not %q", v)
		}
	}
	inMemory := true
	if q.Has("holds_in_memory") {
		v := q.Get("holds_in_memory")
		if inMemory, err = strconv.ParseBool(v); err != nil {
			return "", 0, false, fmt.Errorf("database URL: holds_in_memory must be true or false, not %q", v)
		}
	}
	q.Del("pool_max_conns")
	q.Del("holds_in_memory")
	u.RawQuery = q.Encode()
	return u.String(), n, inMemory, nil
}

// txCapture is ent's SQL driver, except that a transaction begun with a txSlot in its context
// leaves its *sql.Tx in the slot. River's InsertTx takes that *sql.Tx, so that a job is
// written in the same transaction as the change that causes it.
type txCapture struct{ *entsql.Driver }

type txSlotKey struct{}

type txSlot struct{ tx *sql.Tx }

func (d txCapture) Tx(ctx context.Context) (dialect.Tx, error) { return d.BeginTx(ctx, nil) }

func (d txCapture) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	tx, err := d.Driver.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	if slot, ok := ctx.Value(txSlotKey{}).(*txSlot); ok {
		if t, ok := tx.(*entsql.Tx); ok {
			slot.tx, _ = t.Tx.(*sql.Tx)
		}
	}
	return tx, nil
}

// Migrate applies the pending migrations.
func (d *Database) Migrate(ctx context.Context) error {
	return migrations.Apply(ctx, d.SQL, d.Dialect)
}

// Ping reports whether the database answers.
func (d *Database) Ping(ctx context.Context) error { return d.SQL.PingContext(ctx) }

// Closed reports whether Close was called: work still under way when the process stops (a
// background write) fails for that reason, not for one worth reporting.
func (d *Database) Closed() bool { return d.closed.Load() }

// Close closes the connection pools.
func (d *Database) Close() error {
	d.closed.Store(true)
	d.stopSoleProcess()
	if d.read != nil {
		d.read.Close()
	}
	if d.checkpoints != nil {
		d.checkpoints.close()
	}
	return d.Client.Close()
}
