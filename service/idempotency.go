package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"time"

	"entgo.io/ent/dialect"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/idempotencykey"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

const (
	// IdempotencyKeyLifetime is how long a key replays its first answer.
	IdempotencyKeyLifetime = 24 * time.Hour
	// abandonedAfter is how long a key may stay running before a repeat takes it over: the call
	// that held it died (its process crashed), and the ledger lets the repeat resume its work.
	abandonedAfter = 2 * time.Minute
)

// Response is a front door's answer to a money-moving call, kept to be replayed byte for byte.
type Response struct {
	Status int
	Body   []byte
}

// final answers are replayed; the others (202 still settling, 5xx) are not, so that a repeat
// with the same key runs again and finishes the work from the ledger, exactly once.
func (r Response) final() bool { return r.Status < 500 && r.Status != http.StatusAccepted }

// Idempotent runs call at most once per shop and key, with Stripe's semantics: the same key and
// request within 24 hours replays the first final answer; the same key with another request is a
// 422; a repeat while the first is still running is a 409. Without a key, call just runs.
// request identifies the operation and its body (the path and the raw body do).
func (s *Service) Idempotent(ctx context.Context, sh *ent.Shop, key string, request []byte, call func(ctx context.Context, operationKey string) Response) (Response, error) {
	if key == "" {
		return call(ctx, platform.NewPublicID()), nil
	}
	if len(key) > 255 {
		return Response{}, problem.Validation("idempotency.invalid_key", "an idempotency key has at most 255 characters", map[string]any{"field": "Idempotency-Key"})
	}
	sum := sha256.Sum256(request)
	hash := hex.EncodeToString(sum[:])
	var replay *Response
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		now := s.clock()
		q := tx.IdempotencyKey.Query().Where(idempotencykey.ShopID(sh.ID), idempotencykey.Key(key))
		if s.db.Dialect == dialect.Postgres {
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
				replay = &Response{Status: row.ResponseStatus, Body: row.ResponseBody}
				return nil
			case now.Sub(row.CreatedAt) < abandonedAfter:
				return &problem.Error{Kind: problem.Conflict, Code: problem.CodeConflict, Type: "idempotency.in_progress",
					Message: "a request with this idempotency key is still running", Details: map[string]any{"field": "Idempotency-Key"}}
			}
		}
		if row != nil {
			if err := tx.IdempotencyKey.DeleteOne(row).Exec(ctx); err != nil {
				return err
			}
		}
		return tx.IdempotencyKey.Create().SetShopID(sh.ID).SetKey(key).SetRequestHash(hash).
			SetCreatedAt(now).SetExpiresAt(now.Add(IdempotencyKeyLifetime)).Exec(ctx)
	})
	if ent.IsConstraintError(err) {
		// Another request with this key inserted it first and is running.
		return Response{}, &problem.Error{Kind: problem.Conflict, Code: problem.CodeConflict, Type: "idempotency.in_progress",
			Message: "a request with this idempotency key is still running", Details: map[string]any{"field": "Idempotency-Key"}}
	}
	if err != nil {
		return Response{}, err
	}
	if replay != nil {
		return *replay, nil
	}
	res := call(ctx, sh.Identifier+":"+key)
	done := context.WithoutCancel(ctx)
	q := s.db.Client.IdempotencyKey.Update().Where(idempotencykey.ShopID(sh.ID), idempotencykey.Key(key))
	if res.final() {
		err = q.SetStatus(idempotencykey.StatusDone).SetResponseStatus(res.Status).SetResponseBody(res.Body).Exec(done)
	} else {
		_, err = s.db.Client.IdempotencyKey.Delete().Where(idempotencykey.ShopID(sh.ID), idempotencykey.Key(key)).Exec(done)
	}
	if err != nil {
		s.log.ErrorContext(ctx, "recording an idempotent answer failed", "error", err)
	}
	return res, nil
}
