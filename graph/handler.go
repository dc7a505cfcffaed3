package graph

import (
	"context"
	"errors"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/checkoutd/checkoutd/service"
)

const (
	// MaxComplexity bounds the work one query may ask for.
	MaxComplexity = 1000
	// MaxDepth bounds how deeply one query may nest selections.
	MaxDepth = 12
)

// Handler serves POST /graphql, and GraphiQL on GET for people.
func Handler(svc *service.Service) http.Handler {
	es := NewSchema(svc)
	srv := handler.New(es)
	srv.AddTransport(transport.POST{})
	srv.AddTransport(transport.GET{})
	srv.Use(extension.FixedComplexityLimit(MaxComplexity))
	srv.Use(depthLimit{max: MaxDepth})
	srv.Use(newOrderScope(es))
	srv.SetErrorPresenter(presentError)
	api := Authenticate(svc, withLoaders(svc.Reader(), srv))
	page := playground.Handler("checkoutd GraphQL", "/graphql")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Query().Get("query") == "" {
			page.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// presentError gives service errors the same code and type in extensions as REST gives them.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	var se *service.Error
	if errors.As(err, &se) {
		gerr.Message = se.Message
		gerr.Extensions = map[string]any{"code": se.Code, "type": se.Type, "status": se.Status, "details": se.Details}
	}
	return gerr
}

type depthLimit struct{ max int }

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = depthLimit{}

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (d depthLimit) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	if depth := selectionDepth(oc.Operation.SelectionSet, 0); depth > d.max {
		return &gqlerror.Error{Message: "query is nested too deeply", Extensions: map[string]any{"code": service.CodeValidation, "type": "graphql.depth_limit", "max_depth": d.max}}
	}
	return nil
}

func selectionDepth(set ast.SelectionSet, seen int) int {
	deepest := seen
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			d = selectionDepth(s.SelectionSet, seen+1)
		case *ast.InlineFragment:
			d = selectionDepth(s.SelectionSet, seen)
		case *ast.FragmentSpread:
			if s.Definition != nil {
				d = selectionDepth(s.Definition.SelectionSet, seen)
			}
		}
		if d > deepest {
			deepest = d
		}
	}
	return deepest
}
