package gatewaytest

import (
	"context"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/shops"
)

// Register makes the gateway one of the shop's external payment gateways, named name, in the
// shop's currency, with partial captures and no additional order details, and answers it.
func (s *Server) Register(sv *shops.Service, sh *ent.Shop, name string) *ent.ExternalPaymentGateway {
	s.t.Helper()
	provider, currency, yes, no := ProviderID, sh.Currency, true, false
	g, err := sv.CreateExternalPaymentGateway(context.Background(), sh, shops.ExternalPaymentGatewayInput{Name: &name, BaseURL: &s.URL,
		APIToken: input.Of(s.apiToken), PartialCapture: &yes, AdditionalOrderDetails: &no, ProviderID: &provider, Currency: &currency})
	if err != nil {
		s.t.Fatal(err)
	}
	return g
}
