package rest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// getPage fetches a storefront page the way a browser frame does: the JWT in the query only.
func getPage(t *testing.T, a *api, path string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(a.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

func TestPaymentIframeShowsTheGatewaysForTheOrdersCurrencyAndNeverTheirToken(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/cors"), map[string]string{"domain": "https://shop.example.com"}).wantStatus(t, 200)
		usd := gateway()
		usd["name"], usd["iframe_url"] = "Card (USD)", "https://pay.example.com/frame?v=1"
		a.do("POST", a.shopPath("/external_payment_gateways"), usd).wantStatus(t, 200)
		eur := gateway()
		eur["name"], eur["currency"], eur["iframe_url"] = "Card (EUR)", "EUR", "https://eu-pay.example.com/frame"
		a.do("POST", a.shopPath("/external_payment_gateways"), eur).wantStatus(t, 200)
		id, jwt, _ := initOrder(t, a)

		res, page := getPage(t, a, "/checkout/storefront/"+a.shop+"/"+id+"/payments/iframe?token="+jwt)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("status %d, content type %q: %s", res.StatusCode, res.Header.Get("Content-Type"), page)
		}
		if !strings.Contains(page, "Card (USD)") || !strings.Contains(page, `src="https://pay.example.com/frame?v=1"`) {
			t.Fatalf("the USD gateway is missing:\n%s", page)
		}
		if strings.Contains(page, "Card (EUR)") || strings.Contains(page, "tok-abcdef") || strings.Contains(page, "9876") {
			t.Fatalf("page shows another currency's gateway or an api_token:\n%s", page)
		}
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "frame-src https://pay.example.com;", "frame-ancestors 'self' https://shop.example.com;", "style-src 'sha256-"} {
			if !strings.Contains(csp, want) {
				t.Fatalf("Content-Security-Policy %q lacks %q", csp, want)
			}
		}
		if strings.Contains(csp, "eu-pay.example.com") {
			t.Fatalf("Content-Security-Policy allows a gateway the page does not show: %q", csp)
		}
		if res.Header.Get("Referrer-Policy") != "no-referrer" || res.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("a page whose URL holds the order token may leak it: %v", res.Header)
		}
	})
}

func TestPaymentIframeEscapesWhatGatewaysSay(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		g := gateway()
		g["name"] = `<script>alert("x")</script>`
		g["iframe_url"] = `https://pay.example.com/frame?a="><script>alert(1)</script>`
		a.do("POST", a.shopPath("/external_payment_gateways"), g).wantStatus(t, 200)
		id, jwt, _ := initOrder(t, a)
		_, page := getPage(t, a, "/checkout/storefront/"+a.shop+"/"+id+"/payments/iframe?token="+jwt)
		if strings.Contains(page, "<script") {
			t.Fatalf("unescaped markup in the page:\n%s", page)
		}
		if !strings.Contains(page, "&lt;script&gt;") {
			t.Fatalf("the gateway's name is missing:\n%s", page)
		}
	})
}

func TestPaymentIframeNeedsTheOrderToken(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, _, _ := initOrder(t, a)
		_, otherJWT, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/payments/iframe"
		for _, q := range []string{"", "?token=", "?token=" + otherJWT} {
			if res, page := getPage(t, a, path+q); res.StatusCode != 401 {
				t.Fatalf("%q: status %d: %s", q, res.StatusCode, page)
			}
		}
	})
}

func TestPaymentStylesAnswerTheStyleSheetTheLibraryRequires(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		body := map[string]any{
			"css_rules":   []map[string]string{{"cssText": "body { color: #111; }"}},
			"media_rules": []map[string]any{{"conditionText": "(max-width: 600px)", "cssRules": []map[string]string{{"cssText": "body { margin: 0; }"}}}},
		}
		d := storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/payments/styles", body).wantStatus(t, 200).data(t)
		sheet, ok := d["style_sheet"].(map[string]any)
		if !ok || sheet["css_rules"].([]any)[0].(map[string]any)["cssText"] != "body { color: #111; }" || len(sheet["media_rules"].([]any)) != 1 {
			t.Fatalf("style_sheet %v", d)
		}
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/payments/styles", `{"css_rules": "body{}"}`).wantError(t, 422, "", "request.invalid_field_type")
	})
}
