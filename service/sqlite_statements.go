package service

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"reflect"

	"modernc.org/sqlite"
)

// sqliteDriverName is modernc's SQLite driver with a prepared-statement cache per connection.
// database/sql prepares nothing by itself, and the pure-Go SQLite compiles every statement
// anew: a quarter of checkoutd's CPU under load went to parsing the same few dozen statements.
const sqliteDriverName = "sqlite-checkoutd"

// maxCachedStatements bounds one connection's cache; checkoutd has far fewer distinct statements.
const maxCachedStatements = 512

func init() { sql.Register(sqliteDriverName, statementCachingDriver{}) }

type statementCachingDriver struct{}

func (statementCachingDriver) Open(name string) (driver.Conn, error) {
	c, err := (&sqlite.Driver{}).Open(name)
	if err != nil {
		return nil, err
	}
	return &cachingConn{conn: c, stmts: map[string]*cachedStmt{}}, nil
}

// cachingConn is one SQLite connection with its prepared statements. database/sql uses a
// connection from one goroutine at a time, so the cache needs no lock.
type cachingConn struct {
	conn  driver.Conn
	stmts map[string]*cachedStmt
}

// cachedStmt is a prepared statement; busy while rows read from it are open, when a second use
// of the same text gets a statement of its own instead.
type cachedStmt struct {
	stmt driver.Stmt
	busy bool
}

var (
	_ driver.ConnBeginTx        = (*cachingConn)(nil)
	_ driver.ConnPrepareContext = (*cachingConn)(nil)
	_ driver.QueryerContext     = (*cachingConn)(nil)
	_ driver.ExecerContext      = (*cachingConn)(nil)
	_ driver.Pinger             = (*cachingConn)(nil)
	_ driver.SessionResetter    = (*cachingConn)(nil)
	_ driver.Validator          = (*cachingConn)(nil)
)

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
		errs = append(errs, s.stmt.Close())
	}
	c.stmts = nil
	return errors.Join(append(errs, c.conn.Close())...)
}

// statement returns the cached statement for query, preparing it on first use; nil when the
// cached one is in use.
func (c *cachingConn) statement(ctx context.Context, query string) (*cachedStmt, error) {
	if s, ok := c.stmts[query]; ok {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	st, err := c.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s := &cachedStmt{stmt: st}
	if len(c.stmts) < maxCachedStatements {
		c.stmts[query] = s
	}
	return s, nil
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.statement(ctx, query)
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
		return nil, err
	}
	return &releasingRows{Rows: rows, release: func() { s.busy = false }}, nil
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.statement(ctx, query)
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.conn.(driver.ExecerContext).ExecContext(ctx, query, args)
	}
	return s.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
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
