package graph

import (
	"context"
	"net/http"
	"sync"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/lineitem"
	"github.com/checkoutd/checkoutd/ent/order"
	"github.com/checkoutd/checkoutd/ent/orderpayment"
)

// Orders listed through a connection (orders, shop.orders) arrive with their line items and
// payments already loaded: ent's collected fields eager-load each edge of a page in one query.
// Orders that reach a resolver one at a time (node, nodes) do not; for those, a loader batches
// every order of the request that asks for the same edge into one query.

type loadersKey struct{}

// loaders are one request's batching loaders, one per edge and field alias, since the alias names
// the edge an ent order holds.
type loaders struct {
	client *ent.Client
	mu     sync.Mutex
	byEdge map[string]*dataloadgen.Loader[int, *ent.Order]
	// remoteControl is the caller's shop's, read once for every order of the request.
	remoteControl remoteControlMemo
}

// withLoaders gives each request its own loaders, so nothing loaded outlives the request.
func withLoaders(client *ent.Client, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := &loaders{client: client, byEdge: map[string]*dataloadgen.Loader[int, *ent.Order]{}}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), loadersKey{}, l)))
	})
}

type orderEdge string

const (
	lineItemsEdge orderEdge = "lineItems"
	paymentsEdge  orderEdge = "payments"
)

// orderWithEdge returns an order whose edge is loaded under the field's alias: obj itself when a
// connection eager-loaded it, or when the field asks for a page, an order or a filter (which only
// ent's own query answers); otherwise obj as loaded in one batch with the request's other orders.
func orderWithEdge(ctx context.Context, obj *ent.Order, edge orderEdge, plain bool) (*ent.Order, error) {
	alias := graphql.GetFieldContext(ctx).Field.Alias
	var err error
	if edge == lineItemsEdge {
		_, err = obj.NamedLineItems(alias)
	} else {
		_, err = obj.NamedPayments(alias)
	}
	l, ok := ctx.Value(loadersKey{}).(*loaders)
	if err == nil || !plain || !ok {
		return obj, nil
	}
	return l.loader(edge, alias).Load(ctx, obj.ID)
}

func (l *loaders) loader(edge orderEdge, alias string) *dataloadgen.Loader[int, *ent.Order] {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := string(edge) + "." + alias
	if ld, ok := l.byEdge[key]; ok {
		return ld
	}
	ld := dataloadgen.NewMappedLoader(func(ctx context.Context, ids []int) (map[int]*ent.Order, error) {
		q := l.client.Order.Query().Where(order.IDIn(ids...))
		// Ordered by id, as ent's connections are by default, so both paths page alike.
		if edge == lineItemsEdge {
			q.WithNamedLineItems(alias, func(q *ent.LineItemQuery) { q.Order(lineitem.ByID()) })
		} else {
			q.WithNamedPayments(alias, func(q *ent.OrderPaymentQuery) { q.Order(orderpayment.ByID()) })
		}
		orders, err := q.All(ctx)
		if err != nil {
			return nil, err
		}
		out := make(map[int]*ent.Order, len(orders))
		for _, o := range orders {
			out[o.ID] = o
		}
		return out, nil
	})
	l.byEdge[key] = ld
	return ld
}
