// Package platform is what every domain of the service stands on: the database and its
// transactions, the job queue that domains register their work with, and the outbox of events
// written in the transaction of the change that causes them.
package platform

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/checkoutd/checkoutd/ent"
)

// Platform is the database, the clock, the log, the metrics registry, the job queue and the
// outbox, shared by every domain.
type Platform struct {
	DB    *Database
	Log   *slog.Logger
	Clock func() time.Time
	// Metrics is the service's Prometheus registry (one per service, so that tests may run many);
	// domains register their own metrics in it.
	Metrics *prometheus.Registry
	Jobs    *Queue
	Outbox  *Outbox

	// writeTxs and writeTxSeconds count the service's write transactions and the time each held
	// its connection, begin to commit or rollback: on SQLite, how busy its one writer is.
	writeTxs       prometheus.Counter
	writeTxSeconds prometheus.Counter
	// sqlTxs maps each transaction InTx has open to its *sql.Tx, for River's InsertTx.
	sqlTxs sync.Map
	// lease is this process's lease while it serves jobs on PostgreSQL (StartLease).
	lease atomic.Pointer[Lease]
	// processID names this process: its lease, and its job queue client (which River records
	// in each job it works), so that the jobs of a process whose lease lapsed can be found.
	processID string
}

// New returns the platform on db. Its job queue takes workers until Jobs.Open.
func New(db *Database, log *slog.Logger, clock func() time.Time) *Platform {
	p := &Platform{DB: db, Log: log, Clock: clock, Metrics: prometheus.NewRegistry(), processID: NewPublicID(),
		writeTxs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "checkoutd_db_write_transactions_total",
			Help: "Write transactions the service ran (the job queue's own are not counted).",
		}),
		writeTxSeconds: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "checkoutd_db_write_transaction_seconds_total",
			Help: "Time the service's write transactions held their connection, from begin to commit or rollback. On SQLite, its rate is how busy the one writer is.",
		}),
	}
	p.Jobs = newQueue(p)
	p.Outbox = &Outbox{p: p}
	p.Metrics.MustRegister(p.writeTxs, p.writeTxSeconds, queueCollector{p}, p.Jobs.outcomes.total, p.Jobs.outcomes.seconds)
	p.registerPoolMetrics()
	return p
}

// InTx runs fn in one transaction: all of it is written, or none. Jobs inserted through
// Jobs.InsertTx(ctx, tx, ...) and events recorded through Outbox are part of it.
func (p *Platform) InTx(ctx context.Context, fn func(tx *ent.Tx) error) (err error) {
	slot := &txSlot{}
	tx, err := p.DB.Client.Tx(context.WithValue(ctx, txSlotKey{}, slot))
	if err != nil {
		return err
	}
	if slot.tx != nil {
		p.sqlTxs.Store(tx, slot.tx)
		defer p.sqlTxs.Delete(tx)
	}
	defer p.Wrote(time.Now())
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		if rerr := tx.Rollback(); rerr != nil {
			return fmt.Errorf("%w (rollback: %v)", err, rerr)
		}
		return err
	}
	return tx.Commit()
}

// Wrote ends a write (a transaction, or a statement outside one) that began at began: it is
// counted in the metrics, with the time it held the writer.
func (p *Platform) Wrote(began time.Time) {
	p.writeTxs.Inc()
	p.writeTxSeconds.Add(time.Since(began).Seconds())
	if p.DB.Dialect == dialect.SQLite {
		// The one writer connection has just been handed to the next waiting write, whose
		// goroutine Go queued to run after this one on this processor, that is after this
		// request's answer is written. Yielding runs it now and keeps the writer busy.
		runtime.Gosched()
	}
}

// RandomHex returns n random bytes in hex.
func RandomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// NewPublicID returns an opaque 32-character identifier.
func NewPublicID() string { return RandomHex(16) }
