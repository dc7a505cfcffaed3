package platform

import (
	"context"
	"sync"
	"time"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/processlease"
)

const (
	// LeaseRenewal is how often a process renews its lease.
	LeaseRenewal = 5 * time.Second
	// LeaseLapse is how long after its last renewal a lease counts as lapsed: its process is
	// gone, and what it left running may be taken over. Four renewals missed: a process busy
	// for that long is as good as gone.
	LeaseLapse = 20 * time.Second
)

// Lease is this process's lease on a database it shares with other processes (PostgreSQL): a
// row renewed every LeaseRenewal while the process lives. Work a process marks with its lease
// (an idempotency key it runs) is taken over by another once the lease lapses, instead of after
// a fixed wait.
type Lease struct {
	p       *Platform
	id      string
	stop    chan struct{}
	stopped sync.WaitGroup
}

// StartLease takes a lease for this process and renews it until StopLease. A lease already
// taken is kept.
func (p *Platform) StartLease(ctx context.Context) error {
	if p.lease.Load() != nil {
		return nil
	}
	// Leases of processes long gone are only history.
	if _, err := p.DB.Client.ProcessLease.Delete().Where(processlease.RenewedAtLT(time.Now().Add(-10 * LeaseLapse))).Exec(ctx); err != nil {
		return err
	}
	l := &Lease{p: p, id: p.processID, stop: make(chan struct{})}
	if err := p.DB.Client.ProcessLease.Create().SetProcess(l.id).SetRenewedAt(time.Now()).Exec(ctx); err != nil {
		return err
	}
	p.lease.Store(l)
	l.stopped.Add(1)
	go l.renew()
	return nil
}

// StopLease ends the lease: the process is stopping, and what it runs has finished or is left
// for others to take over at once.
func (p *Platform) StopLease(ctx context.Context) {
	l := p.lease.Swap(nil)
	if l == nil {
		return
	}
	close(l.stop)
	l.stopped.Wait()
	if _, err := p.DB.Client.ProcessLease.Delete().Where(processlease.Process(l.id)).Exec(ctx); err != nil {
		p.Log.WarnContext(ctx, "ending the process lease failed; it lapses on its own", "error", err)
	}
}

// LeaseID is this process's lease, or "" when it holds none (SQLite, or a process that serves
// no jobs).
func (p *Platform) LeaseID() string {
	if l := p.lease.Load(); l != nil {
		return l.id
	}
	return ""
}

// LeaseLapsed reports whether the lease owner is no longer renewed, read through c (in the
// caller's transaction). No lease ("") never lapses: its work is taken over by the older rules.
func (p *Platform) LeaseLapsed(ctx context.Context, c *ent.Client, owner string) (bool, error) {
	if owner == "" {
		return false, nil
	}
	live, err := c.ProcessLease.Query().Where(processlease.Process(owner), processlease.RenewedAtGT(time.Now().Add(-LeaseLapse))).Exist(ctx)
	return !live, err
}

func (l *Lease) renew() {
	defer l.stopped.Done()
	t := time.NewTicker(LeaseRenewal)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), LeaseRenewal)
			n, err := l.p.DB.Client.ProcessLease.Update().Where(processlease.Process(l.id)).SetRenewedAt(time.Now()).Save(ctx)
			if err == nil && n == 0 {
				// Another process deleted it as lapsed (this one stalled): take it again.
				err = l.p.DB.Client.ProcessLease.Create().SetProcess(l.id).SetRenewedAt(time.Now()).Exec(ctx)
			}
			cancel()
			if err != nil {
				l.p.Log.Warn("renewing the process lease failed", "error", err)
			}
		}
	}
}

// LapsedLeases are the leases no longer renewed: their processes are gone, and what they left
// in doubt may be settled by another.
func (p *Platform) LapsedLeases(ctx context.Context) ([]string, error) {
	return p.DB.Read.ProcessLease.Query().Where(processlease.RenewedAtLT(time.Now().Add(-LeaseLapse))).
		Select(processlease.FieldProcess).Strings(ctx)
}
