package customers

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/trigram"
)

// lexicon is this process's copy of customer_names in memory, by trigram: the names sharing a
// trigram with a word of a search, found without the database reading a row for each ("john"
// is inside some 700 names of a million customers', and a search reads two such words).
// Before each search it is topped up with the names of a higher id than its last, and with
// those of the ids it has not seen below its last (gaps): on PostgreSQL a name's id is taken
// when its transaction inserts it, and another process's transaction may commit a lower id
// after this one read a higher. A gap is asked for until gapWait has passed (customers' writes
// are short transactions; an id taken by a transaction that rolled back, or by an insert that
// met the name already there, never comes). On SQLite, whose commits are serial, there are none.
//
// The copy holds no pointer for each name (its texts and trigrams are slices of two arrays), so
// that the garbage collector, which marks every pointer of the heap, does not walk a million
// of them at each cycle.
//
// Searches read the copy together (mu); a top-up reads the database while searches go on, and
// holds them only to add what it read. One top-up runs at a time (topping), and a search whose
// turn comes after a top-up that began once it was asked needs none of its own: that one's
// snapshot holds every name this search's could.
type lexicon struct {
	// topping is held by the top-up under way; it guards last, gaps and toppedAt.
	topping sync.Mutex
	last    int64
	// gaps are the ids below last not seen yet, with when each was first missed.
	gaps map[int64]time.Time
	// toppedAt is when the last top-up that succeeded began.
	toppedAt time.Time

	// mu guards the copy itself.
	mu    sync.RWMutex
	names []lexiconName
	// text and grams hold every name's text and trigram.Set, one after another.
	text   []byte
	grams  trigram.Set
	byGram map[string][]int32
}

// lexiconName is a name of customer_names: where its text and its trigrams are, and its kind.
type lexiconName struct {
	text, grams       uint32
	textLen, gramsLen uint16
	last              bool
}

const (
	// gapWait is how long an id missing below the lexicon's last is asked for.
	gapWait = 10 * time.Minute
	// maxGaps is how far below the last id read a missing one is asked for, and how many are.
	maxGaps = 1000
)

// topUp adds the names committed since the last call.
func (l *lexicon) topUp(ctx context.Context, db *platform.Database) error {
	asked := time.Now()
	l.topping.Lock()
	defer l.topping.Unlock()
	if l.toppedAt.After(asked) {
		return nil
	}
	now := time.Now()
	ids := make([]any, 0, len(l.gaps))
	for id, since := range l.gaps {
		if now.Sub(since) > gapWait {
			delete(l.gaps, id)
			continue
		}
		ids = append(ids, id)
	}
	where := sql.GT("id", l.last)
	if len(ids) > 0 {
		where = sql.Or(where, sql.In("id", ids...))
	}
	query, args := sql.Dialect(db.Dialect).Select("id", "kind", "name").From(sql.Table("customer_names")).Where(where).OrderBy("id").Query()
	rows, err := db.Read.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if l.gaps == nil {
		l.gaps = map[int64]time.Time{}
	}
	type read struct{ kind, name string }
	var names []read
	// The ids missing between the names read, in order; only those near the last read can
	// belong to a transaction still open (older gaps are ids never used, as are those below
	// the first load's names).
	var missing, came []int64
	last := l.last
	near := func(id int64) bool { return id >= last-maxGaps }
	for rows.Next() {
		var id int64
		var r read
		if err := rows.Scan(&id, &r.kind, &r.name); err != nil {
			return err
		}
		names = append(names, r)
		if id <= last {
			came = append(came, id)
			continue
		}
		for m := max(last+1, id-maxGaps); m < id; m++ {
			missing = append(missing, m)
		}
		last = id
		if len(missing) > 2*maxGaps {
			// In order: the near ones are among the last maxGaps.
			missing = missing[len(missing)-maxGaps:]
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range came {
		delete(l.gaps, id)
	}
	for _, m := range missing {
		if near(m) && len(l.gaps) < maxGaps {
			l.gaps[m] = now
		}
	}
	if len(names) > 0 {
		l.mu.Lock()
		if l.byGram == nil {
			l.byGram = map[string][]int32{}
		}
		for _, r := range names {
			l.add(r.kind, r.name)
		}
		l.mu.Unlock()
	}
	l.last, l.toppedAt = last, now
	return nil
}

// add adds a name. A name longer than a customer's name can be (input.MaxShortText characters)
// is left out: its length would not fit the copy's.
func (l *lexicon) add(kind, name string) {
	grams := trigram.SetOf(name)
	if len(name) > math.MaxUint16 || len(grams) > math.MaxUint16 {
		return
	}
	n := int32(len(l.names))
	l.names = append(l.names, lexiconName{text: uint32(len(l.text)), textLen: uint16(len(name)),
		grams: uint32(len(l.grams)), gramsLen: uint16(len(grams)), last: kind == lastName})
	l.text, l.grams = append(l.text, name...), append(l.grams, grams...)
	for _, g := range trigram.Inner(strings.ToLower(name)) {
		l.byGram[g] = append(l.byGram[g], n)
	}
}

// alike are the names spelt like word (SimilarityThreshold or more) among those sharing one of
// the trigrams inside it (trigram.Inner); tooMany when more than limit share one.
func (l *lexicon) alike(word string, limit int) (alike alikeNames, tooMany bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var candidates []int32
	for _, g := range trigram.Inner(word) {
		candidates = append(candidates, l.byGram[g]...)
		if len(candidates) > 2*limit {
			// Made distinct as it goes, so that a word of common trigrams holds no more.
			slices.Sort(candidates)
			if candidates = slices.Compact(candidates); len(candidates) > limit {
				return alike, true
			}
		}
	}
	slices.Sort(candidates)
	if candidates = slices.Compact(candidates); len(candidates) > limit {
		return alike, true
	}
	w := trigram.SetOf(word)
	for _, n := range candidates {
		c := &l.names[n]
		if w.Similarity(l.grams[c.grams:c.grams+uint32(c.gramsLen)]) < SimilarityThreshold {
			continue
		}
		name := string(l.text[c.text : c.text+uint32(c.textLen)])
		if c.last {
			alike.last = append(alike.last, name)
		} else {
			alike.first = append(alike.first, name)
		}
	}
	return alike, false
}
