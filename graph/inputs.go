package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/graph/model"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/shops"
	"github.com/checkoutd/checkoutd/service/subscription"
)

// nullable tells an absent input field (unchanged) from one given as null (cleared).
func nullable[T any](present map[string]any, name string, v *T) input.Nullable[T] {
	if _, ok := present[name]; !ok {
		return input.Nullable[T]{}
	}
	return input.Nullable[T]{Set: true, Value: v}
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

func lifeElementInput(ctx context.Context, in model.LifeElementInput) shops.LifeElementInput {
	p := inputFields(ctx)
	return shops.LifeElementInput{
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

func gatewayInput(ctx context.Context, in model.ExternalPaymentGatewayInput) shops.ExternalPaymentGatewayInput {
	p := inputFields(ctx)
	var headers []schema.HTTPHeader
	for _, h := range in.HTTPHeaders {
		headers = append(headers, *h)
	}
	return shops.ExternalPaymentGatewayInput{
		Name: in.Name, BaseURL: in.BaseURL, IframeURL: in.IframeURL, Location: in.Location, HTTPHeaders: headers,
		APIToken: nullable(p, "apiToken", in.APIToken), PartialCapture: in.PartialCapture,
		AdditionalOrderDetails: in.AdditionalOrderDetails, ProviderID: in.ProviderID, Currency: in.Currency, IsTest: in.IsTest,
	}
}

// done runs a change for the caller's shop and answers true when it succeeded.
func done(ctx context.Context, change func(sh *ent.Shop) error) (bool, error) {
	sh, err := shopFrom(ctx)
	if err != nil {
		return false, err
	}
	if err := change(sh); err != nil {
		return false, err
	}
	return true, nil
}

func flows(ctx context.Context, list func(sh *ent.Shop) ([]shops.FlowSummary, error)) ([]*shops.FlowSummary, error) {
	sh, err := shopFrom(ctx)
	if err != nil {
		return nil, err
	}
	fs, err := list(sh)
	if err != nil {
		return nil, err
	}
	out := make([]*shops.FlowSummary, len(fs))
	for i := range fs {
		out[i] = &fs[i]
	}
	return out, nil
}

// onOrder opens the order for the caller and runs one service call on it.
func (r *Resolver) onOrder(ctx context.Context, publicOrderID string, call func(*orders.OrderSession) (*orders.OrderView, error)) (*orders.OrderView, error) {
	sess, err := orderSession(ctx, r.svc, publicOrderID)
	if err != nil {
		return nil, err
	}
	return call(sess)
}

func metaDataPatch(in model.OrderMetaDataPatch) orders.MetaDataPatch {
	p := orders.MetaDataPatch{Notes: in.Notes}
	if in.CartParameters != nil {
		p.CartParameters = &in.CartParameters
	}
	if in.NoteAttributes != nil {
		p.NoteAttributes = &in.NoteAttributes
	}
	if in.Tags != nil {
		p.Tags = &in.Tags
	}
	return p
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// subscriptionAction runs an admin action on the caller's shop's subscription id.
func subscriptionAction(ctx context.Context, id int, action func(context.Context, *ent.Shop, int) (*subscription.View, error)) (*subscription.View, error) {
	sh, err := shopFrom(ctx)
	if err != nil {
		return nil, err
	}
	return action(ctx, sh, id)
}
