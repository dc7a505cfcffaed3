// Package graph serves GraphQL; resolvers translate to and from the service layer only.
package graph

import (
	"github.com/99designs/gqlgen/graphql"

	"github.com/checkoutd/checkoutd/graph/generated"
	"github.com/checkoutd/checkoutd/service"
)

// Resolver is the root resolver.
type Resolver struct {
	svc *service.Service
}

// NewSchema returns the executable schema.
func NewSchema(svc *service.Service) graphql.ExecutableSchema {
	c := generated.Config{Resolvers: &Resolver{svc: svc}}
	c.Complexity.Query.RemoteExchanges = remoteExchangesComplexity
	return withPages(generated.NewExecutableSchema(c))
}
