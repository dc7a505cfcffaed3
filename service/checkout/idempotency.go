package checkout

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/idempotencykey"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

const (
	// IdempotencyKeyLifetime is how long a key replays its first outcome.
	IdempotencyKeyLifetime = 24 * time.Hour
	// abandonedAfter is how long a key may stay running before a repeat takes it over: the call
	// that held it died (its process crashed), and the ledger lets the repeat resume its work.
	abandonedAfter = 2 * time.Minute
)

// finality is implemented by results that may not be final yet: a money move a gateway has
// accepted without settling, a shopper who must act first. Other results are final.
type finality interface{ Final() bool }

// Idempotently runs call at most once per shop and key, with Stripe's semantics: the same key
// and request within 24 hours replays the first final outcome (the result, or the refusal); the
// same key with another request is refused (idempotency.key_reused); a repeat while the first
// is still running is a conflict (idempotency.in_progress). Without a key, call just runs.
// request identifies the operation and its arguments; every front door puts its own name in it.
//
// What is kept is the outcome itself, not a front door's rendering of it, so that each door
// renders a replay as it renders a fresh one. Outcomes that are not final are not kept: a
// result whose Final says no, an internal fault, a problem.Unavailable. A repeat then runs again
// and resumes the first call's ledger entries, which carry its operationKey.
func Idempotently[T any](ctx context.Context, s *Service, sh *ent.Shop, key string, request []byte,
	call func(ctx context.Context, operationKey string) (T, error)) (T, error) {
	var zero T
	if key == "" {
		return call(ctx, platform.NewPublicID())
	}
	if len(key) > 255 {
		return zero, problem.Validation("idempotency.invalid_key", "an idempotency key has at most 255 characters", map[string]any{"field": "Idempotency-Key"})
	}
	kept, err := s.claimIdempotencyKey(ctx, sh, key, request)
	if err != nil {
		return zero, err
	}
	if kept != nil {
		return replay[T](kept)
	}
	res, err := call(ctx, sh.Identifier+":"+key)
	s.keepOutcome(context.WithoutCancel(ctx), sh, key, res, err)
	return res, err
}

// claimIdempotencyKey inserts the key's row, running, before any work starts, or answers the
// row of an earlier call to replay. The check is not read-then-write: the row is unique per shop
// and key, and locked on PostgreSQL.
func (s *Service) claimIdempotencyKey(ctx context.Context, sh *ent.Shop, key string, request []byte) (*ent.IdempotencyKey, error) {
	sum := sha256.Sum256(request)
	hash := hex.EncodeToString(sum[:])
	var kept *ent.IdempotencyKey
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		now := s.p.Clock()
		q := tx.IdempotencyKey.Query().Where(idempotencykey.ShopID(sh.ID), idempotencykey.Key(key))
		if s.p.DB.Dialect == dialect.Postgres {
			q = q.ForUpdate()
		}
		row, err := q.Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return err
		}
		if row != nil && row.ExpiresAt.After(now) {
			switch {
			case row.RequestHash != hash:
				return &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "idempotency.key_reused",
					Message: "this idempotency key was used for another request", Details: map[string]any{"field": "Idempotency-Key"}}
			case row.Status == idempotencykey.StatusDone:
				kept = row
				return nil
			case now.Sub(row.CreatedAt) < abandonedAfter:
				// The call is still running unless its process's lease lapsed (it died).
				lapsed, err := s.p.LeaseLapsed(ctx, tx.Client(), row.Owner)
				if err != nil {
					return err
				}
				if !lapsed {
					return keyInProgress()
				}
			}
		}
		if row != nil {
			if err := tx.IdempotencyKey.DeleteOne(row).Exec(ctx); err != nil {
				return err
			}
		}
		return tx.IdempotencyKey.Create().SetShopID(sh.ID).SetKey(key).SetRequestHash(hash).SetOwner(s.p.LeaseID()).
			SetCreatedAt(now).SetExpiresAt(now.Add(IdempotencyKeyLifetime)).Exec(ctx)
	})
	if ent.IsConstraintError(err) {
		// Another request with this key inserted it first and is running.
		return nil, keyInProgress()
	}
	return kept, err
}

func keyInProgress() *problem.Error {
	return &problem.Error{Kind: problem.Conflict, Code: problem.CodeConflict, Type: "idempotency.in_progress",
		Message: "a request with this idempotency key is still running", Details: map[string]any{"field": "Idempotency-Key"}}
}

// keepOutcome marks the key done with a final outcome, or deletes it so that a repeat runs again.
func (s *Service) keepOutcome(ctx context.Context, sh *ent.Shop, key string, res any, callErr error) {
	update := s.p.DB.Client.IdempotencyKey.Update().Where(idempotencykey.ShopID(sh.ID), idempotencykey.Key(key)).SetStatus(idempotencykey.StatusDone)
	var kept []byte
	var err error
	// An internal fault and an Unavailable refusal are not final: the same call may succeed later.
	switch p, refused := problem.As(callErr); {
	case callErr == nil && isFinal(res):
		if kept, err = json.Marshal(res); err == nil {
			update.SetResult(string(kept))
		}
	case refused && p.Kind != problem.Internal && p.Kind != problem.Unavailable:
		// The refusal keeps the id of the call that made it: a replay answers it byte for byte,
		// pointing at the log lines that say why.
		details := p.Details
		if id := platform.RequestID(ctx); id != "" {
			details = make(map[string]any, len(p.Details)+1)
			for k, v := range p.Details {
				details[k] = v
			}
			details[problem.DetailRequestID] = id
		}
		if kept, err = json.Marshal(keptProblem[map[string]any]{p.Kind, p.Code, p.Type, p.Message, details}); err == nil {
			update.SetProblem(string(kept))
		}
	}
	if err != nil {
		s.p.Log.ErrorContext(ctx, "an idempotent outcome could not be encoded; a repeat runs again", "error", err)
		kept = nil
	}
	if kept != nil {
		err = update.Exec(ctx)
	} else {
		_, err = s.p.DB.Client.IdempotencyKey.Delete().Where(idempotencykey.ShopID(sh.ID), idempotencykey.Key(key)).Exec(ctx)
	}
	if err != nil {
		s.p.Log.ErrorContext(ctx, "recording an idempotent outcome failed", "error", err)
	}
}

func isFinal(res any) bool {
	f, ok := res.(finality)
	return !ok || f.Final()
}

// keptProblem is a refusal as a key keeps it: written with its details as values, read back with
// each detail's JSON.
type keptProblem[D any] struct {
	Kind    problem.Kind `json:"kind"`
	Code    string       `json:"code"`
	Type    string       `json:"type"`
	Message string       `json:"message"`
	Details D            `json:"details"`
}

// replay decodes a kept outcome. Numbers decode as json.Number, so that one renders as it did
// the first time (a float64 would turn 1000000 into 1e+06).
func replay[T any](row *ent.IdempotencyKey) (T, error) {
	var out T
	if row.Problem != nil {
		p, err := decodeProblem(*row.Problem)
		if err != nil {
			return out, err
		}
		return out, p
	}
	if row.Result == nil {
		return out, errors.New("idempotent replay: the key is done but keeps no outcome")
	}
	if err := decodeJSON(*row.Result, &out); err != nil {
		return out, errors.New("idempotent replay: unreadable kept result: " + err.Error())
	}
	return out, nil
}

// decodeProblem reads a kept refusal. A detail that is an object or an array keeps its first
// encoding (a struct's fields in their order, which a map would sort); strings, numbers and
// booleans come back as values, since front doors read some of them (details["field"]).
func decodeProblem(kept string) (*problem.Error, error) {
	var k keptProblem[map[string]json.RawMessage]
	if err := decodeJSON(kept, &k); err != nil {
		return nil, errors.New("idempotent replay: unreadable kept problem: " + err.Error())
	}
	p := &problem.Error{Kind: k.Kind, Code: k.Code, Type: k.Type, Message: k.Message}
	if k.Details != nil {
		p.Details = make(map[string]any, len(k.Details))
	}
	for name, raw := range k.Details {
		if len(raw) > 0 && (raw[0] == '{' || raw[0] == '[') {
			p.Details[name] = raw
			continue
		}
		var v any
		if err := decodeJSON(string(raw), &v); err != nil {
			return nil, errors.New("idempotent replay: unreadable kept problem: " + err.Error())
		}
		p.Details[name] = v
	}
	return p, nil
}

func decodeJSON(s string, v any) error {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	return d.Decode(v)
}
