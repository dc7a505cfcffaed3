package rest_test

import (
	"net/http"
	"testing"
)

func storefrontRequest(t *testing.T, a *api, method, path, origin, jwt string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, a.url+path, nil)
	req.Header.Set("Origin", origin)
	if jwt != "" {
		req.Header.Set("Authorization", "Bearer "+jwt)
	}
	if method == "OPTIONS" {
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "authorization,content-type")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func TestStorefrontCORSAnswersOnlyAllowlistedOrigins(t *testing.T) {
	eachAPI(t, func(t *testing.T, a *api) {
		a.do("POST", a.shopPath("/cors"), map[string]string{"domain": "https://shop.example.com"}).wantStatus(t, 200)
		id, jwt, _ := initOrder(t, a)
		path := "/checkout/storefront/" + a.shop + "/" + id + "/refresh"

		pre := storefrontRequest(t, a, "OPTIONS", path, "https://shop.example.com", "")
		if pre.Header.Get("Access-Control-Allow-Origin") != "https://shop.example.com" ||
			pre.Header.Get("Access-Control-Allow-Credentials") != "true" || pre.Header.Get("Access-Control-Allow-Headers") == "" {
			t.Fatalf("preflight headers %v", pre.Header)
		}
		get := storefrontRequest(t, a, "GET", path, "https://shop.example.com", jwt)
		if get.StatusCode != 200 || get.Header.Get("Access-Control-Allow-Origin") != "https://shop.example.com" {
			t.Fatalf("GET %d %v", get.StatusCode, get.Header)
		}
		for _, method := range []string{"OPTIONS", "GET"} {
			other := storefrontRequest(t, a, method, path, "https://evil.example.com", jwt)
			if v := other.Header.Get("Access-Control-Allow-Origin"); v != "" {
				t.Fatalf("%s from another origin got Access-Control-Allow-Origin %q", method, v)
			}
		}
	})
}
