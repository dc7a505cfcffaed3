package platform

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"hash/fnv"
	"log/slog"
	"sync"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent/processlease"
)

// Several checkoutd processes on one PostgreSQL hold a key (an order, for its remote state
// authority) on its row: a write before and one after. A process that knows it is the only one
// holds keys in its memory, as on SQLite. It knows it by an advisory lock of its deployment
// (its database and schema), which PostgreSQL keeps for a session until the session lets go of
// it or ends (the process's death included):
//   - a process that holds keys takes the lock: alone when it can, else shared, waiting for it;
//   - alone, it holds on rows until HoldTimings.Settle has passed (every hold on a row that a
//     process gone since may have left has ended), and then in memory;
//   - alone, it looks every HoldTimings.Check for a process waiting for the lock; when there is
//     one it stops holding in memory, lets the holds in memory under way end, and takes the
//     lock shared too, which lets the newcomer in: from then on both hold on rows;
//   - shared, it tries every HoldTimings.Retry to take the lock alone, which it gets once every
//     other process has gone;
//   - alone, it also holds on rows while another process's lease (platform.Lease) lives: a
//     process of a release before the lock holds on rows without taking it.
//
// The lock is held on a connection of the pool kept for it, outside any transaction.

// soleLockClass is the first key of checkoutd's advisory locks ("ckou"); the second is the
// deployment's schema (soleLockKey).
const soleLockClass = 0x636b6f75

// HoldTimings are how a process on PostgreSQL comes to hold keys in its memory (sole_process.go).
type HoldTimings struct {
	// Settle is how long a process that took the lock alone still holds on rows: longer than
	// any hold on a row (a remote call's longest timeout and its margin).
	Settle time.Duration
	// Check is how often a process holding alone looks for a process waiting to join.
	Check time.Duration
	// Retry is how often a process holding shared tries to hold alone again.
	Retry time.Duration
}

// DefaultHoldTimings: service/remote bounds a call at 10 s and the RSA holds an order 5 s past
// its call's timeout.
var DefaultHoldTimings = HoldTimings{Settle: 20 * time.Second, Check: time.Second, Retry: 5 * time.Second}

// SetHoldTimings sets the timings of HoldKey on PostgreSQL, before the first hold (tests).
func (d *Database) SetHoldTimings(t HoldTimings) { d.holdTimings = t }

// ErrNotJoined: the process could not take the deployment's lock within the wait (another
// process was still ending its holds in memory).
var ErrNotJoined = errors.New("this process has not yet joined the others holding orders on the database")

// HoldKey holds key for one request of this process, waiting up to wait for another request of
// the process that holds it (false when the wait ended first). inMemory says whether that is
// the whole hold: on SQLite, which serves one process, and on PostgreSQL while this process is
// the only one; otherwise the caller holds the key on its row too before release.
func (d *Database) HoldKey(ctx context.Context, key int, wait time.Duration) (release func(), inMemory, taken bool, err error) {
	deadline := time.Now().Add(wait)
	release, taken, err = d.Holds().Take(ctx, key, wait)
	if !taken || err != nil || d.Dialect != dialect.Postgres {
		return release, true, taken, err
	}
	if d.rowHoldsOnly {
		return release, false, true, nil
	}
	sp := d.soleProcess()
	if sp == nil {
		release()
		return nil, false, false, ErrNotJoined
	}
	inMemory, end, err := sp.enter(ctx, time.Until(deadline))
	if err != nil {
		release()
		return nil, false, false, err
	}
	if inMemory {
		inner := release
		release = func() { end(); inner() }
	}
	return release, inMemory, true, nil
}

// JoinHolders takes this process's part in the deployment's lock now rather than at its first
// hold (PostgreSQL; nothing on SQLite): a server starts it at once, so that the settle has
// passed by the time its first shoppers come. ownLease is the process's lease (platform.Lease),
// which is not another process's.
func (d *Database) JoinHolders(ownLease string) {
	d.ownLease.Store(ownLease)
	if d.Dialect == dialect.Postgres && !d.rowHoldsOnly {
		d.soleProcess()
	}
}

// soleProcess is this process's part in the deployment's advisory lock (started at the first
// hold; nil once the database is closed).
func (d *Database) soleProcess() *soleProcess {
	d.soleOnce.Do(func() {
		t := d.holdTimings
		if t == (HoldTimings{}) {
			t = DefaultHoldTimings
		}
		ctx, cancel := context.WithCancel(context.Background())
		d.sole = &soleProcess{d: d, timings: t, cancel: cancel, stopped: make(chan struct{}), changed: make(chan struct{})}
		go d.sole.run(ctx)
	})
	return d.sole
}

// stopSoleProcess lets go of the lock (Close).
func (d *Database) stopSoleProcess() {
	d.soleOnce.Do(func() {}) // none is started after Close
	if d.sole != nil {
		d.sole.cancel()
		<-d.sole.stopped
	}
}

type holdMode int

const (
	// modeJoining: the lock is not held (yet, or since the connection holding it failed): holds
	// wait for it.
	modeJoining holdMode = iota
	// modeShared: on rows.
	modeShared
	// modeAlone: on rows until soleFrom, then in memory.
	modeAlone
	// modeLeaving: on rows, while the holds in memory under way end.
	modeLeaving
)

type soleProcess struct {
	d       *Database
	timings HoldTimings
	cancel  func()
	stopped chan struct{}

	mu       sync.Mutex
	mode     holdMode
	soleFrom time.Time
	// checked: alone, the process has looked at least once for others; othersLive: it found a
	// live lease of another process that does not take the lock (a release before it).
	checked, othersLive bool
	// inMemory counts the holds in memory under way.
	inMemory int
	// changed is closed (and replaced) at every change of mode or of inMemory.
	changed chan struct{}
}

// enter answers whether a hold taken now is in memory, and then the function that ends it.
func (s *soleProcess) enter(ctx context.Context, wait time.Duration) (bool, func(), error) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		s.mu.Lock()
		switch s.mode {
		case modeAlone:
			if s.checked && !s.othersLive && !time.Now().Before(s.soleFrom) {
				s.inMemory++
				s.mu.Unlock()
				var once sync.Once
				return true, func() { once.Do(s.end) }, nil
			}
			s.mu.Unlock()
			return false, nil, nil
		case modeShared, modeLeaving:
			s.mu.Unlock()
			return false, nil, nil
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-timer.C:
			return false, nil, ErrNotJoined
		case <-ctx.Done():
			return false, nil, ctx.Err()
		}
	}
}

func (s *soleProcess) end() {
	s.mu.Lock()
	s.inMemory--
	s.signal()
	s.mu.Unlock()
}

// signal wakes whoever waits for a change; under mu.
func (s *soleProcess) signal() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *soleProcess) setMode(m holdMode) {
	s.mu.Lock()
	s.mode = m
	if m == modeAlone {
		s.soleFrom = time.Now().Add(s.timings.Settle)
		s.checked, s.othersLive = false, false
	}
	s.signal()
	s.mu.Unlock()
}

func (s *soleProcess) run(ctx context.Context) {
	defer close(s.stopped)
	var l *soleLock
	defer func() { l.close() }()
	for ctx.Err() == nil {
		if l == nil {
			var err error
			if l, err = openSoleLock(ctx, s.d.SQL); err != nil {
				slog.Warn("taking a connection for the deployment's hold lock failed; holds wait meanwhile", "error", err)
				sleep(ctx, s.timings.Check)
				continue
			}
		}
		s.mu.Lock()
		mode := s.mode
		s.mu.Unlock()
		var err error
		switch mode {
		case modeJoining:
			err = s.join(ctx, l)
		case modeAlone:
			sleep(ctx, s.timings.Check)
			err = s.letInWaiting(ctx, l)
		case modeShared:
			sleep(ctx, s.timings.Retry)
			var alone bool
			if alone, err = l.try(ctx); err == nil && alone {
				if err = l.exec(ctx, "SELECT pg_advisory_unlock_shared($1, $2)"); err == nil {
					s.setMode(modeAlone)
				}
			}
		}
		if err != nil && ctx.Err() == nil {
			// PostgreSQL lets go of the connection's locks when it ends: the process joins again.
			slog.Warn("the deployment's hold lock was lost; joining again", "error", err)
			s.setMode(modeJoining)
			l.close()
			l = nil
		}
	}
}

// join takes the lock alone when no other process holds it, else shared, waiting for it.
func (s *soleProcess) join(ctx context.Context, l *soleLock) error {
	alone, err := l.try(ctx)
	if err != nil {
		return err
	}
	if alone {
		s.setMode(modeAlone)
		return nil
	}
	if err := l.exec(ctx, "SELECT pg_advisory_lock_shared($1, $2)"); err != nil {
		return err
	}
	s.setMode(modeShared)
	return nil
}

// letInWaiting hands the lock over to shared when a process waits for it: no hold in memory is
// taken from then on, and the lock is shared once those under way have ended. It also looks
// for the live leases of other processes (platform.Lease): a process of a release before the
// lock holds on rows without taking it, and while one lives this one holds on rows too.
func (s *soleProcess) letInWaiting(ctx context.Context, l *soleLock) error {
	var waiting, othersLive bool
	own, _ := s.d.ownLease.Load().(string)
	if err := l.conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND classid = $1 AND objid = $2 AND objsubid = 2),
		EXISTS (SELECT 1 FROM `+processlease.Table+` WHERE `+processlease.FieldProcess+` <> $3 AND `+processlease.FieldRenewedAt+` > $4)`,
		soleLockClass, l.key, own, time.Now().Add(-LeaseLapse)).Scan(&waiting, &othersLive); err != nil {
		return err
	}
	if !waiting {
		s.mu.Lock()
		if s.checked && s.othersLive && !othersLive {
			// What the other process held on rows may still be held.
			s.soleFrom = time.Now().Add(s.timings.Settle)
		}
		s.checked, s.othersLive = true, othersLive
		s.signal()
		s.mu.Unlock()
		return nil
	}
	s.setMode(modeLeaving)
	for {
		s.mu.Lock()
		n, changed := s.inMemory, s.changed
		s.mu.Unlock()
		if n == 0 {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil
		}
	}
	// The lock held alone by this session does not keep it from taking it shared.
	if err := l.exec(ctx, "SELECT pg_advisory_lock_shared($1, $2)"); err != nil {
		return err
	}
	if err := l.exec(ctx, "SELECT pg_advisory_unlock($1, $2)"); err != nil {
		return err
	}
	s.setMode(modeShared)
	return nil
}

// soleLock is the connection that holds the deployment's lock, and the lock's key.
type soleLock struct {
	conn *sql.Conn
	key  int32
}

// openSoleLock takes a connection of the pool for the lock; the key is the connection's
// schema, so that deployments sharing a database (each in its schema) have a lock each.
func openSoleLock(ctx context.Context, db *sql.DB) (*soleLock, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var schema string
	if err := conn.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
		discard(conn)
		return nil, err
	}
	return &soleLock{conn: conn, key: soleLockKey(schema)}, nil
}

func soleLockKey(schema string) int32 {
	h := fnv.New32a()
	h.Write([]byte(schema))
	return int32(h.Sum32() & 0x7fffffff)
}

// try takes the lock alone if no other session holds it.
func (l *soleLock) try(ctx context.Context) (bool, error) {
	var ok bool
	err := l.conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock($1, $2)", soleLockClass, l.key).Scan(&ok)
	return ok, err
}

func (l *soleLock) exec(ctx context.Context, query string) error {
	var ignored any
	return l.conn.QueryRowContext(ctx, query, soleLockClass, l.key).Scan(&ignored)
}

// close ends the connection (never given back to the pool, which would keep its locks).
func (l *soleLock) close() {
	if l != nil {
		discard(l.conn)
	}
}

// discard closes conn's connection instead of giving it back to the pool.
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = conn.Close()
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
