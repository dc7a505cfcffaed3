package override

import (
	"context"
	"sync"
)

// memo keeps the answers of the overrides one shopper request called, by override: a request
// that needs an override's answer for several fields calls it once.
type memo struct {
	mu      sync.Mutex
	answers map[string]*memoEntry
}

type memoEntry struct {
	once sync.Once
	raw  []byte
	err  error
}

type memoKey struct{}

// WithMemo gives ctx a memo of override answers for the request it carries, unless it has one.
func WithMemo(ctx context.Context) context.Context {
	if _, ok := ctx.Value(memoKey{}).(*memo); ok {
		return ctx
	}
	return context.WithValue(ctx, memoKey{}, &memo{})
}

// WithNewMemo gives ctx a memo of its own, whatever it had: for asking again about an order
// that changed since the earlier memo's answers.
func WithNewMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, &memo{})
}

// memoized calls call once per remote per memo; without a memo in ctx, every time.
func memoized(ctx context.Context, remote string, call func() ([]byte, error)) ([]byte, error) {
	m, ok := ctx.Value(memoKey{}).(*memo)
	if !ok {
		return call()
	}
	m.mu.Lock()
	if m.answers == nil {
		m.answers = map[string]*memoEntry{}
	}
	e := m.answers[remote]
	if e == nil {
		e = &memoEntry{}
		m.answers[remote] = e
	}
	m.mu.Unlock()
	e.once.Do(func() { e.raw, e.err = call() })
	return e.raw, e.err
}
