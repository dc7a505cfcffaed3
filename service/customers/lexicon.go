package customers

import (
	"context"
	"strings"
	"sync"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/trigram"
)

// lexicon is SQLite's copy of customer_names in memory, by trigram: the names sharing a trigram
// with a word of a search, found without reading a row of the table for each (SQLite reads a
// row by its id for each of an index's matches, and "john" is inside some 700 names of a million
// customers'). SQLite is served by one process (docs/operations.md) whose writes commit one
// after another, and a name's id is one more than the last: before each search the names of a
// higher id than the copy's last are read, so the copy holds every name the search's own
// snapshot could.
type lexicon struct {
	mu     sync.RWMutex
	last   int64
	names  []lexiconName
	byGram map[string][]int32
}

// lexiconName is a name of customer_names and its kind (firstName, lastName).
type lexiconName struct{ kind, name string }

// topUp adds the names added since the last call.
func (l *lexicon) topUp(ctx context.Context, db *platform.Database) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	rows, err := db.Read.QueryContext(ctx, "SELECT id, kind, name FROM customer_names WHERE id > ? ORDER BY id", l.last)
	if err != nil {
		return err
	}
	defer rows.Close()
	if l.byGram == nil {
		l.byGram = map[string][]int32{}
	}
	for rows.Next() {
		var id int64
		var kind, name string
		if err := rows.Scan(&id, &kind, &name); err != nil {
			return err
		}
		n := int32(len(l.names))
		l.names = append(l.names, lexiconName{kind, name})
		for _, g := range trigram.Inner(strings.ToLower(name)) {
			l.byGram[g] = append(l.byGram[g], n)
		}
		l.last = id
	}
	return rows.Err()
}

// candidates are the names sharing one of grams, at most limit+1 of them.
func (l *lexicon) candidates(grams []string, limit int) []lexiconName {
	l.mu.RLock()
	defer l.mu.RUnlock()
	seen := map[int32]bool{}
	var out []lexiconName
	for _, g := range grams {
		for _, n := range l.byGram[g] {
			if seen[n] {
				continue
			}
			seen[n] = true
			if out = append(out, l.names[n]); len(out) > limit {
				return out
			}
		}
	}
	return out
}
