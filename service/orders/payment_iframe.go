package orders

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/checkoutd/checkoutd/service/problem"
)

// PaymentIframeGateway is a gateway as the payment page shows it: its name and the page it
// embeds, never its base_url or api_token.
type PaymentIframeGateway struct {
	PublicID  string
	Name      string
	IframeURL string
	Location  string
}

// PaymentIframe is what an order's payment page holds.
type PaymentIframe struct {
	PublicOrderID string
	Currency      string
	Gateways      []PaymentIframeGateway
	// FrameSources are the origins of the gateways' pages, the only frames the page may load.
	FrameSources []string
	// FrameAncestors are the origins that may embed the page: the shop's CORS allowlist, the
	// same storefronts that may call its APIs.
	FrameAncestors []string
}

// PaymentIframe gathers the payment page of an order: the shop's gateways that take the order's
// currency (a gateway supports one), in the order they were added.
func (s *Service) PaymentIframe(ctx context.Context, sess *OrderSession) (*PaymentIframe, error) {
	gws, err := s.shops.ExternalPaymentGateways(ctx, sess.Shop)
	if err != nil {
		return nil, err
	}
	domains, err := s.shops.CorsDomains(ctx, sess.Shop)
	if err != nil {
		return nil, err
	}
	o, err := s.SessionOrder(ctx, sess)
	if err != nil {
		return nil, err
	}
	out := &PaymentIframe{PublicOrderID: o.PublicOrderID, Currency: o.Currency,
		Gateways: []PaymentIframeGateway{}, FrameSources: []string{}, FrameAncestors: []string{}}
	for _, g := range gws {
		if !strings.EqualFold(g.Currency, o.Currency) {
			continue
		}
		pg := PaymentIframeGateway{PublicID: g.PublicID, Name: g.Name, Location: g.Location}
		if g.IframeURL != nil {
			if origin, ok := urlOrigin(*g.IframeURL); ok {
				pg.IframeURL = *g.IframeURL
				if !slices.Contains(out.FrameSources, origin) {
					out.FrameSources = append(out.FrameSources, origin)
				}
			}
		}
		out.Gateways = append(out.Gateways, pg)
	}
	for _, d := range domains {
		out.FrameAncestors = append(out.FrameAncestors, d.Domain)
	}
	return out, nil
}

// urlOrigin is scheme://host of an absolute http(s) URL.
func urlOrigin(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	return u.Scheme + "://" + strings.ToLower(u.Host), true
}

// CSSRule is one rule of a storefront's style sheet for the payment page, as the frontend
// library sends it.
type CSSRule struct {
	CSSText string `json:"cssText"`
}

// MediaRule is a group of rules under one media condition.
type MediaRule struct {
	ConditionText string    `json:"conditionText"`
	CSSRules      []CSSRule `json:"cssRules"`
}

// PaymentIframeStyles is the style sheet a storefront sends for the payment page.
type PaymentIframeStyles struct {
	CSSRules   []CSSRule   `json:"css_rules"`
	MediaRules []MediaRule `json:"media_rules"`
}

// MaxPaymentIframeStyleRules bounds one style sheet.
const MaxPaymentIframeStyleRules = 1000

// CheckPaymentIframeStyles takes a storefront's style sheet for the payment page and answers it
// back. checkoutd's payment page lists gateways whose own pages carry their styling, so the sheet
// is not kept; it is checked so that a storefront learns of a malformed one.
func CheckPaymentIframeStyles(in PaymentIframeStyles) (PaymentIframeStyles, error) {
	n := len(in.CSSRules)
	for _, m := range in.MediaRules {
		n += len(m.CSSRules)
	}
	if n > MaxPaymentIframeStyleRules {
		return PaymentIframeStyles{}, problem.Validation("payment_iframe.too_many_style_rules", "a style sheet holds at most 1000 rules", map[string]any{"field": "css_rules"})
	}
	if in.CSSRules == nil {
		in.CSSRules = []CSSRule{}
	}
	if in.MediaRules == nil {
		in.MediaRules = []MediaRule{}
	}
	return in, nil
}
