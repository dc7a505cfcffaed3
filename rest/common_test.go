package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/checkoutd/checkoutd/service"
)

func TestCallWithoutAccessTokenIs401(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.token = ""
		a.do("GET", a.shopPath("/life_elements"), nil).wantError(t, 401, service.CodeUnauthorized, "auth.unauthorized")
	})
}

func TestTokenOfAnotherShopIs401AndRevealsNothing(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		other, err := a.svc.CreateShop(context.Background(), service.CreateShopInput{Identifier: "shop-b"})
		if err != nil {
			t.Fatal(err)
		}
		a.do("POST", a.shopPath("/life_elements"), lifeElement()).wantStatus(t, 200)
		a.token = other.AccessToken
		known := a.do("GET", a.shopPath("/life_elements"), nil)
		known.wantError(t, 401, service.CodeUnauthorized, "")
		a.shop = "no-such-shop"
		unknown := a.do("GET", a.shopPath("/life_elements"), nil)
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
		a.do("GET", a.shopPath("/life_elements"), nil).wantError(t, 400, service.CodeBadRequest, "request.invalid_version_date")
	})
}

func TestMalformedJSONIs400(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/life_elements"), `{"location": `).wantError(t, 400, service.CodeBadRequest, "request.malformed")
	})
}

func TestBodyOver1MiBIs413(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		big := `{"domain":"` + strings.Repeat("a", 1<<20) + `"}`
		a.do("POST", a.shopPath("/cors"), big).wantError(t, 413, service.CodeBodyTooLarge, "request.body_too_large")
	})
}

func TestHealthzAndReadyz(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("GET", "/healthz", nil).wantStatus(t, 200)
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
		a.do("GET", "/checkout/shop/shop-a/nothing-here", nil).wantError(t, 404, service.CodeNotFound, "route.not_found")
	})
}
