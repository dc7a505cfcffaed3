// Package httpsig signs and verifies requests with HTTP message signatures (draft-cavage-12):
// HMAC-SHA256 over "(request-target)" and "date", in the exact form the gateway protocol and
// webhook receivers of this API family expect (algorithm="hmac-sha256", which the general
// libraries replace with "hs2019").
package httpsig

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"
)

// SignedHeaders are the parts of a request the signature covers.
const SignedHeaders = "(request-target) date"

// SigningString is what the HMAC is computed over.
func SigningString(method, target, date string) string {
	return "(request-target): " + strings.ToLower(method) + " " + target + "\ndate: " + date
}

// requestTarget is the path and query as they go on the wire: a URL without a path is sent as
// "/", and so signed (a receiver sees "/").
func requestTarget(r *http.Request) string {
	target := r.URL.EscapedPath()
	if target == "" {
		target = "/"
	}
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	return target
}

func mac(secret []byte, s string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(s))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// Sign sets the Date header (from now) and the signature header on r. header is
// "Authorization" (its value then starts with "Signature ") or "Signature".
func Sign(r *http.Request, header, keyID string, secret []byte, now time.Time) {
	date := now.UTC().Format(http.TimeFormat)
	r.Header.Set("Date", date)
	value := `keyId="` + keyID + `",algorithm="hmac-sha256",headers="` + SignedHeaders + `",signature="` +
		mac(secret, SigningString(r.Method, requestTarget(r), date)) + `"`
	if strings.EqualFold(header, "Authorization") {
		value = "Signature " + value
	}
	r.Header.Set(header, value)
}

// Errors of Verify.
var (
	ErrMissing  = errors.New("httpsig: no signature")
	ErrMismatch = errors.New("httpsig: signature does not match")
	ErrStale    = errors.New("httpsig: date is missing or too far from now")
)

// Params parses a signature header value into its parameters.
func Params(value string) map[string]string {
	value = strings.TrimSpace(value)
	if len(value) > 10 && strings.EqualFold(value[:10], "signature ") {
		value = value[10:]
	}
	out := map[string]string{}
	for _, part := range strings.Split(value, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			out[k] = strings.Trim(v, `"`)
		}
	}
	return out
}

// Verify checks the signature in header against secret, and that the signed Date is within
// maxSkew of now.
func Verify(r *http.Request, header string, secret []byte, maxSkew time.Duration, now time.Time) error {
	p := Params(r.Header.Get(header))
	if p["signature"] == "" {
		return ErrMissing
	}
	if p["algorithm"] != "hmac-sha256" || p["headers"] != SignedHeaders {
		return ErrMismatch
	}
	date := r.Header.Get("Date")
	t, err := http.ParseTime(date)
	if err != nil || t.Sub(now) > maxSkew || now.Sub(t) > maxSkew {
		return ErrStale
	}
	want := mac(secret, SigningString(r.Method, requestTarget(r), date))
	if !hmac.Equal([]byte(want), []byte(p["signature"])) {
		return ErrMismatch
	}
	return nil
}
