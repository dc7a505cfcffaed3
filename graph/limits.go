package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/problem"
)

// Limits on one GraphQL request (docs/api.md, "GraphQL limits"). gqlparser's validator and
// gqlgen's complexity and field collection walk a fragment again at every spread of it, and the
// rule that fields can be merged compares the fields of one response name pairwise; so a small
// document can ask for exponential or quadratic work. Every limit below is checked on the parsed
// document in time linear in its size (each fragment is measured once), before the validator or
// anything else walks it. The largest document this repository sends (the demo's
// web/demo/static/operations.graphql) and GraphiQL's introspection query stay far below each.
//
// Introspection (the fields below __schema and __type) answers from the schema in memory, and
// is measured like any other selection but for two rules of its own: a chain of ofType, each link
// one object, is how a type reference spells its List and NonNull wrappers, so it does not count
// towards MaxDepth (the standard introspection query nests ofType nine deep); and the lists that
// lead from one type to others (fields, inputFields, interfaces, possibleTypes), which multiply
// the answer by the schema's size at each level, nest at most MaxIntrospectionLists deep.
// gqlgen's complexity leaves __schema out, so this bound is the one the answer's size has.
const (
	// MaxRequestBytes bounds the body of a POST (and the query string of a GET): a quarter of a
	// typical document is whitespace, and 64 KiB is some thirty times the demo's whole document.
	MaxRequestBytes = 64 << 10
	// MaxTokens bounds the tokens (names, punctuation, values) the parser reads in one document.
	MaxTokens = 10_000
	// MaxFragments bounds the fragment definitions in one document.
	MaxFragments = 100
	// MaxFields bounds the fields of the whole document once every fragment spread is replaced by
	// its fragment, counting each operation and each fragment definition on its own.
	MaxFields = 5_000
	// MaxSelectionFields bounds the fields of one selection set, fragments and inline fragments
	// included.
	MaxSelectionFields = 200
	// MaxRepeatedField bounds how often one response name (a field's alias, or its name) appears
	// in one selection set, fragments included: the fields of one name are compared pairwise.
	MaxRepeatedField = 20
	// MaxAliases bounds the aliased fields of the document, fragments expanded as for MaxFields.
	MaxAliases = 100
	// MaxComplexity bounds the work one query may ask for (gqlgen's complexity: a field costs
	// one plus its children).
	MaxComplexity = 1000
	// MaxDepth bounds how deeply one query may nest selections, fragments expanded.
	MaxDepth = 12
	// MaxIntrospectionLists bounds how deeply introspection may nest fields, inputFields,
	// interfaces and possibleTypes within one another, fragments expanded: graphql-js's
	// MaxIntrospectionDepthRule allows as many. The standard introspection query nests one.
	MaxIntrospectionLists = 2
	// MaxFilterText bounds each text of a where or filter argument, in characters.
	MaxFilterText = input.MaxShortText
	// RequestTimeout bounds one request from its start to its answer: past it, the request's
	// context is cancelled (its database work stops) and it answers request.timeout. The service
	// already finishes a payment gateway call detached from a context that ends (a client may
	// leave at any time), so a timeout leaves no call half recorded.
	RequestTimeout = 30 * time.Second
)

// limitError refuses a document over one of the limits, shaped like any service error. Marked
// as a validation failure, it is answered with HTTP 422 like the validator's own errors; the
// error presenter then replaces gqlgen's code with the service's.
func limitError(typ, message string, max int) *gqlerror.Error {
	return documentError(typ, message, map[string]any{"max": max})
}

// documentError refuses a document before it is validated, answered as limitError says.
func documentError(typ, message string, details map[string]any) *gqlerror.Error {
	err := &gqlerror.Error{Message: message, Err: &problem.Error{Kind: problem.Invalid,
		Code: problem.CodeValidation, Type: typ, Message: message, Details: details}}
	errcode.Set(err, errcode.ValidationFailed)
	return err
}

// introspectionOff refuses a document that asks for __schema or __type when the operator turned
// introspection off (WithIntrospection): gqlgen would answer each such field with an error that
// is not the client's.
func introspectionOff() *gqlerror.Error {
	return documentError("graphql.introspection_disabled", "introspection (__schema, __type) is turned off on this server", nil)
}

// documentLimits parses the document once more, with the token limit, and refuses it when it is
// over a limit, or when it asks for introspection and introspection is off. It runs before gqlgen
// parses and validates (an OperationParameterMutator), so the validator only ever sees a document
// whose expanded size is bounded.
type documentLimits struct{ introspection bool }

var _ interface {
	graphql.OperationParameterMutator
	graphql.HandlerExtension
} = documentLimits{}

func (documentLimits) ExtensionName() string                   { return "DocumentLimits" }
func (documentLimits) Validate(graphql.ExecutableSchema) error { return nil }

func (l documentLimits) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, MaxTokens)
	if err != nil {
		var gerr *gqlerror.Error
		if errors.As(err, &gerr) && strings.HasPrefix(gerr.Message, "exceeded token limit") {
			return limitError("graphql.token_limit", fmt.Sprintf("the document has more than %d tokens", MaxTokens), MaxTokens)
		}
		// gqlgen parses the document again and reports the syntax error as it always has.
		return nil
	}
	return checkDocument(doc, l.introspection)
}

// checkDocument measures every operation and fragment definition of doc, each fragment once,
// and refuses introspection unless it is on.
func checkDocument(doc *ast.QueryDocument, introspection bool) *gqlerror.Error {
	if len(doc.Fragments) > MaxFragments {
		return limitError("graphql.too_many_fragments", fmt.Sprintf("the document defines more than %d fragments", MaxFragments), MaxFragments)
	}
	m := measure{fragments: make(map[string]*ast.FragmentDefinition, len(doc.Fragments)), memo: map[string]*size{}}
	for _, f := range doc.Fragments {
		if _, ok := m.fragments[f.Name]; !ok {
			m.fragments[f.Name] = f
		}
	}
	var total size
	for _, op := range doc.Operations {
		total.add(m.set(op.SelectionSet, false))
		switch {
		case m.err != nil:
		case total.depth > MaxDepth:
			m.err = limitError("graphql.depth_limit", "query is nested too deeply", MaxDepth)
		case total.lists > MaxIntrospectionLists:
			m.err = limitError("graphql.introspection_depth_limit", fmt.Sprintf("introspection nests fields, inputFields, interfaces or possibleTypes more than %d deep", MaxIntrospectionLists), MaxIntrospectionLists)
		}
	}
	for _, f := range doc.Fragments {
		// The validator walks each definition on its own, used or not.
		total.add(m.fragment(f.Name))
	}
	switch {
	case m.introspects && !introspection:
		return introspectionOff()
	case m.err != nil:
		return m.err
	case total.fields > MaxFields:
		return limitError("graphql.too_many_fields", fmt.Sprintf("the document has more than %d fields once its fragments are expanded", MaxFields), MaxFields)
	case total.aliases > MaxAliases:
		return limitError("graphql.too_many_aliases", fmt.Sprintf("the document has more than %d aliased fields once its fragments are expanded", MaxAliases), MaxAliases)
	}
	return nil
}

// saturated keeps counts of an exponential expansion from overflowing; it is far above any limit.
const saturated = 1 << 40

// size is what a selection set amounts to once its fragments are expanded.
type size struct {
	fields, aliases, depth int
	// lists is how deeply introspection's lists of types nest (MaxIntrospectionLists).
	lists int
	// names counts the fields of each response name the set collects at its own level (inline
	// fragments and fragment spreads included, as gqlgen and the validator collect them).
	names map[string]int
}

func (s *size) add(o *size) {
	s.fields = min(s.fields+o.fields, saturated)
	s.aliases = min(s.aliases+o.aliases, saturated)
	s.depth = max(s.depth, o.depth)
	s.lists = max(s.lists, o.lists)
}

type measure struct {
	fragments map[string]*ast.FragmentDefinition
	memo      map[string]*size
	err       *gqlerror.Error
	// introspects is whether the document selects __schema or __type anywhere.
	introspects bool
}

// introspectionRoots are the fields that enter introspection; every field below them is one of
// introspection's own (the names of __ are reserved to it, so a schema's fields never are).
var introspectionRoots = map[string]bool{"__schema": true, "__type": true}

// introspectionLists are the fields of introspection that lead from a type to a list of others.
var introspectionLists = map[string]bool{"fields": true, "inputFields": true, "interfaces": true, "possibleTypes": true}

// isIntrospectionType reports whether a type condition names one of introspection's types.
func isIntrospectionType(name string) bool { return strings.HasPrefix(name, "__") }

// fragment measures a fragment definition once; a spread of it reuses the result. A fragment
// that spreads itself counts as empty here: the validator refuses the cycle. Whether its fields
// are introspection's follows from its type condition, wherever it is spread.
func (m *measure) fragment(name string) *size {
	if s, ok := m.memo[name]; ok {
		return s
	}
	def := m.fragments[name]
	if def == nil {
		return &size{}
	}
	m.memo[name] = &size{}
	s := m.set(def.SelectionSet, isIntrospectionType(def.TypeCondition))
	m.memo[name] = s
	return s
}

// set measures one selection set, of introspection's fields when intro. Its names stop growing
// at the first limit it is over, so a merge costs at most MaxSelectionFields entries.
func (m *measure) set(set ast.SelectionSet, intro bool) *size {
	s := &size{names: map[string]int{}}
	collected := 0
	collect := func(name string, n int) {
		s.names[name] = min(s.names[name]+n, saturated)
		collected = min(collected+n, saturated)
		if m.err != nil {
			return
		}
		if s.names[name] > MaxRepeatedField {
			m.err = limitError("graphql.field_repeated", fmt.Sprintf("the field %q appears more than %d times in one selection set", name, MaxRepeatedField), MaxRepeatedField)
		} else if collected > MaxSelectionFields {
			m.err = limitError("graphql.too_many_selections", fmt.Sprintf("a selection set has more than %d fields", MaxSelectionFields), MaxSelectionFields)
		}
	}
	merge := func(o *size) {
		s.add(o)
		for name, n := range o.names {
			if m.err != nil {
				return
			}
			collect(name, n)
		}
	}
	for _, sel := range set {
		if m.err != nil {
			return s
		}
		switch x := sel.(type) {
		case *ast.Field:
			if introspectionRoots[x.Name] {
				m.introspects = true
			}
			child := m.set(x.SelectionSet, intro || introspectionRoots[x.Name])
			s.fields = min(s.fields+1+child.fields, saturated)
			s.aliases = min(s.aliases+child.aliases, saturated)
			if x.Alias != "" && x.Alias != x.Name {
				s.aliases = min(s.aliases+1, saturated)
			}
			depth, lists := child.depth+1, child.lists
			if intro && x.Name == "ofType" {
				depth = child.depth
			}
			if intro && introspectionLists[x.Name] {
				lists++
			}
			s.depth = max(s.depth, depth)
			s.lists = max(s.lists, lists)
			collect(x.Alias, 1)
		case *ast.InlineFragment:
			inner := intro
			if x.TypeCondition != "" {
				inner = isIntrospectionType(x.TypeCondition)
			}
			merge(m.set(x.SelectionSet, inner))
		case *ast.FragmentSpread:
			merge(m.fragment(x.Name))
		}
	}
	return s
}

// limitRequest bounds the request's size and its time. A body over MaxRequestBytes is refused
// before gqlgen reads it; the context of every request ends at RequestTimeout.
func limitRequest(timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > MaxRequestBytes || len(r.URL.RawQuery) > MaxRequestBytes {
			writeRequestTooLarge(w)
			return
		}
		if r.Body != nil && r.Method == http.MethodPost {
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
			if err != nil {
				var tooLarge *http.MaxBytesError
				if errors.As(err, &tooLarge) {
					writeRequestTooLarge(w)
					return
				}
				// A body cut short is a malformed request; gqlgen's transport says so.
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		ctx, cancel := context.WithTimeout(r.Context(), timeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func writeRequestTooLarge(w http.ResponseWriter) {
	message := fmt.Sprintf("request is larger than %d KiB", MaxRequestBytes>>10)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusRequestEntityTooLarge)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []map[string]any{{"message": message, "extensions": map[string]any{
		"code": problem.CodeBodyTooLarge, "type": "request.body_too_large", "status": http.StatusRequestEntityTooLarge,
		"details": map[string]any{"max_bytes": MaxRequestBytes}}}}})
}

// filterBounds refuses a where or filter argument holding a text longer than MaxFilterText: the
// database refuses some (SQLite's LIKE patterns end at 50,000 bytes) with an error the client
// could not act on, and none is a useful filter.
type filterBounds struct{}

var _ interface {
	graphql.FieldInterceptor
	graphql.HandlerExtension
} = filterBounds{}

func (filterBounds) ExtensionName() string                   { return "FilterBounds" }
func (filterBounds) Validate(graphql.ExecutableSchema) error { return nil }

func (filterBounds) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		for _, arg := range []string{"where", "filter"} {
			if v, ok := fc.Args[arg]; ok {
				if field := longText(reflect.ValueOf(v), arg); field != "" {
					message := fmt.Sprintf("%s is longer than %d characters", field, MaxFilterText)
					return nil, &problem.Error{Kind: problem.Invalid, Code: problem.CodeValidation, Type: "request.text_too_long",
						Message: message, Details: map[string]any{"field": field, "max_length": MaxFilterText}}
				}
			}
		}
	}
	return next(ctx)
}

// longText returns the path of the first text in v longer than MaxFilterText, or "". v is a
// decoded input: pointers, structs (fields named by their json tags), slices and maps.
func longText(v reflect.Value, path string) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return longText(v.Elem(), path)
		}
	case reflect.String:
		if v.Len() > MaxFilterText && utf8.RuneCountInString(v.String()) > MaxFilterText {
			return path
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if p := longText(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			if p := longText(iter.Value(), fmt.Sprintf("%s.%v", path, iter.Key())); p != "" {
				return p
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if p := longText(v.Field(i), path+"."+name); p != "" {
				return p
			}
		}
	}
	return ""
}
