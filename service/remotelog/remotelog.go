// Package remotelog is the support log of exchanges with the remote state authorities and API
// overrides (service/remote): the last calls to each, with what was sent, what came back, the
// latency and how each ended, for support to read in GraphQL and the console. It owns the
// remote_exchanges table.
//
// The remote client hands it every exchange while a shopper waits, so recording costs the
// shopper nothing but a copy: exchanges are queued in memory and written in the background,
// many to one insert, a short moment after the first of them. What a crash loses is that
// moment's exchanges, and a queue that is full (the database stopped answering) drops new ones
// and says so in the log; the checkout never waits for its support log.
package remotelog

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/remoteexchange"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/remote"
)

const (
	// MaxBody is how much of each body is kept: the beginning of a large order's state is
	// enough to tell what was asked and answered.
	MaxBody = 16 << 10
	// maxError bounds the error text kept.
	maxError = 1024
	// FlushDelay is how long an exchange waits in memory for others to share its insert.
	FlushDelay = 200 * time.Millisecond
	// batchSize bounds the exchanges of one insert (each row binds some fifteen parameters).
	batchSize = 100
	// maxQueued bounds the exchanges waiting in memory: past it new ones are dropped.
	maxQueued = 1000
)

// Service keeps the exchange log. It is a remote.Recorder.
type Service struct {
	p     *platform.Platform
	delay time.Duration

	mu       sync.Mutex
	queued   []*ent.RemoteExchangeCreate
	flushing bool
	dropped  int

	// writing is held while a batch is taken from the queue and written, so that Flush returns
	// only once everything recorded before it is in the table.
	writing sync.Mutex
}

var _ remote.Recorder = (*Service)(nil)

// New returns the log and registers its retention rule.
func New(p *platform.Platform) *Service {
	s := &Service{p: p, delay: FlushDelay}
	p.Jobs.AddRetention(s.retentionRule())
	return s
}

// Record queues ex for the log; it never waits for the database.
func (s *Service) Record(_ context.Context, ex remote.Exchange) {
	row := s.rowOf(ex)
	s.mu.Lock()
	if len(s.queued) >= maxQueued {
		s.dropped++
		s.mu.Unlock()
		return
	}
	s.queued = append(s.queued, row)
	start := !s.flushing
	s.flushing = true
	s.mu.Unlock()
	if start {
		go s.flushSoon()
	}
}

// flushSoon writes the queue after the delay: full batches back to back, and after a batch
// that was not full (what came in while the last one was written) the delay again, so that
// under a steady load each insert carries many exchanges rather than the few of one moment;
// the next Record after the queue is found empty starts another. The writes belong to no
// request: a shopper who left does not cancel them.
func (s *Service) flushSoon() {
	for {
		time.Sleep(s.delay)
		for {
			n := s.writeBatch(context.Background())
			if n == 0 {
				return
			}
			if n < batchSize {
				break
			}
		}
	}
}

// Flush writes every exchange recorded so far (shutdown, and tests that read the log at once),
// within ctx.
func (s *Service) Flush(ctx context.Context) {
	for s.writeBatch(ctx) > 0 {
	}
}

// writeBatch writes up to batchSize queued exchanges in one insert, and answers how many it
// took. When the queue is empty it ends the background flush.
func (s *Service) writeBatch(ctx context.Context) int {
	s.writing.Lock()
	defer s.writing.Unlock()
	s.mu.Lock()
	n := min(len(s.queued), batchSize)
	batch := s.queued[:n:n]
	s.queued = s.queued[n:]
	if n == 0 {
		s.queued = nil
		s.flushing = false
	}
	dropped := s.dropped
	s.dropped = 0
	s.mu.Unlock()
	if dropped > 0 {
		s.p.Log.Warn("remote exchange log: queue full, exchanges not kept", "dropped", dropped)
	}
	if n == 0 {
		return 0
	}
	if err := s.insert(ctx, batch); err != nil && !s.p.DB.Closed() {
		s.p.Log.Error("remote exchange log: writing exchanges", "count", n, "error", err)
	}
	return n
}

// insert writes rows in one statement. It is written from their mutations rather than by ent's
// bulk create, which asks the database for the new rows' ids (RETURNING, read back row by row):
// the log needs none, and on SQLite, where this insert shares the one writer with every
// checkout, reading them back was a third of its cost.
func (s *Service) insert(ctx context.Context, rows []*ent.RemoteExchangeCreate) error {
	columns := remoteexchange.Columns[1:] // all but the id, which the database gives
	ins := entsql.Dialect(s.p.DB.Dialect).Insert(remoteexchange.Table).Columns(columns...)
	for _, r := range rows {
		values := make([]any, len(columns))
		for i, c := range columns {
			if v, set := r.Mutation().Field(c); set {
				values[i] = v
			}
		}
		ins.Values(values...)
	}
	query, args := ins.Query()
	_, err := s.p.DB.Client.ExecContext(ctx, query, args...)
	return err
}

// rowOf is the row ex is kept as: the bodies bounded, the URL without what may carry a
// credential (user information, query string), texts made storable by both databases.
func (s *Service) rowOf(ex remote.Exchange) *ent.RemoteExchangeCreate {
	c := s.p.DB.Client.RemoteExchange.Create().
		SetShopID(ex.ShopID).
		SetKind(bounded(ex.Kind, 16)).
		SetCall(bounded(ex.Call, 64)).
		SetPublicOrderID(bounded(ex.PublicOrderID, 64)).
		SetURL(bounded(URLOf(ex.URL), 2048)).
		SetAt(ex.At).
		SetRequestBody(bounded(string(ex.Request), MaxBody)).
		SetRequestSize(len(ex.Request)).
		SetResponseBody(bounded(string(ex.Answer), MaxBody)).
		SetResponseSize(len(ex.Answer)).
		SetLatencyMs(int(ex.Latency.Milliseconds())).
		SetOutcome(bounded(string(ex.Outcome), 16))
	if ex.At.IsZero() {
		c.SetAt(s.p.Clock())
	}
	if ex.Status != 0 {
		c.SetStatusCode(ex.Status)
	}
	if ex.Error != "" {
		msg := ex.Error
		if ex.URL != "" {
			// Errors of net/http quote the URL whole.
			msg = strings.ReplaceAll(msg, ex.URL, URLOf(ex.URL))
		}
		c.SetError(bounded(msg, maxError))
	}
	return c
}

// URLOf is a called URL as the log keeps it: scheme, host and path.
func URLOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// bounded is the first max bytes of v, cut at a character, as valid UTF-8 without NUL
// (PostgreSQL's text holds neither invalid UTF-8 nor NUL).
func bounded(v string, max int) string {
	if !utf8.ValidString(v) {
		v = strings.ToValidUTF8(v, "\uFFFD")
	}
	v = strings.ReplaceAll(v, "\x00", "")
	if len(v) <= max {
		return v
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut]
}
