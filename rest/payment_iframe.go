package rest

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
	"strings"

	"github.com/checkoutd/checkoutd/service/orders"
)

func (a *API) registerPaymentIframe(mux router) {
	const storefront = "/checkout/storefront/{shop}/{order}"
	mux.Handle("GET "+storefront+"/payments/iframe", a.withOrder(a.paymentIframe))
	mux.Handle("POST "+storefront+"/payments/styles", a.withOrder(a.paymentIframeStyles))
}

// paymentIframeCSS is the page's only style; the Content-Security-Policy allows it by its hash,
// so no other inline style can run.
const paymentIframeCSS = `body{font-family:system-ui,sans-serif;margin:0;padding:8px;color:#222}` +
	`section{margin:0 0 12px}h2{font-size:1rem;margin:0 0 6px}iframe{border:0;width:100%;min-height:160px}`

var paymentIframeStyleHash = func() string {
	sum := sha256.Sum256([]byte(paymentIframeCSS))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

// The page is rendered by html/template: gateway names and URLs are escaped for the context they
// land in, and a URL with a scheme other than http(s) never reaches a src attribute.
var paymentIframePage = template.Must(template.New("payment_iframe").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment</title>
<style>{{.Style}}</style>
</head>
<body>
<main data-public-order-id="{{.PublicOrderID}}" data-currency="{{.Currency}}">
{{- range .Gateways}}
<section class="payment-gateway" id="{{.PublicID}}" data-location="{{.Location}}">
<h2>{{.Name}}</h2>
{{- if .IframeURL}}
<iframe src="{{.IframeURL}}" title="{{.Name}}" referrerpolicy="no-referrer" sandbox="allow-scripts allow-forms allow-same-origin allow-popups"></iframe>
{{- end}}
</section>
{{- else}}
<p>No payment method is available for this order.</p>
{{- end}}
</main>
</body>
</html>
`))

// paymentIframeCSP allows the page's own style, frames from its gateways' origins only, and
// embedding by the shop's allowlisted storefronts only.
func paymentIframeCSP(p *orders.PaymentIframe) string {
	frames := "'none'"
	if len(p.FrameSources) > 0 {
		frames = strings.Join(p.FrameSources, " ")
	}
	ancestors := strings.Join(append([]string{"'self'"}, p.FrameAncestors...), " ")
	return "default-src 'none'; style-src " + paymentIframeStyleHash + "; frame-src " + frames +
		"; frame-ancestors " + ancestors + "; base-uri 'none'; form-action 'none'"
}

// paymentIframe serves the order's payment page. Its URL carries the order JWT (?token=), so
// the page is never cached and never sends its address on as a referrer.
func (a *API) paymentIframe(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	p, err := a.svc.Orders.PaymentIframe(r.Context(), sess)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := paymentIframePage.Execute(&buf, struct {
		*orders.PaymentIframe
		Style template.CSS
	}{p, template.CSS(paymentIframeCSS)}); err != nil {
		writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", paymentIframeCSP(p))
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = buf.WriteTo(w)
}

// paymentIframeStyles answers {style_sheet}: the frontend library requires that key.
func (a *API) paymentIframeStyles(w http.ResponseWriter, r *http.Request, sess *orders.OrderSession) {
	var in orders.PaymentIframeStyles
	if err := decode(r, &in); err != nil {
		writeError(w, r, err)
		return
	}
	sheet, err := orders.CheckPaymentIframeStyles(in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeData(w, map[string]any{"style_sheet": sheet})
}
