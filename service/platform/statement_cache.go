package platform

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"reflect"

	"github.com/lib/pq"
	"modernc.org/sqlite"
)

// The drivers checkoutd opens its databases with: modernc's SQLite and lib/pq, each with a
// prepared-statement cache per connection. database/sql prepares nothing by itself.
//   - The pure-Go SQLite compiles every statement anew: a quarter of checkoutd's CPU under load
//     went to parsing the same few dozen statements.
//   - lib/pq sends a statement with parameters as an unnamed one: a round trip to parse it, a
//     second to run it, and PostgreSQL parses and plans it every time. A prepared statement
//     runs in one round trip with its parameters typed by the server (so JSON goes to jsonb
//     as text and []byte to bytea as bytes), and is parsed once per connection.
const (
	sqliteDriverName   = "sqlite-checkoutd"
	postgresDriverName = "postgres-checkoutd"
)

// maxCachedStatements bounds one connection's cache; checkoutd has far fewer distinct statements.
const maxCachedStatements = 512

func init() {
	// The driver the sqlite package registers, whose connections have the SQL functions its
	// package-level Register*Function calls add (service/trigram's pg_trgm measures).
	probe, err := sql.Open("sqlite", "")
	if err != nil {
		panic(err)
	}
	sql.Register(sqliteDriverName, statementCachingDriver{open: probe.Driver().(*sqlite.Driver).Open, cacheAll: true})
	_ = probe.Close()
	// Only statements with parameters are prepared on PostgreSQL: those without (BEGIN, COMMIT,
	// migrations' DDL, possibly several statements in one) run in one round trip already.
	sql.Register(postgresDriverName, statementCachingDriver{open: (&pq.Driver{}).Open, stale: staleStatement, serverSide: true})
}

// staleStatement reports a PostgreSQL error saying that a prepared statement no longer fits
// the schema ("cached plan must not change result type") or is gone: the statement is
// dropped from the cache, to be prepared again on its next use.
func staleStatement(err error) bool {
	var pqErr *pq.Error
	return errors.As(err, &pqErr) && (pqErr.Code == "0A000" || pqErr.Code == "26000")
}

type statementCachingDriver struct {
	open func(name string) (driver.Conn, error)
	// cacheAll caches statements without parameters too.
	cacheAll bool
	// stale, when set, reports errors after which a cached statement is dropped.
	stale func(error) bool
	// serverSide statements end with their connection; closing them one by one first would
	// cost a round trip each.
	serverSide bool
}

func (d statementCachingDriver) Open(name string) (driver.Conn, error) {
	c, err := d.open(name)
	if err != nil {
		return nil, err
	}
	return &cachingConn{conn: c, stmts: map[string]*cachedStmt{}, driver: d}, nil
}

// cachingConn is one connection with its prepared statements. database/sql uses a connection
// from one goroutine at a time, so the cache needs no lock.
type cachingConn struct {
	conn   driver.Conn
	stmts  map[string]*cachedStmt
	driver statementCachingDriver
}

// cachedStmt is a prepared statement; busy while rows read from it are open, when a second use
// of the same text gets a statement of its own instead.
type cachedStmt struct {
	stmt  driver.Stmt
	query string
	busy  bool
}

var (
	_ driver.ConnBeginTx        = (*cachingConn)(nil)
	_ driver.ConnPrepareContext = (*cachingConn)(nil)
	_ driver.QueryerContext     = (*cachingConn)(nil)
	_ driver.ExecerContext      = (*cachingConn)(nil)
	_ driver.Pinger             = (*cachingConn)(nil)
	_ driver.SessionResetter    = (*cachingConn)(nil)
	_ driver.Validator          = (*cachingConn)(nil)
	_ driver.NamedValueChecker  = (*cachingConn)(nil)
)

// CheckNamedValue lets the driver convert what it knows (lib/pq: slices to arrays).
func (c *cachingConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := c.conn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

func (c *cachingConn) Prepare(query string) (driver.Stmt, error) { return c.conn.Prepare(query) }
func (c *cachingConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
}

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

func (c *cachingConn) Ping(ctx context.Context) error { return c.conn.(driver.Pinger).Ping(ctx) }

func (c *cachingConn) ResetSession(ctx context.Context) error {
	return c.conn.(driver.SessionResetter).ResetSession(ctx)
}

func (c *cachingConn) IsValid() bool { return c.conn.(driver.Validator).IsValid() }

func (c *cachingConn) Close() error {
	var errs []error
	for _, s := range c.stmts {
		if !c.driver.serverSide {
			errs = append(errs, s.stmt.Close())
		}
	}
	c.stmts = nil
	return errors.Join(append(errs, c.conn.Close())...)
}

type planWithValuesKey struct{}

// PlanWithValues marks ctx's queries as planned with their values each time on PostgreSQL: they
// run as unnamed statements, not as this connection's prepared ones. After five runs of a
// prepared statement PostgreSQL may keep a generic plan, made without the values, when it looks
// no costlier; for a read interface's list the best plan depends on the values (how many of the
// table's rows are the shop's, how common the filtered name is), and a generic plan read a
// page of 100 Smiths among a million customers in 250 ms instead of 0.4 ms.
func PlanWithValues(ctx context.Context) context.Context {
	return context.WithValue(ctx, planWithValuesKey{}, true)
}

// statement returns the cached statement for query, preparing it on first use; nil when the
// cached one is in use, or when the query is not one this driver caches.
func (c *cachingConn) statement(ctx context.Context, query string, args []driver.NamedValue) (*cachedStmt, error) {
	if len(args) == 0 && !c.driver.cacheAll {
		return nil, nil
	}
	if c.driver.serverSide && ctx.Value(planWithValuesKey{}) != nil {
		return nil, nil
	}
	if s, ok := c.stmts[query]; ok {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	if len(c.stmts) >= maxCachedStatements {
		// A statement prepared and not kept would never be closed (on PostgreSQL it would stay
		// on the server for the connection's life): past the bound, queries run unprepared.
		return nil, nil
	}
	st, err := c.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s := &cachedStmt{stmt: st, query: query}
	c.stmts[query] = s
	return s, nil
}

// failed drops s from the cache when err says it no longer fits the schema.
func (c *cachingConn) failed(s *cachedStmt, err error) {
	if err == nil || c.driver.stale == nil || !c.driver.stale(err) {
		return
	}
	if c.stmts[s.query] == s {
		delete(c.stmts, s.query)
	}
	_ = s.stmt.Close()
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.statement(ctx, query, args)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.conn.(driver.QueryerContext).QueryContext(ctx, query, args)
	}
	s.busy = true
	rows, err := s.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		s.busy = false
		c.failed(s, err)
		return nil, err
	}
	return &releasingRows{Rows: rows, release: func() { s.busy = false }}, nil
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.statement(ctx, query, args)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.conn.(driver.ExecerContext).ExecContext(ctx, query, args)
	}
	res, err := s.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
	c.failed(s, err)
	return res, err
}

// releasingRows gives its statement back when closed, and passes on the column type
// information SQLite's rows carry.
type releasingRows struct {
	driver.Rows
	release func()
}

func (r *releasingRows) Close() error {
	err := r.Rows.Close()
	if r.release != nil {
		r.release()
		r.release = nil
	}
	return err
}

func (r *releasingRows) ColumnTypeDatabaseTypeName(i int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(i)
	}
	return ""
}

func (r *releasingRows) ColumnTypeScanType(i int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(i)
	}
	return reflect.TypeFor[any]()
}

func (r *releasingRows) ColumnTypeNullable(i int) (bool, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(i)
	}
	return false, false
}

func (r *releasingRows) ColumnTypeLength(i int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(i)
	}
	return 0, false
}

func (r *releasingRows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(i)
	}
	return 0, 0, false
}
