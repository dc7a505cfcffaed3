package connector

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"time"
	"unicode/utf8"

	"entgo.io/ent/dialect"
	"github.com/riverqueue/river"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/connectorcall"
	"github.com/checkoutd/checkoutd/ent/destination"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Connector calls. A change that the platform must hear about writes a call and the queue job
// that sends it, in the change's transaction: the call is as durable as the change. The job
// sends it signed, with the destination's timeout and the call's Idempotency-Key; a 2xx ends it,
// a definite refusal (a 4xx other than 408, 409, 425, 429) fails it at once, anything else (no
// answer, a 5xx) is retried after a wait that doubles from the retry base, until the attempts
// run out. Each attempt is logged; the transaction that logs one writes the job of the next, so
// a job whose Seq is behind its call (a copy the queue rescued from a killed process after that
// commit) does nothing.

const (
	// DefaultRetryBase is the wait before a call's first retry.
	DefaultRetryBase = 10 * time.Second
	// DefaultMaxAttempts is the first attempt and 19 retries: with the 10 s base the waits
	// double to an hour and stay there, about 12 hours in all, so that a platform down for a
	// morning does not fail the orders paid meanwhile.
	DefaultMaxAttempts = 20
	maxRetryWait       = time.Hour
	// maxLoggedAnswer is how much of an answer the log keeps.
	maxLoggedAnswer = 2048
)

// callArgs is the queue job of one attempt of a call; Replay makes one attempt, no retries.
type callArgs struct {
	CallID int  `json:"call_id"`
	Seq    int  `json:"seq"`
	Replay bool `json:"replay,omitempty"`
}

func (callArgs) Kind() string { return "connector_call" }

func (callArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: platform.QueuePlatform} }

type callWorker struct {
	river.WorkerDefaults[callArgs]
	s *Service
}

// Timeout lets a call take its destination's longest timeout, and the writes after it.
func (*callWorker) Timeout(*river.Job[callArgs]) time.Duration { return MaxTimeout + 5*time.Second }

func (w *callWorker) Work(ctx context.Context, job *river.Job[callArgs]) error {
	return w.s.attemptCall(ctx, job.Args)
}

// retryWait is the wait before retry number retry, give or take 10%.
func (s *Service) retryWait(retry int) time.Duration {
	w := min(s.retryBase<<min(max(retry-1, 0), 16), maxRetryWait)
	return time.Duration(float64(w) * (0.9 + 0.2*rand.Float64()))
}

// newCall is a call to write in tx.
type newCall struct {
	shopID      int
	destination *ent.Destination
	orderID     *int
	operation   string
	method      string
	path        string
	body        any
}

// enqueue writes call c and the job of its first attempt in tx.
func (s *Service) enqueue(ctx context.Context, tx *ent.Tx, c newCall) (*ent.ConnectorCall, error) {
	body, err := json.Marshal(c.body)
	if err != nil {
		return nil, err
	}
	now := s.p.Clock()
	call, err := tx.ConnectorCall.Create().SetShopID(c.shopID).SetDestinationID(c.destination.ID).SetNillableOrderID(c.orderID).
		SetTopic(connectorcall.Topic(c.destination.Topic)).SetOperation(c.operation).SetMethod(c.method).SetPath(c.path).
		SetIdempotencyKey(platform.NewPublicID()).SetRequestBody(string(body)).SetNextAttemptAt(now).
		SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
	if err != nil {
		return nil, err
	}
	return call, s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{{Args: callArgs{CallID: call.ID}}})
}

// outcome is what one attempt came to.
type outcome struct {
	answer  *Answer
	err     error
	latency time.Duration
}

func (o outcome) succeeded() bool {
	return o.err == nil && o.answer.Succeeded()
}

// definite reports a refusal that a retry cannot change.
func (o outcome) definite() bool {
	if o.err != nil {
		if ce, ok := o.err.(*CallError); ok {
			return ce.Refused
		}
		return false
	}
	return o.answer.Definite()
}

// attemptCall is one run of a call's job.
func (s *Service) attemptCall(ctx context.Context, args callArgs) error {
	c, err := s.p.DB.Read.ConnectorCall.Get(ctx, args.CallID)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.Status != connectorcall.StatusPending || c.AttemptCount != args.Seq {
		return nil // a second run of a job whose attempt is already recorded
	}
	d, err := s.p.DB.Read.Destination.Query().Where(destination.ID(c.DestinationID)).Only(ctx)
	if err != nil {
		return err
	}
	sh, err := s.p.DB.Read.Shop.Get(ctx, c.ShopID)
	if err != nil {
		return err
	}
	var o outcome
	switch {
	case d.DeletedAt != nil:
		o.err = &CallError{Refused: true, Err: errString("the destination was deleted")}
	case sh.SharedSecret == "":
		o.err = &CallError{Refused: true, Err: errString("the shop has no shared secret to sign with")}
	default:
		start := time.Now()
		o.answer, o.err = s.client.Do(ctx, Call{Operation: c.Operation, Base: BaseURL(d.Destination, d.Version, sh.Identifier), Path: c.Path, Method: c.Method,
			Secret: []byte(sh.SharedSecret), Timeout: time.Duration(d.TimeoutMs) * time.Millisecond, IdempotencyKey: c.IdempotencyKey,
			Body: json.RawMessage(c.RequestBody)})
		o.latency = time.Since(start)
	}
	// The outcome is recorded even when the job's context ended during the call.
	return s.recordAttempt(context.WithoutCancel(ctx), sh, c, args, o)
}

type errString string

func (e errString) Error() string { return string(e) }

// clip is the beginning of an answer, cut on a character boundary.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	b = b[:n]
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return string(b)
}

// recordAttempt logs one attempt of call c (as read before it was sent) and moves it on:
// succeeded (and what its operation does with the answer), failed (a definite refusal, attempts
// used up, or a replay's one attempt, and what its operation does then), or pending with the job
// of its next attempt written. The call is claimed by a conditional UPDATE: a second run of the
// same job changes nothing.
func (s *Service) recordAttempt(ctx context.Context, sh *ent.Shop, c *ent.ConnectorCall, args callArgs, o outcome) error {
	return s.p.InTx(ctx, func(tx *ent.Tx) error {
		now := s.p.Clock()
		attempt := tx.ConnectorAttempt.Create().SetCallID(c.ID).SetAttemptedAt(now).SetLatencyMs(int(o.latency.Milliseconds())).SetReplay(args.Replay)
		update := tx.ConnectorCall.Update().Where(connectorcall.ID(c.ID), connectorcall.StatusEQ(connectorcall.StatusPending),
			connectorcall.AttemptCount(args.Seq)).AddAttemptCount(1).AddRoundAttempts(1).SetUpdatedAt(now)
		failure := ""
		if o.answer != nil {
			body := clip(o.answer.Body, maxLoggedAnswer)
			attempt.SetStatusCode(o.answer.Status).SetResponseBody(body)
			update.SetLastStatusCode(o.answer.Status).SetResponseBody(body)
			if !o.succeeded() {
				failure = o.answer.Said()
			}
		} else {
			update.ClearLastStatusCode().SetResponseBody("")
			failure = o.err.Error()
		}
		var effect func() error
		if o.succeeded() {
			var err error
			if effect, err = s.succeeded(ctx, tx, sh, c, o.answer); err != nil {
				failure = err.Error() // an answer the operation cannot use: asked again
			}
		}
		status, wait := connectorcall.StatusPending, time.Duration(0)
		switch {
		case failure == "":
			status = connectorcall.StatusSucceeded
			update.SetStatus(status).SetSucceededAt(now).ClearNextAttemptAt().ClearLastError()
		case args.Replay || o.definite() || c.RoundAttempts+1 >= s.maxAttempts:
			status = connectorcall.StatusFailed
			update.SetStatus(status).SetFailedAt(now).ClearNextAttemptAt().SetLastError(failure)
		default:
			wait = s.retryWait(c.RoundAttempts + 1)
			update.SetNextAttemptAt(now.Add(wait)).SetLastError(failure)
		}
		if failure != "" {
			attempt.SetError(failure)
		}
		if n, err := update.Save(ctx); err != nil || n == 0 {
			return err // n == 0: the attempt is already recorded
		}
		if err := attempt.Exec(ctx); err != nil {
			return err
		}
		switch status {
		case connectorcall.StatusSucceeded:
			return effect()
		case connectorcall.StatusFailed:
			return s.failed(ctx, tx, sh, c, failure)
		}
		next := river.InsertManyParams{Args: callArgs{CallID: c.ID, Seq: c.AttemptCount + 1},
			InsertOpts: &river.InsertOpts{ScheduledAt: time.Now().Add(wait)}}
		return s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{next})
	})
}

// succeeded reads a 2xx answer of c's operation and returns what to do with it in the
// attempt's transaction, or why the answer cannot be used.
func (s *Service) succeeded(ctx context.Context, tx *ent.Tx, sh *ent.Shop, c *ent.ConnectorCall, a *Answer) (func() error, error) {
	switch c.Operation {
	case OperationCreateOrder:
		return s.orderCreated(ctx, tx, sh, c, a)
	case OperationCreateAddress:
		return s.addressCreated(ctx, tx, sh, c, a)
	case OperationUpdateCustomer:
		return s.customerUpdated(ctx, tx, sh, c, a)
	}
	return func() error { return nil }, nil
}

// failed is what a call's operation does once the call failed for good.
func (s *Service) failed(ctx context.Context, tx *ent.Tx, sh *ent.Shop, c *ent.ConnectorCall, reason string) error {
	switch c.Operation {
	case OperationCreateOrder:
		return s.orderCreationFailed(ctx, tx, sh, c, reason)
	}
	return nil
}

func callNotFound() *problem.Error {
	return problem.NotFoundError("connector_call.not_found", "no connector call with that id")
}

// ReplayCall sends a call that succeeded or failed once more, as one new attempt under the same
// Idempotency-Key.
func (s *Service) ReplayCall(ctx context.Context, sh *ent.Shop, id int) (*ent.ConnectorCall, error) {
	var out *ent.ConnectorCall
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		q := tx.ConnectorCall.Query().Where(connectorcall.ShopID(sh.ID), connectorcall.ID(id))
		if s.p.DB.Dialect == dialect.Postgres {
			q = q.ForUpdate()
		}
		c, err := q.Only(ctx)
		if ent.IsNotFound(err) {
			return callNotFound()
		}
		if err != nil {
			return err
		}
		if c.IdempotencyKey == "" {
			return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "connector_call.not_replayable",
				Message: "the call was made while its caller waited (" + c.Operation + "): there is nothing to send again"}
		}
		if c.Status == connectorcall.StatusPending {
			return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "connector_call.in_progress",
				Message: "the call is still being attempted; replay it once it has succeeded or failed",
				Details: map[string]any{"next_attempt_at": c.NextAttemptAt}}
		}
		now := s.p.Clock()
		if err := tx.ConnectorCall.UpdateOne(c).SetStatus(connectorcall.StatusPending).SetRoundAttempts(0).SetNextAttemptAt(now).
			ClearFailedAt().SetUpdatedAt(now).Exec(ctx); err != nil {
			return err
		}
		if err := s.p.Jobs.InsertTx(ctx, tx, []river.InsertManyParams{{Args: callArgs{CallID: c.ID, Seq: c.AttemptCount, Replay: true}}}); err != nil {
			return err
		}
		out, err = tx.ConnectorCall.Query().Where(connectorcall.ID(c.ID)).
			WithAttempts(func(q *ent.ConnectorAttemptQuery) { q.Order(ent.Asc("id")) }).Only(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out.Unwrap(), nil
}

// Calls is the shop's connector call log, newest first, for the caller to page through.
func (s *Service) Calls(sh *ent.Shop) *ent.ConnectorCallQuery {
	return s.p.DB.Read.ConnectorCall.Query().Where(connectorcall.ShopID(sh.ID))
}
