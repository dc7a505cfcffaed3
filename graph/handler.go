package graph

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Option changes how Handler serves.
type Option func(*options)

type options struct {
	timeout       time.Duration
	introspection bool
	page          http.Handler
}

// WithRequestTimeout replaces RequestTimeout.
func WithRequestTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithIntrospection turns introspection (__schema and __type, which GraphiQL and code
// generators read the schema with) on or off; it is on unless turned off. Off, a document that
// asks for it is refused as graphql.introspection_disabled.
func WithIntrospection(on bool) Option { return func(o *options) { o.introspection = on } }

// WithGraphiQL serves page (GraphiQL, for people) to a GET that carries no query: a browser
// opening the endpoint.
func WithGraphiQL(page http.Handler) Option { return func(o *options) { o.page = page } }

// Handler serves GraphQL on POST and GET, and the page of WithGraphiQL on a GET without a query.
func Handler(svc *service.Service, opts ...Option) http.Handler {
	o := options{timeout: RequestTimeout, introspection: true}
	for _, opt := range opts {
		opt(&o)
	}
	es := NewSchema(svc)
	srv := handler.New(es)
	srv.AddTransport(transport.POST{})
	srv.AddTransport(transport.GET{})
	srv.SetParserTokenLimit(MaxTokens)
	srv.Use(documentLimits{introspection: o.introspection})
	if o.introspection {
		srv.Use(extension.Introspection{})
	}
	srv.Use(extension.FixedComplexityLimit(MaxComplexity))
	srv.Use(newOrderScope(es))
	srv.Use(filterBounds{})
	if p, ok := es.(pagedSchema); ok {
		srv.Use(pageBounds{paged: p.paged})
	}
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(recoverPanic)
	srv.AroundOperations(answerPastDeadline)
	api := limitRequest(o.timeout, Authenticate(svc, withLoaders(svc.Reader(), srv)))
	if o.page == nil {
		return api
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Query().Get("query") == "" {
			o.page.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// errInternal stands for a fault whose details are logged, not answered.
var errInternal = &problem.Error{Kind: problem.Internal, Code: problem.CodeInternal, Type: "server.internal_error", Message: "internal error"}

// presentError gives service errors the same code and type in extensions as REST gives them.
// The parser's and validator's own errors (which say what is wrong with the document) pass as
// they are; an argument that cannot be decoded is the client's error; anything else is a fault,
// logged and answered as an internal error without its message, as REST answers it.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	se, ok := problem.As(err)
	switch {
	case ctx.Err() != nil:
		// Whatever failed after the deadline (or after the client left) failed because of it.
		se = &problem.Error{Kind: problem.Unavailable, Code: problem.CodeInternal, Type: "request.timeout",
			Message: "the request took too long and was stopped"}
	case ok:
	case gerr.Unwrap() == nil:
		return gerr
	case badArgument(ctx):
		se = &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "request.invalid_argument",
			Message: "an argument has a value of the wrong form", Details: map[string]any{"field": gerr.Path.String()}}
	default:
		slog.ErrorContext(ctx, "graphql request failed", "path", gerr.Path.String(), "error", err)
		se = errInternal
	}
	gerr.Message = se.Message
	gerr.Extensions = map[string]any{"code": se.Code, "type": se.Type, "status": StatusOf(se.Kind), "details": se.Details}
	if id := platform.RequestID(ctx); id != "" {
		// The call's id, as REST carries it in details, so a reported failure finds its log lines.
		gerr.Extensions["request_id"] = id
	}
	return gerr
}

// statusOfKind is the HTTP status each kind of problem is reported with in extensions.status
// (the status REST answers it with): the one place GraphQL decides it.
var statusOfKind = map[problem.Kind]int{
	problem.Internal:      http.StatusInternalServerError,
	problem.Malformed:     http.StatusBadRequest,
	problem.Unauthorized:  http.StatusUnauthorized,
	problem.NotFound:      http.StatusNotFound,
	problem.NotAllowed:    http.StatusMethodNotAllowed,
	problem.Conflict:      http.StatusConflict,
	problem.TooLarge:      http.StatusRequestEntityTooLarge,
	problem.Unsupported:   http.StatusUnsupportedMediaType,
	problem.Invalid:       http.StatusUnprocessableEntity,
	problem.Unavailable:   http.StatusServiceUnavailable,
	problem.Rejected:      http.StatusBadRequest,
	problem.NotConfigured: http.StatusNotImplemented,
}

// StatusOf is the status GraphQL reports a problem of kind k with (docs/errors.md shows it).
func StatusOf(k problem.Kind) int {
	if s, ok := statusOfKind[k]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// badArgument reports whether the error being presented came from decoding the current field's
// arguments: gqlgen sets a field's arguments only once they all decode.
func badArgument(ctx context.Context) bool {
	fc := graphql.GetFieldContext(ctx)
	return fc != nil && fc.Args == nil && fc.Field.Field != nil && len(fc.Field.Arguments) > 0
}

// answerPastDeadline answers request.timeout when the request's deadline passed before its
// operation ran: gqlgen then answers nothing at all (a body of null).
func answerPastDeadline(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	responses := next(ctx)
	return func(ctx context.Context) *graphql.Response {
		if ctx.Err() == nil {
			if res := responses(ctx); res != nil || ctx.Err() == nil {
				return res
			}
		}
		return &graphql.Response{Errors: gqlerror.List{presentError(ctx, ctx.Err())}}
	}
}

// recoverPanic logs a resolver's panic with its stack; the client gets an internal error.
func recoverPanic(ctx context.Context, v any) error {
	slog.ErrorContext(ctx, "graphql resolver panicked", "panic", v, "stack", string(debug.Stack()))
	return errors.New("resolver panicked")
}
