package model

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/99designs/gqlgen/graphql"

	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/orders"
	"github.com/checkoutd/checkoutd/service/pricing"
)

// ApplicationState is the order state as GraphQL types it. The service's state writes "none" as
// JSON's empty array for the storefront library, so the customer, addresses and shipping lines
// are read from the order view it was derived from instead.
type ApplicationState struct {
	orders.ApplicationState
	View *orders.OrderView
}

// OrderAddresses are the order's two addresses; nil when not set.
type OrderAddresses struct {
	Shipping *schema.OrderAddress
	Billing  *schema.OrderAddress
}

// ShippingState is the selected and offered shipping lines, and what is taxed or discounted on
// shipping.
type ShippingState struct {
	SelectedShipping       *schema.ShippingLine
	AvailableShippingLines []schema.ShippingLine
	Taxes                  []pricing.TaxLine
	Discounts              []pricing.DiscountLine
}

// MarshalStringMap writes a map of strings as a JSON object.
func MarshalStringMap(m map[string]string) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		if m == nil {
			m = map[string]string{}
		}
		_ = json.NewEncoder(w).Encode(m)
	})
}

// UnmarshalStringMap reads a JSON object whose values are all strings.
func UnmarshalStringMap(v any) (map[string]string, error) {
	in, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("StringMap must be an object, not %T", v)
	}
	out := make(map[string]string, len(in))
	for k, val := range in {
		s, ok := val.(string)
		if !ok {
			return nil, fmt.Errorf("StringMap value of %q must be a string, not %T", k, val)
		}
		out[k] = s
	}
	return out, nil
}
