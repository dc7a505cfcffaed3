package service_test

import (
	"sync"
	"time"
)

// movableClock is a service clock that tests move by hand.
type movableClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *movableClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *movableClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
