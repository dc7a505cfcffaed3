package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/checkoutd/checkoutd/graph/model"
	"github.com/checkoutd/checkoutd/service"
)

// nullable tells an absent input field (unchanged) from one given as null (cleared).
func nullable[T any](present map[string]any, name string, v *T) service.Nullable[T] {
	if _, ok := present[name]; !ok {
		return service.Nullable[T]{}
	}
	return service.Nullable[T]{Set: true, Value: v}
}

// inputFields returns the fields the client wrote in the mutation's "input" argument.
func inputFields(ctx context.Context) map[string]any {
	fc := graphql.GetFieldContext(ctx)
	out := map[string]any{}
	for _, arg := range fc.Field.Arguments {
		if arg.Name != "input" {
			continue
		}
		if arg.Value.VariableDefinition != nil {
			if m, ok := graphql.GetOperationContext(ctx).Variables[arg.Value.Raw].(map[string]any); ok {
				return m
			}
		}
		for _, child := range arg.Value.Children {
			out[child.Name] = true
		}
	}
	return out
}

func lifeElementInput(ctx context.Context, in model.LifeElementInput) service.LifeElementInput {
	p := inputFields(ctx)
	return service.LifeElementInput{
		Location:         nullable(p, "location", in.Location),
		InputType:        nullable(p, "inputType", in.InputType),
		InputDefault:     nullable(p, "inputDefault", in.InputDefault),
		InputLabel:       nullable(p, "inputLabel", in.InputLabel),
		InputPlaceholder: nullable(p, "inputPlaceholder", in.InputPlaceholder),
		InputRequired:    nullable(p, "inputRequired", in.InputRequired),
		InputRegex:       nullable(p, "inputRegex", in.InputRegex),
		MetaDataField:    nullable(p, "metaDataField", in.MetaDataField),
		OrderAsc:         nullable(p, "orderAsc", in.OrderAsc),
	}
}
