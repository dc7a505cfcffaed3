package graph

import (
	"context"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/problem"
)

type callerKey struct{}

// caller is who a request acts for: a whole shop (access token) or one order (order JWT).
type caller struct {
	shop  *ent.Shop
	order *orders.OrderSession
	// err is why the credential was refused, so that an expired order JWT is answered as such.
	err error
}

// Authenticate reads the credential of the request and puts its caller in the context. An
// access token opens its shop; an order JWT (as "Bearer <jwt>" or bare, like the storefront REST
// API) opens exactly one order. An unauthenticated request still reaches GraphQL, where every
// field then refuses it.
func Authenticate(svc *service.Service, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cred := strings.TrimSpace(r.Header.Get("Authorization"))
		if len(cred) > 7 && strings.EqualFold(cred[:7], "bearer ") {
			cred = strings.TrimSpace(cred[7:])
		}
		var c caller
		switch {
		case cred == "":
		// Access tokens never hold a dot; a JWT always holds two.
		case strings.Count(cred, ".") == 2:
			c.order, c.err = svc.Orders.AuthenticateOrderToken(r.Context(), cred)
		default:
			c.shop, c.err = svc.Shops.ShopForToken(r.Context(), cred)
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, c)))
	})
}

func callerFrom(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// refusal is the error for a caller that may not do what it asked.
func (c caller) refusal() error {
	if _, ok := problem.As(c.err); ok {
		return c.err
	}
	return problem.ErrUnauthorized
}

// shopFrom is the access token's shop; an order JWT never opens shop-wide operations.
func shopFrom(ctx context.Context) (*ent.Shop, error) {
	c := callerFrom(ctx)
	if c.shop == nil {
		return nil, c.refusal()
	}
	return c.shop, nil
}

// orderSession opens one order for the caller: an access token any order of its shop, an order
// JWT only its own order. Another order is refused exactly like a bad token, so the answer says
// nothing about whether it exists.
func orderSession(ctx context.Context, svc *service.Service, publicOrderID string) (*orders.OrderSession, error) {
	c := callerFrom(ctx)
	switch {
	case c.order != nil && c.order.PublicOrderID() == publicOrderID:
		return c.order, nil
	case c.shop != nil:
		return svc.Orders.BackendOrderSession(ctx, c.shop, publicOrderID)
	}
	return nil, c.refusal()
}

// orderScope keeps an order JWT inside its order: a field that would reach any other object of
// the shop (the Shop itself, its configuration, its catalog, events, the payment ledger) through
// the order's edges is refused. hidden names the types a JWT may not read.
type orderScope struct{ hidden map[string]bool }

// newOrderScope hides every Node type but the order, its lines and its payments: what the
// storefront REST API shows of an order, and no more (not the gateway ledger either).
func newOrderScope(es graphql.ExecutableSchema) orderScope {
	visible := map[string]bool{"Order": true, "LineItem": true, "OrderPayment": true}
	hidden := map[string]bool{"Node": true}
	for name, def := range es.Schema().Types {
		for _, iface := range def.Interfaces {
			if iface == "Node" && !visible[name] {
				hidden[name] = true
			}
		}
	}
	return orderScope{hidden: hidden}
}

var _ interface {
	graphql.FieldInterceptor
	graphql.HandlerExtension
} = orderScope{}

func (orderScope) ExtensionName() string                   { return "OrderScope" }
func (orderScope) Validate(graphql.ExecutableSchema) error { return nil }

func (s orderScope) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	if c := callerFrom(ctx); c.shop == nil && c.order != nil {
		if fc := graphql.GetFieldContext(ctx); fc != nil && s.hidden[namedType(fc.Field.Definition)] {
			return nil, problem.ErrUnauthorized
		}
	}
	return next(ctx)
}

func namedType(def *ast.FieldDefinition) string {
	if def == nil || def.Type == nil {
		return ""
	}
	return def.Type.Name()
}
