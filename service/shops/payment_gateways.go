package shops

import (
	"context"
	"strconv"
	"strings"

	"github.com/checkoutd/checkoutd/ent"
	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/ent/schema"
	"github.com/checkoutd/checkoutd/service/input"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/platform"
	"github.com/checkoutd/checkoutd/service/problem"
)

// ExternalPaymentGatewayInput is a gateway as created or updated; update takes the same required fields.
type ExternalPaymentGatewayInput struct {
	Name                   *string                `json:"name"`
	BaseURL                *string                `json:"base_url"`
	IframeURL              *string                `json:"iframe_url"`
	Location               *string                `json:"location"`
	HTTPHeaders            []schema.HTTPHeader    `json:"http_headers"`
	APIToken               input.Nullable[string] `json:"api_token"`
	PartialCapture         *bool                  `json:"partial_capture"`
	AdditionalOrderDetails *bool                  `json:"additional_order_details"`
	ProviderID             *string                `json:"provider_id"`
	Currency               *string                `json:"currency"`
	IsTest                 *bool                  `json:"is_test"`
}

// MaxGatewayHTTPHeaders bounds the headers a gateway's calls carry.
const MaxGatewayHTTPHeaders = 20

func (in ExternalPaymentGatewayInput) validate(policy outbound.Policy) error {
	p := input.Problems{}
	if in.Name == nil || strings.TrimSpace(*in.Name) == "" {
		p.Add("name", "is required")
	} else {
		p.Text("name", *in.Name, input.MaxShortText)
	}
	if in.BaseURL == nil {
		p.Add("base_url", "is required")
	} else if why := input.OutboundURLProblem(policy, *in.BaseURL); why != "" {
		p.Add("base_url", why)
	}
	// The iframe is loaded by the shopper's browser, never by checkoutd: it is not an outbound call.
	if in.IframeURL != nil && *in.IframeURL != "" && !input.IsHTTPURL(*in.IframeURL) {
		p.Add("iframe_url", "must be an absolute http or https URL")
	} else if in.IframeURL != nil {
		p.Text("iframe_url", *in.IframeURL, input.MaxURLText)
	}
	if in.Location != nil {
		p.Text("location", *in.Location, input.MaxShortText)
	}
	if in.APIToken.Value != nil {
		p.Text("api_token", *in.APIToken.Value, input.MaxSecretText)
	}
	if in.PartialCapture == nil {
		p.Add("partial_capture", "is required")
	}
	if in.AdditionalOrderDetails == nil {
		p.Add("additional_order_details", "is required")
	}
	if in.ProviderID == nil || *in.ProviderID == "" {
		p.Add("provider_id", "is required")
	} else {
		p.Text("provider_id", *in.ProviderID, input.MaxShortText)
	}
	if in.Currency == nil {
		p.Add("currency", "is required")
	} else if len(*in.Currency) != 3 {
		p.Add("currency", "must be exactly 3 characters")
	} else if input.Currency(strings.ToUpper(*in.Currency)) != nil {
		p.Add("currency", "must be an ISO 4217 code")
	}
	if len(in.HTTPHeaders) > MaxGatewayHTTPHeaders {
		p.Add("http_headers", "has more than "+strconv.Itoa(MaxGatewayHTTPHeaders)+" entries")
		in.HTTPHeaders = nil
	}
	for i, h := range in.HTTPHeaders {
		if h.Key == "" || strings.ContainsAny(h.Key, " :\r\n") || strings.ContainsAny(h.Value, "\r\n") {
			p.Add("http_headers", "entry "+strconv.Itoa(i)+" is not a valid header")
			break
		}
		if input.TooLong(h.Key, input.MaxShortText) || input.TooLong(h.Value, input.MaxSecretText) {
			p.Add("http_headers", "entry "+strconv.Itoa(i)+" has a key longer than "+strconv.Itoa(input.MaxShortText)+
				" or a value longer than "+strconv.Itoa(input.MaxSecretText)+" characters")
			break
		}
	}
	if len(p) > 0 {
		return &problem.Error{Kind: problem.Invalid, Code: problem.CodeGatewayInvalid, Type: "external_payment_gateway.invalid_external_payment_gateway_data",
			Message: "invalid external payment gateway: " + p.Message(), Details: p.Details()}
	}
	return nil
}

func strOr(p *string, fallback string) string {
	if p == nil {
		return fallback
	}
	return *p
}

// CreateExternalPaymentGateway adds a gateway.
func (s *Service) CreateExternalPaymentGateway(ctx context.Context, sh *ent.Shop, in ExternalPaymentGatewayInput) (*ent.ExternalPaymentGateway, error) {
	if err := in.validate(s.outbound); err != nil {
		return nil, err
	}
	c := s.p.DB.Client.ExternalPaymentGateway.Create().SetShopID(sh.ID).SetPublicID(platform.NewPublicID()).
		SetName(*in.Name).SetBaseURL(strings.TrimRight(*in.BaseURL, "/")).SetNillableIframeURL(in.IframeURL).
		SetLocation(strOr(in.Location, "")).SetPartialCapture(*in.PartialCapture).
		SetAdditionalOrderDetails(*in.AdditionalOrderDetails).SetProviderID(*in.ProviderID).
		SetCurrency(strings.ToUpper(*in.Currency)).SetNillableAPIToken(in.APIToken.Value).SetNillableIsTest(in.IsTest)
	if in.HTTPHeaders != nil {
		c.SetHTTPHeaders(in.HTTPHeaders)
	}
	return c.Save(ctx)
}

func GatewayNotFound(publicID string) *problem.Error {
	return &problem.Error{Kind: problem.Invalid, Code: problem.CodeGatewayInvalid, Type: "external_payment_gateway.external_payment_gateway_not_configured",
		Message: "no external payment gateway with public_id " + publicID + " is configured for this shop", Details: map[string]any{"public_id": publicID}}
}

// UpdateExternalPaymentGateway replaces the gateway's fields; an absent api_token keeps the
// stored one, so a client that never saw the token can still edit the rest.
func (s *Service) UpdateExternalPaymentGateway(ctx context.Context, sh *ent.Shop, publicID string, in ExternalPaymentGatewayInput) (*ent.ExternalPaymentGateway, error) {
	if err := in.validate(s.outbound); err != nil {
		return nil, err
	}
	var out *ent.ExternalPaymentGateway
	err := s.p.InTx(ctx, func(tx *ent.Tx) error {
		g, err := tx.ExternalPaymentGateway.Query().Where(externalpaymentgateway.ShopID(sh.ID), externalpaymentgateway.PublicID(publicID)).Only(ctx)
		if ent.IsNotFound(err) {
			return GatewayNotFound(publicID)
		}
		if err != nil {
			return err
		}
		u := g.Update().SetName(*in.Name).SetBaseURL(strings.TrimRight(*in.BaseURL, "/")).
			SetLocation(strOr(in.Location, g.Location)).
			SetPartialCapture(*in.PartialCapture).SetAdditionalOrderDetails(*in.AdditionalOrderDetails).
			SetProviderID(*in.ProviderID).SetCurrency(strings.ToUpper(*in.Currency)).SetNillableIsTest(in.IsTest)
		input.SetOrClear(in.IframeURL, u.SetIframeURL, u.ClearIframeURL)
		if in.HTTPHeaders != nil {
			u.SetHTTPHeaders(in.HTTPHeaders)
		} else {
			u.ClearHTTPHeaders()
		}
		if in.APIToken.Set {
			input.SetOrClear(in.APIToken.Value, u.SetAPIToken, u.ClearAPIToken)
		}
		out, err = u.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Detach from the committed transaction, so that edges can still be loaded.
	return out.Unwrap(), nil
}

// DeleteExternalPaymentGateway removes a gateway.
func (s *Service) DeleteExternalPaymentGateway(ctx context.Context, sh *ent.Shop, publicID string) error {
	n, err := s.p.DB.Client.ExternalPaymentGateway.Delete().Where(externalpaymentgateway.ShopID(sh.ID), externalpaymentgateway.PublicID(publicID)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return GatewayNotFound(publicID)
	}
	return nil
}
