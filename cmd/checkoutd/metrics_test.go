package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/service/gatewaytest"
)

// scrape reads the metrics served at url as series ("name{labels}") and values.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	res, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/metrics: %d %v", url, res.StatusCode, err)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(string(raw), "\n") {
		i := strings.LastIndexByte(line, ' ')
		if line == "" || line[0] == '#' || i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// moved is what changed between two scrapes, in the series whose names start with one of
// prefixes.
func moved(before, after map[string]float64, prefixes ...string) map[string]float64 {
	out := map[string]float64{}
	for series, v := range after {
		if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(series, p) }) {
			continue
		}
		if d := v - before[series]; d != 0 {
			out[series] = d
		}
	}
	return out
}

// The metrics are served on their own listener (CHECKOUT_METRICS_ADDR), and a guest checkout
// with a capture moves the counters by exactly that checkout: one order initialized and one
// processed, its total authorized and captured once in its currency (a replay of the capture
// under its idempotency key moves no money), one gateway auth and one capture, and one request
// of each route it called. The public listener has no /metrics.
func TestAGuestCheckoutWithACaptureMovesTheMetricsOnTheirOwnListenerByExactlyThatCheckout(t *testing.T) {
	eachDatabaseURL(t, func(t *testing.T, url string) {
		metricsAddr := freeAddr(t)
		env := []string{"CHECKOUT_DATABASE_URL=" + url, "CHECKOUT_METRICS_ADDR=" + metricsAddr}
		runBinary(t, env, "migrate")
		token := createShop(t, env, "acme")
		gw := gatewaytest.New(t, gatewayToken)
		p := serveProcess(t, env)
		g := p.call(token, "POST", "/checkout/shop/acme/external_payment_gateways", map[string]any{
			"name": "Test gateway", "base_url": gw.URL, "api_token": gatewayToken, "partial_capture": true,
			"additional_order_details": false, "provider_id": gatewaytest.ProviderID, "currency": "USD"}, 200)
		gatewayID := g["data"].(map[string]any)["external_payment_gateway"].(map[string]any)["public_id"].(string)
		metricsURL := "http://" + metricsAddr

		before := scrape(t, metricsURL)
		id := p.processedOrder(token, "acme", gatewayID)
		capture := "/checkout/orders/acme/" + id + "/payments/capture/full"
		d := p.call(token, "POST", capture, map[string]any{"idempotent_key": "cap-1"}, 200)["data"].(map[string]any)
		p.call(token, "POST", capture, map[string]any{"idempotent_key": "cap-1"}, 200)
		after := scrape(t, metricsURL)

		total := d["order_total"].(float64)
		if total <= 0 || d["paid_total"].(float64) != total {
			t.Fatalf("the capture answered %v", d)
		}
		request := func(method, pattern string) string {
			return fmt.Sprintf(`checkoutd_http_requests_total{method="%s",pattern="%s %s",status="200"}`, method, method, pattern)
		}
		storefront := "/checkout/storefront/{shop}/{order}"
		want := map[string]float64{
			`checkoutd_orders_initialized_total`:                                              1,
			`checkoutd_orders_processed_total`:                                                1,
			`checkoutd_money_authorized_minor_units_total{currency="USD"}`:                    total,
			`checkoutd_money_captured_minor_units_total{currency="USD"}`:                      total,
			`checkoutd_outbound_calls_total{call="auth",kind="gateway",outcome="success"}`:    1,
			`checkoutd_outbound_calls_total{call="capture",kind="gateway",outcome="success"}`: 1,
			`checkoutd_outbound_call_duration_seconds_count{call="auth",kind="gateway"}`:      1,
			`checkoutd_outbound_call_duration_seconds_count{call="capture",kind="gateway"}`:   1,
			request("POST", "/checkout/orders/{shop}/init"):                                   1,
			request("POST", storefront+"/customer/guest"):                                     1,
			request("POST", storefront+"/addresses/shipping"):                                 1,
			request("POST", storefront+"/addresses/billing"):                                  1,
			request("POST", storefront+"/shipping_lines"):                                     1,
			request("POST", storefront+"/payments"):                                           1,
			request("POST", storefront+"/process_order"):                                      1,
			request("POST", "/checkout/orders/{shop}/{order}/payments/capture/full"):          2,
		}
		got := moved(before, after, "checkoutd_orders_", "checkoutd_money_", "checkoutd_outbound_calls_total",
			"checkoutd_outbound_call_duration_seconds_count", "checkoutd_http_requests_total")
		for series, v := range want {
			if got[series] != v {
				t.Errorf("%s moved by %v, want %v", series, got[series], v)
			}
		}
		for series, v := range got {
			if _, ok := want[series]; !ok {
				t.Errorf("%s moved by %v, and should not have", series, v)
			}
		}
		if n := moved(before, after, "checkoutd_http_request_duration_seconds_count")[`checkoutd_http_request_duration_seconds_count{method="POST",pattern="POST `+storefront+`/process_order"}`]; n != 1 {
			t.Errorf("process_order's latency was observed %v times, want 1", n)
		}
		if captured, _ := gw.Totals(); float64(captured) != total {
			t.Fatalf("the gateway captured %d, want %v", captured, total)
		}

		res, err := http.Get(p.url + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "route.not_found") {
			t.Fatalf("GET /metrics on the public listener answered %d %s, want the 404 of no route", res.StatusCode, body)
		}
		unmatched := `checkoutd_http_requests_total{method="GET",pattern="/",status="404"}`
		if n := moved(after, scrape(t, metricsURL), unmatched)[unmatched]; n != 1 {
			t.Fatalf("the public /metrics counted %v times under the catch-all pattern, want 1", n)
		}
	})
}

// The metrics are not what the shops depend on: a metrics address already taken is logged, and
// checkoutd serves on.
func TestCheckoutdServesWhenItsMetricsAddressIsTaken(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	url := "file:" + filepath.Join(t.TempDir(), "c.db")
	p := serveProcess(t, []string{"CHECKOUT_DATABASE_URL=" + url, "CHECKOUT_METRICS_ADDR=" + taken.Addr().String()})
	if logs := p.logs.String(); !strings.Contains(logs, "metrics are not served") {
		t.Fatalf("no word of the metrics listener in the logs:\n%s", logs)
	}
}
