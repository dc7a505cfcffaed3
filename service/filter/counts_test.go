package filter_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/filter"
)

// counter counts a list of total rows, and says how many times it was asked; each count can be
// held until release is closed.
type counter struct {
	total   atomic.Int64
	calls   atomic.Int64
	release chan struct{}
	err     error
}

func (c *counter) count(ctx context.Context) (int, error) {
	c.calls.Add(1)
	if c.release != nil {
		select {
		case <-c.release:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	return int(c.total.Load()), c.err
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not after 5 s", what)
}

func TestASmallTotalIsCountedEveryTime(t *testing.T) {
	var counts filter.Counts
	c := &counter{}
	c.total.Store(filter.CountCacheFrom - 1)
	now := time.Now()
	for i := range 3 {
		n, err := counts.Total(context.Background(), "k", now, c.count)
		if err != nil || n != filter.CountCacheFrom-1 {
			t.Fatalf("total %d, %v", n, err)
		}
		if got := c.calls.Load(); got != int64(i+1) {
			t.Fatalf("%d counts for %d reads", got, i+1)
		}
	}
}

func TestALargeTotalIsKeptWhileFresh(t *testing.T) {
	var counts filter.Counts
	c := &counter{}
	c.total.Store(filter.CountCacheFrom)
	now := time.Now()
	if n, _ := counts.Total(context.Background(), "k", now, c.count); n != filter.CountCacheFrom {
		t.Fatalf("total %d", n)
	}
	c.total.Store(filter.CountCacheFrom + 5)
	n, _ := counts.Total(context.Background(), "k", now.Add(filter.CountCacheTTL-time.Millisecond), c.count)
	if n != filter.CountCacheFrom || c.calls.Load() != 1 {
		t.Fatalf("total %d after %d counts, want the kept %d after one", n, c.calls.Load(), filter.CountCacheFrom)
	}
	if n, _ := counts.Total(context.Background(), "other filters", now, c.count); n != filter.CountCacheFrom+5 {
		t.Fatalf("another list's total %d: each list's total is its own", n)
	}
}

// Once no longer fresh, a kept total is answered at once while one count, in the background,
// brings it up to date: readers meanwhile neither wait nor count again.
func TestAStaleTotalIsAnsweredAtOnceWhileCountedAgainInTheBackground(t *testing.T) {
	var counts filter.Counts
	c := &counter{}
	c.total.Store(50_000)
	now := time.Now()
	if _, err := counts.Total(context.Background(), "k", now, c.count); err != nil {
		t.Fatal(err)
	}
	c.total.Store(50_001)
	c.release = make(chan struct{})
	later := now.Add(filter.CountCacheTTL)
	ctx, cancel := context.WithCancel(context.Background())
	for range 5 {
		n, err := counts.Total(ctx, "k", later, c.count)
		if err != nil || n != 50_000 {
			t.Fatalf("total %d, %v: want the kept 50000 at once", n, err)
		}
	}
	// The request that set the recount going has ended: its count goes on.
	cancel()
	waitFor(t, "the recount to start", func() bool { return c.calls.Load() == 2 })
	close(c.release)
	waitFor(t, "the recounted total", func() bool {
		n, _ := counts.Total(context.Background(), "k", later, c.count)
		return n == 50_001
	})
	if got := c.calls.Load(); got != 2 {
		t.Fatalf("%d counts: the readers of a stale total started more than one", got)
	}
}

func TestATotalTooOldIsCountedAgainBeforeAnswering(t *testing.T) {
	var counts filter.Counts
	c := &counter{}
	c.total.Store(50_000)
	now := time.Now()
	if _, err := counts.Total(context.Background(), "k", now, c.count); err != nil {
		t.Fatal(err)
	}
	c.total.Store(60_000)
	if n, _ := counts.Total(context.Background(), "k", now.Add(filter.CountStaleFor), c.count); n != 60_000 {
		t.Fatalf("total %d, want 60000 counted then", n)
	}
	// A clock that went back does not make a kept total young.
	if n, _ := counts.Total(context.Background(), "k", now.Add(-time.Second), c.count); n != 60_000 || c.calls.Load() != 3 {
		t.Fatalf("total %d after %d counts", n, c.calls.Load())
	}
}

// A count that takes long is kept the longer, so that recounting a list read without pause
// costs a bounded share of the time.
func TestASlowCountIsKeptLonger(t *testing.T) {
	var counts filter.Counts
	now := time.Now()
	counts.Keep("k", now, 50_000, time.Second)
	c := &counter{}
	c.total.Store(1)
	if n, ok := counts.Kept(context.Background(), "k", now.Add(filter.CountCostFactor*time.Second-time.Millisecond), c.count); !ok || n != 50_000 {
		t.Fatalf("kept %d, %v", n, ok)
	}
	if c.calls.Load() != 0 {
		t.Fatal("counted again while fresh")
	}
}

func TestAFailedRecountKeepsTheTotalAndATotalFallenSmallIsNotKept(t *testing.T) {
	var counts filter.Counts
	now := time.Now()
	counts.Keep("k", now, 50_000, 0)
	failing := &counter{err: errors.New("database gone")}
	later := now.Add(filter.CountCacheTTL)
	if n, ok := counts.Kept(context.Background(), "k", later, failing.count); !ok || n != 50_000 {
		t.Fatalf("kept %d, %v", n, ok)
	}
	waitFor(t, "the failed recount", func() bool { return failing.calls.Load() == 1 })
	small := &counter{}
	small.total.Store(3)
	waitFor(t, "a total fallen small to be counted every time", func() bool {
		n, ok := counts.Kept(context.Background(), "k", later, small.count)
		return !ok || n != 50_000
	})
	if n, _ := counts.Total(context.Background(), "k", later, small.count); n != 3 {
		t.Fatalf("total %d, want 3", n)
	}
}
