package platform

import (
	"context"
	"sync"
	"time"
)

// LocalHolds are holds kept in this process's memory, one per key: what several processes on
// one PostgreSQL must hold in the database (a column written before and cleared after), one
// process on SQLite (docs/operations.md: SQLite serves one process) holds without a write.
// They belong to the Database, so that every service on it shares them.
type LocalHolds struct {
	mu sync.Mutex
	// held has a channel per key held, closed when the hold is given back.
	held map[int]chan struct{}
}

// Holds are the database's local holds (LocalHolds).
func (d *Database) Holds() *LocalHolds {
	d.holdsOnce.Do(func() { d.holds = &LocalHolds{held: map[int]chan struct{}{}} })
	return d.holds
}

// Take holds key, waiting up to wait while another holds it. It answers the function that
// gives the hold back, or false when the wait ended first.
func (l *LocalHolds) Take(ctx context.Context, key int, wait time.Duration) (func(), bool, error) {
	var timeout <-chan time.Time
	for {
		l.mu.Lock()
		ch, busy := l.held[key]
		if !busy {
			ch = make(chan struct{})
			l.held[key] = ch
			l.mu.Unlock()
			var once sync.Once
			return func() {
				once.Do(func() {
					l.mu.Lock()
					delete(l.held, key)
					l.mu.Unlock()
					close(ch)
				})
			}, true, nil
		}
		l.mu.Unlock()
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-ch:
		case <-timeout:
			return nil, false, nil
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
}
