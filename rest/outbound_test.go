package rest_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/checkoutd/checkoutd/ent/externalpaymentgateway"
	"github.com/checkoutd/checkoutd/ent/webhooksubscription"
	"github.com/checkoutd/checkoutd/service"
	"github.com/checkoutd/checkoutd/service/gatewaytest"
	"github.com/checkoutd/checkoutd/service/outbound"
	"github.com/checkoutd/checkoutd/service/webhooks"
	"github.com/checkoutd/checkoutd/service/webhooktest"
)

// refusePrivate is the production setting: CHECKOUT_OUTBOUND_ALLOW_PRIVATE unset.
var refusePrivate = []service.Option{service.WithOutboundAllowPrivate(false)}

// internalURLs are the forms of issue 24 that every configured URL accepted, with why each is
// refused.
var internalURLs = []struct{ url, reason string }{
	{"http://169.254.169.254/latest/meta-data/", outbound.ReasonMetadata},
	{"http://2852039166/", outbound.ReasonMetadata},
	{"http://0xA9FEA9FE/", outbound.ReasonMetadata},
	{"http://[::ffff:a9fe:a9fe]/", outbound.ReasonMetadata},
	{"http://metadata.google.internal/computeMetadata/v1/", outbound.ReasonMetadata},
	{"http://10.0.0.1/", outbound.ReasonPrivate},
	{"http://192.168.0.1/", outbound.ReasonPrivate},
	{"http://localhost:8080/", outbound.ReasonPrivate},
	{"http://[::1]/", outbound.ReasonPrivate},
	{"http://0.0.0.0/", outbound.ReasonPrivate},
	{"http://user:pass@10.0.0.1/", outbound.ReasonUserinfo},
}

// urlKind is one kind of configured URL checkoutd calls: how to create one with a URL, how to
// change an existing one's URL, and the error type of an invalid one.
type urlKind struct {
	name   string
	typ    string
	create func(a *api, url string) response
	update func(a *api, url string) response // on the one created with the valid URL
	stored func(a *api) []string             // the URLs stored
}

const validURL = "https://outside.example.com/in"

func urlKinds() []urlKind {
	gatewayWith := func(url string) map[string]any {
		g := gateway()
		g["base_url"] = url
		return g
	}
	return []urlKind{{
		name: "gateway base_url", typ: "external_payment_gateway.invalid_external_payment_gateway_data",
		create: func(a *api, url string) response {
			return a.do("POST", a.shopPath("/external_payment_gateways"), gatewayWith(url))
		},
		update: func(a *api, url string) response {
			id := a.do("GET", a.shopPath("/external_payment_gateways"), nil).data(a.t)["external_payment_gateways"].([]any)[0].(map[string]any)["public_id"].(string)
			return a.do("PATCH", a.shopPath("/external_payment_gateways/"+id), gatewayWith(url))
		},
		stored: func(a *api) []string {
			return a.svc.Client().ExternalPaymentGateway.Query().Select(externalpaymentgateway.FieldBaseURL).StringsX(context.Background())
		},
	}, {
		name: "webhook callback_url", typ: "webhook.invalid_callback_url",
		create: func(a *api, url string) response {
			return a.do("POST", a.shopPath("/webhooks"), map[string]any{"webhook_topic_id": 1, "callback_url": url})
		},
		update: func(a *api, url string) response {
			id := a.do("GET", a.shopPath("/webhooks"), nil).data(a.t)["webhooks"].([]any)[0].(map[string]any)["id"].(float64)
			return a.do("PATCH", a.shopPath(fmt.Sprintf("/webhooks/%d", int(id))), map[string]any{"callback_url": url})
		},
		stored: func(a *api) []string {
			return a.svc.Client().WebhookSubscription.Query().Select(webhooksubscription.FieldCallbackURL).StringsX(context.Background())
		},
	}, {
		name: "API override url", typ: "api_override.invalid_api_override_data",
		create: func(a *api, url string) response {
			return a.do("POST", a.shopPath("/overrides"), map[string]any{"override_type": "tax", "url": url, "shared_secret": "override-secret"})
		},
		update: func(a *api, url string) response {
			id := a.do("GET", a.shopPath("/overrides"), nil).data(a.t)["overrides"].([]any)[0].(map[string]any)["public_id"].(string)
			return a.do("PATCH", a.shopPath("/overrides/"+id), map[string]any{"url": url})
		},
		stored: func(a *api) []string {
			var out []string
			for _, o := range a.svc.Client().APIOverride.Query().AllX(context.Background()) {
				out = append(out, o.URL)
			}
			return out
		},
	}, {
		name: "rsa_config url", typ: "rsa_config.invalid_rsa_config",
		create: func(a *api, url string) response {
			return a.do("POST", a.shopPath("/rsa_config"), map[string]any{"url": url, "shared_secret": "rsa-secret"})
		},
		update: func(a *api, url string) response {
			return a.do("PATCH", a.shopPath("/rsa_config"), map[string]any{"url": url})
		},
		stored: func(a *api) []string {
			var out []string
			for _, c := range a.svc.Client().RSAConfig.Query().AllX(context.Background()) {
				out = append(out, c.URL)
			}
			return out
		},
	}}
}

func TestAConfiguredURLThatPointsInsideTheNetworkIs422AndNothingIsStored(t *testing.T) {
	eachAPIWith(t, refusePrivate, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": hookSecret}).wantStatus(t, 200)
		for _, k := range urlKinds() {
			for _, u := range internalURLs {
				e := k.create(a, u.url).wantError(t, 422, "", k.typ)
				if !strings.Contains(e["message"].(string), u.reason) {
					t.Fatalf("%s %s: message %q does not say it %s", k.name, u.url, e["message"], u.reason)
				}
			}
			if got := k.stored(a); len(got) != 0 {
				t.Fatalf("%s: refused URLs stored: %v", k.name, got)
			}
			k.create(a, validURL).wantStatus(t, 200)
			for _, u := range internalURLs {
				e := k.update(a, u.url).wantError(t, 422, "", k.typ)
				if !strings.Contains(e["message"].(string), u.reason) {
					t.Fatalf("%s update to %s: message %q does not say it %s", k.name, u.url, e["message"], u.reason)
				}
			}
			if got := k.stored(a); len(got) != 1 || got[0] != validURL {
				t.Fatalf("%s: stored %v after refused updates, want only %s", k.name, got, validURL)
			}
		}
	})
}

func TestLinkLocalAndMetadataURLsAreRefusedEvenWithPrivateAddressesAllowed(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/integration/config"), map[string]string{"shared_secret": hookSecret}).wantStatus(t, 200)
		for _, k := range urlKinds() {
			for _, u := range internalURLs {
				r := k.create(a, u.url)
				if u.reason == outbound.ReasonPrivate {
					r.wantStatus(t, 200)
					continue
				}
				r.wantError(t, 422, "", k.typ)
			}
		}
	})
}

// localhostURL is srvURL (a loopback test server) named by localhost: a name the system
// resolver answers with a loopback address, as a public-looking name could.
func localhostURL(t *testing.T, srvURL string) string {
	t.Helper()
	host, port, err := net.SplitHostPort(strings.TrimPrefix(srvURL, "http://"))
	if err != nil || host != "127.0.0.1" {
		t.Fatalf("test server at %s", srvURL)
	}
	return "http://localhost:" + port
}

// The gateway's URL was stored when it was allowed (or its name resolved elsewhere then): at
// call time the address it resolves to is checked, and the payment fails without a request.
func TestAGatewayWhoseURLResolvesToARefusedAddressIsAFailedPaymentNotARequest(t *testing.T) {
	eachAPIWith(t, refusePrivate, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		g := gateway()
		g["provider_id"], g["api_token"] = gatewaytest.ProviderID, gatewayAPIToken
		id := a.do("POST", a.shopPath("/external_payment_gateways"), g).wantStatus(t, 200).data(t)["external_payment_gateway"].(map[string]any)["public_id"].(string)
		a.svc.Client().ExternalPaymentGateway.Update().Where(externalpaymentgateway.PublicID(id)).
			SetBaseURL(localhostURL(t, gw.URL)).ExecX(context.Background())
		c := readyCheckout(t, a, cart())
		c.pay(id, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		e := c.call("POST", "/process_order", nil).wantError(t, 422, "", "payment.declined")
		if d := e["details"].(map[string]any); d["gateway_error_code"] != "outbound_refused" {
			t.Fatalf("details %v, want gateway_error_code outbound_refused", d)
		}
		for _, path := range []string{"/retain", "/auth", "/void"} {
			if calls := gw.Calls(path); len(calls) != 0 {
				t.Fatalf("the gateway on a refused address got %s: %+v", path, calls)
			}
		}
	})
}

func TestAGatewaysRedirectIsNotFollowed(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		gw := gatewaytest.New(t, gatewayAPIToken)
		redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, gw.URL+r.URL.Path, http.StatusTemporaryRedirect)
		}))
		t.Cleanup(redirector.Close)
		id := addGateway(t, a, &gatewaytest.Server{URL: redirector.URL}, "Redirecting")
		c := readyCheckout(t, a, cart())
		c.pay(id, gatewaytest.TokenOK, 0).wantStatus(t, 200)
		if r := c.call("POST", "/process_order", nil); r.Status != 422 {
			t.Fatalf("process_order through a redirecting gateway: %d %s", r.Status, r.Raw)
		}
		if calls := gw.Calls("/auth"); len(calls) != 0 {
			t.Fatalf("the redirect was followed: %+v", calls)
		}
	})
}

// waitAttempted polls the delivery log until the subscription's newest delivery was attempted.
func waitAttempted(t *testing.T, a *api, webhookID int) map[string]any {
	t.Helper()
	deadline := time.Now().Add(hookWait)
	for {
		if list := deliveries(t, a, webhookID, ""); len(list) > 0 && list[0]["attempt_count"].(float64) >= 1 {
			return list[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no attempted delivery for webhook %d after %s", webhookID, hookWait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestAWebhookWhoseURLResolvesToARefusedAddressIsAFailedAttemptNotARequest(t *testing.T) {
	eachHooks(t, refusePrivate, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, validURL, "order/failed")
		a.svc.Client().WebhookSubscription.UpdateOneID(ids[0]).SetCallbackURL(localhostURL(t, rcv.URL)).ExecX(context.Background())
		cancelOrder(t, a)
		d := waitAttempted(t, a, ids[0])
		if d["last_status_code"] != nil || !strings.Contains(d["last_error"].(string), "not sent") ||
			!strings.Contains(d["last_error"].(string), outbound.ReasonPrivate) {
			t.Fatalf("delivery to a refused address logged as %v", d)
		}
		ping := a.do("POST", a.shopPath(fmt.Sprintf("/webhooks/%d/ping", ids[0])), nil).wantStatus(t, 200).data(t)["ping"].(map[string]any)
		if ping["success"] != false || ping["status_code"].(float64) != 0 || ping["response_body"] != "" ||
			!strings.Contains(ping["error"].(string), outbound.ReasonPrivate) {
			t.Fatalf("ping of a refused address: %v", ping)
		}
		if calls := rcv.Calls(); len(calls) != 0 {
			t.Fatalf("the receiver on a refused address got %d callbacks", len(calls))
		}
	})
}

func TestAWebhookRedirectIsNotFollowed(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		redirector := httptest.NewServer(http.RedirectHandler(rcv.URL, http.StatusTemporaryRedirect))
		t.Cleanup(redirector.Close)
		ids := subscribe(t, a, redirector.URL, "order/failed")
		ping := a.do("POST", a.shopPath(fmt.Sprintf("/webhooks/%d/ping", ids[0])), nil).wantStatus(t, 200).data(t)["ping"].(map[string]any)
		if ping["success"] != false || ping["status_code"].(float64) != http.StatusTemporaryRedirect {
			t.Fatalf("ping of a redirecting receiver: %v", ping)
		}
		if calls := rcv.Calls(); len(calls) != 0 {
			t.Fatalf("the redirect was followed: %d callbacks", len(calls))
		}
	})
}

func TestPingShowsAtMostTheFirst256BytesOfTheReceiversAnswer(t *testing.T) {
	eachHooks(t, nil, func(t *testing.T, a *api) {
		rcv := webhooktest.New(t, hookSecret)
		ids := subscribe(t, a, rcv.URL, "order/created")
		secret := strings.Repeat("é", 5000) // two bytes each: the cut falls between characters
		rcv.AnswerNext(http.StatusOK, secret)
		r := a.do("POST", a.shopPath(fmt.Sprintf("/webhooks/%d/ping", ids[0])), nil).wantStatus(t, 200)
		ping := r.data(t)["ping"].(map[string]any)
		body := ping["response_body"].(string)
		if ping["success"] != true || len(body) > webhooks.MaxPingBody || len(body) < webhooks.MaxPingBody-1 ||
			!utf8.ValidString(body) || !strings.HasPrefix(secret, body) {
			t.Fatalf("ping body of %d bytes: %q", len(body), body)
		}
	})
}
