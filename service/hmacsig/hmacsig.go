// Package hmacsig signs and verifies the calls checkoutd makes to a platform's connector server
// and to a remote state authority: X-HMAC-Timestamp is the RFC 3339 UTC time of the call, X-HMAC
// the base64 HMAC-SHA256 of that timestamp keyed by the shared secret, and X-Compatible-HMAC the
// same HMAC in hex (API.md). The answer of a connector's verification is signed the same way.
package hmacsig

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"time"
)

// The headers of a signed call.
const (
	HeaderTimestamp  = "X-HMAC-Timestamp"
	HeaderHMAC       = "X-HMAC"
	HeaderCompatible = "X-Compatible-HMAC"
)

// MaxSkew is how far a signed timestamp may be from the verifier's clock.
const MaxSkew = 5 * time.Minute

func sum(secret []byte, timestamp string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(timestamp))
	return m.Sum(nil)
}

// Sign sets the three headers on h for a call made at now.
func Sign(h http.Header, secret []byte, now time.Time) {
	ts, mac, compatible := Values(secret, now)
	h.Set(HeaderTimestamp, ts)
	h.Set(HeaderHMAC, mac)
	h.Set(HeaderCompatible, compatible)
}

// Values are the values of HeaderTimestamp, HeaderHMAC and HeaderCompatible for a call made at
// now, for a client whose headers are not an http.Header.
func Values(secret []byte, now time.Time) (timestamp, mac, compatible string) {
	ts := now.UTC().Format(time.RFC3339)
	s := sum(secret, ts)
	return ts, base64.StdEncoding.EncodeToString(s), hex.EncodeToString(s)
}

// Errors of Verify.
var (
	ErrMissing  = errors.New("no X-HMAC-Timestamp, or neither X-HMAC nor X-Compatible-HMAC")
	ErrStale    = errors.New("X-HMAC-Timestamp is not an RFC 3339 time within 5 minutes of now")
	ErrMismatch = errors.New("X-HMAC does not match the shared secret")
)

// Verify checks the signature headers of h against secret at now: X-HMAC or, without it,
// X-Compatible-HMAC, over a timestamp within MaxSkew.
func Verify(h http.Header, secret []byte, now time.Time) error {
	ts := h.Get(HeaderTimestamp)
	b64, hx := h.Get(HeaderHMAC), h.Get(HeaderCompatible)
	if ts == "" || (b64 == "" && hx == "") {
		return ErrMissing
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil || now.Sub(t).Abs() > MaxSkew {
		return ErrStale
	}
	want := sum(secret, ts)
	var got []byte
	if b64 != "" {
		got, err = base64.StdEncoding.DecodeString(b64)
	} else {
		got, err = hex.DecodeString(hx)
	}
	if err != nil || !hmac.Equal(got, want) {
		return ErrMismatch
	}
	return nil
}
