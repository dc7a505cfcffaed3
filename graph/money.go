package graph

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/problem"
)

// idempotentResult runs a money-moving mutation under the caller's idempotency key with the
// service's semantics (replay, 422 for another request, 409 while running): results and
// refusals are kept gob-encoded (so that fields REST does not show, like pending, survive),
// and a pending result is not kept, so that a repeat finishes it.
func idempotentResult[T any](ctx context.Context, svc *service.Service, sess *service.OrderSession, key *string, request string,
	call func(ctx context.Context, operationKey string) (*T, bool, error)) (*T, error) {
	k := ""
	if key != nil {
		k = *key
	}
	var direct *T
	var directErr error
	res, err := svc.Idempotent(ctx, sess.Shop, k, []byte("graphql "+request), func(ctx context.Context, operationKey string) service.Response {
		out, pending, err := call(ctx, operationKey)
		direct, directErr = out, err
		var buf bytes.Buffer
		se, isServiceErr := problem.As(err)
		switch {
		case err != nil && !isServiceErr:
			return service.Response{Status: http.StatusInternalServerError}
		case err != nil:
			_ = gob.NewEncoder(&buf).Encode(se)
			return service.Response{Status: StatusOf(se.Kind), Body: buf.Bytes()}
		case pending:
			return service.Response{Status: http.StatusAccepted}
		}
		_ = gob.NewEncoder(&buf).Encode(out)
		return service.Response{Status: http.StatusOK, Body: buf.Bytes()}
	})
	switch {
	case err != nil:
		return nil, err
	case direct != nil || directErr != nil:
		return direct, directErr
	case res.Status != http.StatusOK:
		var se problem.Error
		if gob.NewDecoder(bytes.NewReader(res.Body)).Decode(&se) != nil {
			return nil, errors.New("idempotent replay: unreadable stored refusal")
		}
		return nil, &se
	}
	var out T
	if err := gob.NewDecoder(bytes.NewReader(res.Body)).Decode(&out); err != nil {
		return nil, errors.New("idempotent replay: unreadable stored result")
	}
	return &out, nil
}

// backOfficeSession opens an order for a money mutation: only the shop's access token may move
// money, never an order JWT.
func backOfficeSession(ctx context.Context, svc *service.Service, publicOrderID string) (*service.OrderSession, error) {
	sh, err := shopFrom(ctx)
	if err != nil {
		return nil, err
	}
	return svc.BackendOrderSession(ctx, sh, publicOrderID)
}

func init() {
	// Details of stored refusals hold JSON-like values.
	gob.Register(map[string]any{})
	gob.Register([]any{})
	gob.Register([]service.MoneyTransaction{})
	gob.Register([]service.RefundTransaction{})
}

// requestKey identifies a mutation and its arguments for the idempotency check.
func requestKey(mutation, publicOrderID string, input any) string {
	raw, _ := json.Marshal(input)
	return mutation + " " + publicOrderID + " " + string(raw)
}
