package platform

import (
	"context"
	"sync"
	"time"

	"github.com/checkoutd/checkoutd/ent"
)

// CacheTTL bounds how long another process may answer with a shop's old settings; a change made
// through this process clears its cache at once, and again when its transaction commits.
const CacheTTL = 2 * time.Second

// FreshCache keeps values for CacheTTL. A load that a clear overtakes is not kept, so a
// value read before a change committed cannot outlive the clear at its commit.
type FreshCache[K comparable, V any] struct {
	mu      sync.Mutex
	entries map[K]freshEntry[V]
	clears  uint64
}

type freshEntry[V any] struct {
	value  V
	loaded time.Time
}

// Clear forgets every value.
func (c *FreshCache[K, V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
	c.clears++
}

// Get returns the value kept under key when it is fresh at now, else loads and keeps it.
func (c *FreshCache[K, V]) Get(key K, now func() time.Time, load func() (V, error)) (V, error) {
	c.mu.Lock()
	e, ok := c.entries[key]
	clears := c.clears
	c.mu.Unlock()
	started := now()
	if age := started.Sub(e.loaded); ok && age >= 0 && age < CacheTTL {
		return e.value, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.clears != clears {
		return v, nil
	}
	if c.entries == nil || len(c.entries) > 10000 {
		c.entries = map[K]freshEntry[V]{}
	}
	c.entries[key] = freshEntry[V]{value: v, loaded: started}
	return v, nil
}

// ClearingHook runs clear after every mutation it sees that concerns it (all when concerns is
// nil), whether or not the mutation succeeded, and once more when its transaction ends, so
// that nothing read inside it, or before its commit, is kept.
func ClearingHook(clear func(), concerns func(ent.Mutation) bool) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			v, err := next.Mutate(ctx, m)
			if concerns != nil && !concerns(m) {
				return v, err
			}
			clear()
			if inTx, ok := m.(interface{ Tx() (*ent.Tx, error) }); ok {
				if tx, txErr := inTx.Tx(); txErr == nil {
					tx.OnCommit(func(next ent.Committer) ent.Committer {
						return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
							defer clear()
							return next.Commit(ctx, tx)
						})
					})
					tx.OnRollback(func(next ent.Rollbacker) ent.Rollbacker {
						return ent.RollbackFunc(func(ctx context.Context, tx *ent.Tx) error {
							defer clear()
							return next.Rollback(ctx, tx)
						})
					})
				}
			}
			return v, err
		})
	}
}
