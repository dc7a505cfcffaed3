package rest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/checkoutd/checkoutd/service/problem"
	"github.com/checkoutd/checkoutd/service/shops"
)

func TestCallWithoutAccessTokenIs401(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.token = ""
		a.do("GET", a.shopPath("/life_elements"), nil).wantError(t, 401, problem.CodeUnauthorized, "auth.unauthorized")
	})
}

func TestTokenOfAnotherShopIs401AndRevealsNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		other, err := a.svc.Shops.CreateShop(context.Background(), shops.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		a.do("POST", a.shopPath("/life_elements"), lifeElement()).wantStatus(t, 200)
		a.token = other.AccessToken
		// One request id for both, so that the bodies may be the same byte for byte.
		sameID := http.Header{"X-Request-Id": {"probe"}}
		known := a.doWithHeader("GET", a.shopPath("/life_elements"), nil, sameID)
		known.wantError(t, 401, problem.CodeUnauthorized, "")
		a.shop = "no-such-shop"
		unknown := a.doWithHeader("GET", a.shopPath("/life_elements"), nil, sameID)
		if known.Raw != unknown.Raw {
			t.Fatalf("answers differ for an existing and a missing shop:\n%s\n%s", known.Raw, unknown.Raw)
		}
		a.shop = "shop-a"
		a.do("DELETE", a.shopPath("/cors/1"), nil).wantStatus(t, 401)
	})
}

func TestVersionDateHeaderAcceptedUnderBothNames(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for _, name := range []string{"Service-API-Version-Date", "Bold-API-Version-Date"} {
			a.header = http.Header{name: {"2022-05-17"}}
			a.do("GET", a.shopPath("/life_elements"), nil).wantStatus(t, 200)
		}
	})
}

func TestMalformedVersionDateIs400(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.header = http.Header{"Bold-Api-Version-Date": {"17/05/2022"}}
		a.do("GET", a.shopPath("/life_elements"), nil).wantError(t, 400, problem.CodeBadRequest, "request.invalid_version_date")
	})
}

func TestMalformedJSONIs400(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/life_elements"), `{"location": `).wantError(t, 400, problem.CodeBadRequest, "request.malformed")
	})
}

func TestBodyOver1MiBIs413(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		big := `{"domain":"` + strings.Repeat("a", 1<<20) + `"}`
		a.do("POST", a.shopPath("/cors"), big).wantError(t, 413, problem.CodeBodyTooLarge, "request.body_too_large")
	})
}

func TestHealthzLivezAndReadyz(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("GET", "/healthz", nil).wantStatus(t, 200)
		a.do("GET", "/livez", nil).wantStatus(t, 200)
		a.do("GET", "/readyz", nil).wantStatus(t, 200)
	})
}

func TestShopInfoAnswersForTheTokensShop(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		d := a.do("GET", "/shops/v1/info", nil).wantStatus(t, 200).data(t)
		if d["shop_identifier"] != "shop-a" || d["platform_type"] != "custom" {
			t.Fatalf("shop info %v", d)
		}
	})
}

func TestUnknownEndpointIs404InTheErrorEnvelope(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("GET", "/checkout/shop/shop-a/nothing-here", nil).wantError(t, 404, problem.CodeNotFound, "route.not_found")
	})
}

func TestVersionDateMustBeARealCalendarDate(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for _, v := range []string{"2022-02-31", "2023-02-29", "2022-04-31", "2022-13-01", "2022-00-10", "2022-1-05", "2022-01-05T00:00:00Z"} {
			a.header = http.Header{"Service-Api-Version-Date": {v}}
			a.do("GET", a.shopPath("/life_elements"), nil).wantError(t, 400, problem.CodeBadRequest, "request.invalid_version_date")
		}
		a.header = http.Header{"Bold-Api-Version-Date": {"2024-02-29"}}
		a.do("GET", a.shopPath("/life_elements"), nil).wantStatus(t, 200)
	})
}

// The router would redirect these to the cleaned path with an HTML body.
func TestNonCanonicalPathIs400InTheErrorEnvelope(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for _, p := range []string{
			"/checkout/shop/other/../shop-a/cors",
			"/checkout/shop/shop-a/./cors",
			"/checkout/shop/shop-a//cors",
			"//checkout/shop/shop-a/cors",
			"/checkout/shop/shop-a/cors/.",
			"/checkout/shop/shop-a/cors/..",
			"/x/./y",
			"//x",
			"/healthz/",
		} {
			r := a.send(a.token, "GET", p, "", nil, false)
			if p == "/healthz/" {
				// Canonical (a trailing slash is kept) and simply not a route.
				r.wantError(t, 404, problem.CodeNotFound, "route.not_found")
				continue
			}
			r.wantError(t, 400, problem.CodeBadRequest, "request.non_canonical_path")
		}
		a.send(a.token, "POST", "/checkout/shop/shop-a/./cors", "application/json", []byte(`{"domain":"https://a.example.com"}`), false).
			wantError(t, 400, problem.CodeBadRequest, "request.non_canonical_path")
		if list := a.do("GET", a.shopPath("/cors"), nil).wantStatus(t, 200).data(t); len(list) != 0 {
			t.Fatalf("a refused request changed the allowlist: %v", list)
		}
	})
}

// A path the router would answer itself, with a redirect to a trailing slash or a plain-text
// 404 or 405, is answered in the envelope.
func TestRouterAnswersAreInTheErrorEnvelope(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.send("", "OPTIONS", "/checkout/storefront/shop-a", "", nil, false).wantError(t, 404, problem.CodeNotFound, "route.not_found")
		a.send(a.token, "DELETE", "/healthz", "", nil, false).wantError(t, 404, problem.CodeNotFound, "route.not_found")
		a.send(a.token, "PROPFIND", a.shopPath("/cors"), "", nil, false).wantError(t, 404, problem.CodeNotFound, "route.not_found")
		conn, err := net.Dial("tcp", strings.TrimPrefix(a.url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		r := response{Status: res.StatusCode, Raw: string(raw)}
		_ = json.Unmarshal(raw, &r.Body)
		r.wantError(t, 405, "02-05", "request.method_not_allowed")
	})
}

func TestRequestBodyMustBeSentAsJSON(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		body := []byte(`{"domain":"https://a.example.com"}`)
		for _, ct := range []string{"text/plain", "", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", "application/jsonx", "text/json", "application/", "json"} {
			a.send(a.token, "POST", a.shopPath("/cors"), ct, body, false).wantError(t, 415, "02-15", "request.unsupported_media_type")
			a.send(a.token, "POST", a.shopPath("/cors"), ct, body, true).wantError(t, 415, "02-15", "request.unsupported_media_type")
		}
		if list := a.do("GET", a.shopPath("/cors"), nil).wantStatus(t, 200).data(t); len(list) != 0 {
			t.Fatalf("a refused body changed the allowlist: %v", list)
		}
		for i, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON; Charset=UTF-8", "application/merge-patch+json"} {
			body := fmt.Appendf(nil, `{"domain":"https://a%d.example.com"}`, i)
			a.send(a.token, "POST", a.shopPath("/cors"), ct, body, i%2 == 0).wantStatus(t, 200)
		}
	})
}

// API.md: a call that takes no body may arrive with Content-Type: application/json and an
// empty body; any content type, or none, goes with an empty body.
func TestEmptyBodyTakesAnyContentType(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		id, jwt, _ := initOrder(t, a)
		storefront(t, a, jwt, "POST", "/checkout/storefront/"+a.shop+"/"+id+"/addresses/shipping", usAddress()).wantStatus(t, 200)
		taxes := "/checkout/storefront/" + a.shop + "/" + id + "/taxes"
		for _, ct := range []string{"application/json", "text/plain", ""} {
			a.send(jwt, "POST", taxes, ct, nil, false).wantStatus(t, 200)
			a.send(jwt, "POST", taxes, ct, []byte{}, true).wantStatus(t, 200)
			a.send(a.token, "GET", a.shopPath("/cors"), ct, nil, false).wantStatus(t, 200)
		}
		a.send(jwt, "POST", taxes, "text/plain", []byte("{}"), false).wantError(t, 415, "02-15", "request.unsupported_media_type")
	})
}

func TestInvalidUTF8BodyIs400(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/cors"), []byte("{\"domain\":\"https://\xff.example.com\"}")).wantError(t, 400, problem.CodeBadRequest, "request.malformed")
	})
}

// A number that fits no field of its type, or a body of the wrong kind, names the field and
// the kind in JSON's words, never a Go type.
func TestWrongJSONTypeNamesTheFieldInJSONWords(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		e := a.do("POST", "/checkout/orders/"+a.shop+"/init", `{"cart_items":[{"sku":"A","quantity":9223372036854775808,"line_item_key":"k"}]}`).
			wantError(t, 422, problem.CodeValidation, "request.invalid_field_type")
		if e["field"] != "cart_items.quantity" || e["message"] != "cart_items.quantity must be a whole number in range" {
			t.Fatalf("error %v", e)
		}
		e = a.do("POST", a.shopPath("/cors"), `[]`).wantError(t, 422, problem.CodeValidation, "request.invalid_field_type")
		if e["message"] != "request body must be a JSON object" {
			t.Fatalf("error %v", e)
		}
	})
}

// A client still sending a body over the limit reads the 413, not a reset connection: the rest
// of the body is read and dropped before the answer goes.
func TestABodyOver1MiBSentSlowlyGetsThe413NotAConnectionReset(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		for _, chunked := range []bool{false, true} {
			conn, err := net.Dial("tcp", strings.TrimPrefix(a.url, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			const size = 2 << 20
			head := "POST " + a.shopPath("/cors") + " HTTP/1.1\r\nHost: checkoutd\r\nAuthorization: Bearer " + a.token +
				"\r\nContent-Type: application/json\r\n"
			if chunked {
				head += "Transfer-Encoding: chunked\r\n\r\n"
			} else {
				head += "Content-Length: " + strconv.Itoa(size) + "\r\n\r\n"
			}
			if _, err := conn.Write([]byte(head)); err != nil {
				t.Fatal(err)
			}
			part := bytes.Repeat([]byte("a"), 64<<10)
			for sent := 0; sent < size; sent += len(part) {
				out := part
				if chunked {
					out = append([]byte(strconv.FormatInt(int64(len(part)), 16)+"\r\n"), append(part, "\r\n"...)...)
				}
				if _, err := conn.Write(out); err != nil {
					t.Fatalf("chunked %v: sending the body failed after %d bytes: %v", chunked, sent, err)
				}
				time.Sleep(30 * time.Millisecond)
			}
			if chunked {
				if _, err := conn.Write([]byte("0\r\n\r\n")); err != nil {
					t.Fatalf("ending the chunked body: %v", err)
				}
			}
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("chunked %v: reading the answer: %v", chunked, err)
			}
			body, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatalf("chunked %v: reading the answer's body: %v", chunked, err)
			}
			if res.StatusCode != 413 || !strings.Contains(string(body), `"request.body_too_large"`) {
				t.Fatalf("chunked %v: %d %s", chunked, res.StatusCode, body)
			}
		}
	})
}

func TestEveryAnswerCarriesTheRequestIdSentOrAFreshOne(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		sent := a.doWithHeader("GET", "/livez", nil, http.Header{"X-Request-Id": {"trace-42.a_b"}})
		if got := sent.Header.Get("X-Request-Id"); got != "trace-42.a_b" {
			t.Fatalf("the id sent came back as %q", got)
		}
		fresh := a.do("GET", "/no/such/route", nil)
		other := a.doWithHeader("GET", "/livez", nil, http.Header{"X-Request-Id": {"bad id\twith spaces"}})
		if fresh.Header.Get("X-Request-Id") == "" || other.Header.Get("X-Request-Id") == "" || other.Header.Get("X-Request-Id") == "bad id\twith spaces" {
			t.Fatalf("ids made: %q, %q", fresh.Header.Get("X-Request-Id"), other.Header.Get("X-Request-Id"))
		}
	})
}

func TestErrorBodiesCarryTheRequestIdInTheirDetails(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		sent := a.doWithHeader("GET", "/no/such/route", nil, http.Header{"X-Request-Id": {"trace-43"}})
		if id := sent.wantError(t, 404, "", "route.not_found")["details"].(map[string]any)["request_id"]; id != "trace-43" {
			t.Fatalf("details.request_id %v", id)
		}
		made := a.do("GET", "/no/such/route", nil)
		if id := made.wantError(t, 404, "", "route.not_found")["details"].(map[string]any)["request_id"]; id == nil || id != made.Header.Get("X-Request-Id") {
			t.Fatalf("details.request_id %v, header %q", id, made.Header.Get("X-Request-Id"))
		}
	})
}
