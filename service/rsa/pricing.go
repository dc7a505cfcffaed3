package rsa

import (
	"fmt"
	"strconv"

	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/orders"
)

// shippingLines are the answered shipping options as the order offers them; a line's id is its
// position, so that the shopper may choose it by id or index alike.
func shippingLines(st *OrderState, cur string) ([]schema.ShippingLine, error) {
	lines := []schema.ShippingLine{}
	for i, so := range st.ShippingOptions {
		cost, err := minor(so.Cost, cur)
		if err != nil || cost < 0 {
			return nil, fmt.Errorf("shipping_options[%d].cost: %v", i, err)
		}
		if input.TooLong(so.RateName, input.MaxShortText) || input.TooLong(so.Code, input.MaxShortText) {
			return nil, fmt.Errorf("shipping_options[%d] has a text over %d characters", i, input.MaxShortText)
		}
		lines = append(lines, schema.ShippingLine{ID: strconv.Itoa(i), Description: so.RateName, Amount: cost, Code: so.Code})
	}
	return lines, nil
}

// answeredPricing sets the shipping choice of r from the answer.
func answeredPricing(r *orders.RemoteOrder, st *OrderState, cur string) error {
	lines, err := shippingLines(st, cur)
	if err != nil {
		return err
	}
	if sel := st.SelectedShipping; sel != nil {
		cost, err := minor(sel.Cost, cur)
		if err != nil || cost < 0 {
			return fmt.Errorf("selected_shipping.cost: %v", err)
		}
		chosen := schema.ShippingLine{ID: "selected", Description: sel.RateName, Amount: cost, Code: sel.Code}
		for _, l := range lines {
			if l.Code == sel.Code && l.Description == sel.RateName {
				chosen.ID = l.ID
			}
		}
		if input.TooLong(sel.RateName, input.MaxShortText) || input.TooLong(sel.Code, input.MaxShortText) {
			return fmt.Errorf("selected_shipping has a text over %d characters", input.MaxShortText)
		}
		r.SelectedShipping = &chosen
	}
	return nil
}

// stateFees sets the fees of the state sent from the order's view.
func stateFees(st *OrderState, v *orders.OrderView) {}
