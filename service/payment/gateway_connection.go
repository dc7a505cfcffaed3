package payment

import (
	"context"
	"errors"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/service/gateway"
	"github.com/checkoutd/checkoutd/service/shops"
)

// connectionTestAuthorization is an authorization no gateway granted: voiding it changes
// nothing anywhere, and the gateway can only answer "unknown authorization" once it has
// accepted the signature.
const connectionTestAuthorization = "checkoutd-connection-test"

// GatewayConnectionTest is what a gateway answered a signed test call.
type GatewayConnectionTest struct {
	// OK: the gateway answered and accepted the call's signature.
	OK bool
	// Status is the HTTP status of the answer; 0 when none came.
	Status  int
	Code    string
	Message string
}

// TestExternalPaymentGateway makes one signed call to the gateway, the protocol's /void of an
// authorization that does not exist, and reports the answer. A refusal of that authorization
// (any 2xx or 4xx other than 401 and 403) means the gateway is reachable and trusts the api_token.
func (s *Service) TestExternalPaymentGateway(ctx context.Context, sh *ent.Shop, publicID string) (*GatewayConnectionTest, error) {
	g, err := s.p.DB.Read.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(sh.ID), externalpaymentgateway.PublicID(publicID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, shops.GatewayNotFound(publicID)
	}
	if err != nil {
		return nil, err
	}
	err = s.Gateways.Void(ctx, GatewayOf(g), "", gateway.VoidRequest{AuthorizationID: connectionTestAuthorization})
	if err == nil {
		return &GatewayConnectionTest{OK: true, Status: gateway.StatusOK, Message: "the gateway accepted the signed call"}, nil
	}
	var ge *gateway.Error
	if !errors.As(err, &ge) {
		return nil, err
	}
	out := &GatewayConnectionTest{Status: ge.Status, Code: ge.Code, Message: ge.Message}
	switch {
	case ge.Status == 0:
		out.Message = "no answer: " + ge.Message
	case ge.RefusedCredentials():
		if out.Message == "" {
			out.Message = "the gateway refused the call's signature: check the api_token"
		}
	case ge.Status < 500:
		out.OK = true
	}
	return out, nil
}

// GatewayOf is how the gateway client reaches a shop's configured gateway.
func GatewayOf(g *ent.ExternalPaymentGateway) gateway.Gateway {
	return gateway.Gateway{BaseURL: g.BaseURL, APIToken: g.APIToken, Headers: g.HTTPHeaders, ProviderID: g.ProviderID}
}
