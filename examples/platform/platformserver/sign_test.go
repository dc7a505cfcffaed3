package platformserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestSignMatchesTheContract(t *testing.T) {
	h := http.Header{}
	Sign(h, []byte("s3cret"), time.Date(2026, 11, 25, 23, 59, 0, 0, time.FixedZone("x", 3600)))
	if got := h.Get(HeaderTimestamp); got != "2026-11-25T22:59:00Z" {
		t.Fatalf("timestamp %q, want UTC RFC 3339", got)
	}
	m := hmac.New(sha256.New, []byte("s3cret"))
	m.Write([]byte("2026-11-25T22:59:00Z"))
	if want := base64.StdEncoding.EncodeToString(m.Sum(nil)); h.Get(HeaderHMAC) != want {
		t.Fatalf("X-HMAC %q, want %q", h.Get(HeaderHMAC), want)
	}
	if len(h.Get(HeaderCompatibleHMAC)) != 64 {
		t.Fatalf("X-Compatible-HMAC %q is not 32 bytes of hex", h.Get(HeaderCompatibleHMAC))
	}
}

func TestVerify(t *testing.T) {
	signed := func(secret string, at time.Time) http.Header {
		h := http.Header{}
		Sign(h, []byte(secret), at)
		return h
	}
	onlyHex := signed("k", testNow)
	onlyHex.Del(HeaderHMAC)
	onlyB64 := signed("k", testNow)
	onlyB64.Del(HeaderCompatibleHMAC)
	badB64 := signed("k", testNow)
	badB64.Set(HeaderHMAC, "not base64!")
	noTS := signed("k", testNow)
	noTS.Del(HeaderTimestamp)
	for name, tc := range map[string]struct {
		h    http.Header
		want error
	}{
		"good":                 {signed("k", testNow), nil},
		"4m59s old":            {signed("k", testNow.Add(-299*time.Second)), nil},
		"only X-Compatible":    {onlyHex, nil},
		"only X-HMAC":          {onlyB64, nil},
		"bad X-HMAC, good hex": {badB64, nil},
		"wrong secret":         {signed("other", testNow), ErrBadSignature},
		"stale":                {signed("k", testNow.Add(-6*time.Minute)), ErrStale},
		"future":               {signed("k", testNow.Add(6*time.Minute)), ErrStale},
		"no timestamp":         {noTS, ErrUnsigned},
		"nothing":              {http.Header{}, ErrUnsigned},
	} {
		if err := Verify(tc.h, []byte("k"), testNow); !errors.Is(err, tc.want) {
			t.Errorf("%s: Verify = %v, want %v", name, err, tc.want)
		}
	}
}

func TestCallsAreRefusedUnlessSigned(t *testing.T) {
	f := newFixture(t)
	tamper := map[string]func(*http.Request){
		"wrong secret": func(r *http.Request) { Sign(r.Header, []byte("wrong"), testNow) },
		"stale":        func(r *http.Request) { Sign(r.Header, testSecret, testNow.Add(-10*time.Minute)) },
		"no headers": func(r *http.Request) {
			r.Header.Del(HeaderHMAC)
			r.Header.Del(HeaderCompatibleHMAC)
			r.Header.Del(HeaderTimestamp)
		},
		"no user agent": func(r *http.Request) { r.Header.Set("User-Agent", "") },
		"tampered mac": func(r *http.Request) {
			r.Header.Set(HeaderHMAC, base64.StdEncoding.EncodeToString(make([]byte, 32)))
			r.Header.Del(HeaderCompatibleHMAC)
		},
		"unknown secret": func(r *http.Request) { r.URL.Path = "/platform/v1/shops/other/verification" },
	}
	for name, change := range tamper {
		req := f.request("GET", "verification", nil)
		change(req)
		var e errorAnswer
		resp := f.send(req, &e)
		if resp.StatusCode != http.StatusUnauthorized || len(e.Errors) != 1 {
			t.Errorf("%s: status %d, errors %v; want 401 with one error", name, resp.StatusCode, e.Errors)
		}
		if resp.Header.Get(HeaderHMAC) != "" {
			t.Errorf("%s: a refused call's answer is signed", name)
		}
	}
	calls := f.srv.Calls()
	if len(calls) != len(tamper) {
		t.Fatalf("%d calls recorded, want %d", len(calls), len(tamper))
	}
	for _, c := range calls {
		if c.SignatureValid || c.Status != http.StatusUnauthorized {
			t.Errorf("call %+v recorded as valid or not 401", c)
		}
	}
}

func TestVerificationAnswerIsSigned(t *testing.T) {
	f := newFixture(t)
	var body map[string]any
	resp := f.do("GET", "verification", nil, &body)
	wantStatus(t, resp, http.StatusOK)
	if len(body) != 0 {
		t.Fatalf("body %v, want {}", body)
	}
	if err := Verify(resp.Header, testSecret, testNow); err != nil {
		t.Fatalf("verification answer: %v", err)
	}
	if err := Verify(resp.Header, []byte("other"), testNow); err == nil {
		t.Fatal("verification answer verifies under another secret")
	}
	c := f.srv.Calls()
	if len(c) != 1 || !c[0].SignatureValid || c[0].Path != "/v1/shops/demo/verification" || c[0].Shop != testShop || c[0].Status != 200 {
		t.Fatalf("calls %+v", c)
	}
}

func TestAnyShopSecret(t *testing.T) {
	srv := New(map[string][]byte{AnyShop: testSecret}, WithClock(func() time.Time { return testNow }))
	req, _ := http.NewRequest("GET", "/v1/shops/whatever/verification", nil)
	req.Header.Set("User-Agent", "x")
	Sign(req.Header, testSecret, testNow)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	if w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
}
