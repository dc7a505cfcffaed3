package platform

import (
	"testing"
	"time"
)

func TestACachedValueIsUsedWhileFreshAndLoadedAgainAfter(t *testing.T) {
	var c FreshCache[string, int]
	now := time.Unix(1000, 0)
	clock := func() time.Time { return now }
	loads := 0
	load := func() (int, error) { loads++; return loads, nil }
	for _, step := range []struct {
		after time.Duration
		want  int
	}{{0, 1}, {CacheTTL - time.Millisecond, 1}, {time.Millisecond, 2}} {
		now = now.Add(step.after)
		if got, _ := c.Get("shop", clock, load); got != step.want {
			t.Fatalf("after %s: value %d, want %d", step.after, got, step.want)
		}
	}
}

func TestALoadThatAClearOvertakesIsNotKept(t *testing.T) {
	var c FreshCache[string, string]
	clock := func() time.Time { return time.Unix(1000, 0) }
	// The load reads the old value, and the write it missed clears the cache before it returns.
	got, _ := c.Get("shop", clock, func() (string, error) { c.Clear(); return "before the write", nil })
	if got != "before the write" {
		t.Fatalf("the load answered %q", got)
	}
	if got, _ := c.Get("shop", clock, func() (string, error) { return "after the write", nil }); got != "after the write" {
		t.Fatalf("the next read answered %q, kept from the overtaken load", got)
	}
}
