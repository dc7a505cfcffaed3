package graph

import (
	"context"
	"encoding/json"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/checkout"
	"github.com/checkoutd/checkoutd/service/orders"
)

// idempotent runs a money-moving mutation under the caller's idempotency key with the service's
// one mechanism: a replay answers the first result or refusal.
func idempotent[T any](ctx context.Context, svc *service.Service, sess *orders.OrderSession, key *string, request string,
	call func(ctx context.Context, operationKey string) (T, error)) (T, error) {
	k := ""
	if key != nil {
		k = *key
	}
	return checkout.Idempotently(ctx, svc.Checkout, sess.Shop, k, []byte("graphql "+request), call)
}

// backOfficeSession opens an order for a money mutation: only the shop's access token may move
// money, never an order JWT.
func backOfficeSession(ctx context.Context, svc *service.Service, publicOrderID string) (*orders.OrderSession, error) {
	sh, err := shopFrom(ctx)
	if err != nil {
		return nil, err
	}
	return svc.Orders.BackendOrderSession(ctx, sh, publicOrderID)
}

// requestKey identifies a mutation and its arguments for the idempotency check.
func requestKey(mutation, publicOrderID string, input any) string {
	raw, _ := json.Marshal(input)
	return mutation + " " + publicOrderID + " " + string(raw)
}

// processOutcome is what processOrder keeps under its idempotency key: only that the order was
// processed, since a replay reads the order as it stands. An outcome that asks the shopper to act
// is not final, so it is never kept and a repeat processes anew, as on REST.
type processOutcome struct {
	view           *orders.OrderView
	requiresAction *ent.OrderPayment
}

func (p *processOutcome) Final() bool { return p.requiresAction == nil }
