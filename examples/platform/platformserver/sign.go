package platformserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"time"
)

// The headers of a signed connector call (and of the signed verification answer).
const (
	HeaderTimestamp      = "X-HMAC-Timestamp"
	HeaderHMAC           = "X-HMAC"
	HeaderCompatibleHMAC = "X-Compatible-HMAC"
)

// MaxSkew is how far X-HMAC-Timestamp may be from now, either way. It bounds how long a
// captured call can be replayed, and tolerates clocks a little apart.
const MaxSkew = 5 * time.Minute

// Errors Verify returns.
var (
	ErrUnsigned     = errors.New("platformserver: X-HMAC-Timestamp, or both X-HMAC and X-Compatible-HMAC, missing")
	ErrStale        = errors.New("platformserver: X-HMAC-Timestamp is not an RFC 3339 time within 5 minutes of now")
	ErrBadSignature = errors.New("platformserver: neither X-HMAC nor X-Compatible-HMAC matches the shared secret")
)

// mac is HMAC-SHA256 keyed by the shared secret over the timestamp exactly as sent.
func mac(secret []byte, timestamp string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(timestamp))
	return m.Sum(nil)
}

// Sign sets X-HMAC-Timestamp (now, RFC 3339 UTC, whole seconds), X-HMAC (standard padded
// base64 of the HMAC) and X-Compatible-HMAC (lowercase hex of the same HMAC) on h.
func Sign(h http.Header, secret []byte, now time.Time) {
	ts := now.UTC().Format(time.RFC3339)
	sum := mac(secret, ts)
	h.Set(HeaderTimestamp, ts)
	h.Set(HeaderHMAC, base64.StdEncoding.EncodeToString(sum))
	h.Set(HeaderCompatibleHMAC, hex.EncodeToString(sum))
}

// Verify checks the signature headers in h: the timestamp must be within MaxSkew of now and
// either X-HMAC or X-Compatible-HMAC must be its HMAC under secret. Either header suffices so
// that a client able to send only one of the encodings is still accepted.
func Verify(h http.Header, secret []byte, now time.Time) error {
	ts := h.Get(HeaderTimestamp)
	b64, hx := h.Get(HeaderHMAC), h.Get(HeaderCompatibleHMAC)
	if ts == "" || (b64 == "" && hx == "") {
		return ErrUnsigned
	}
	at, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ErrStale
	}
	if d := now.Sub(at); d > MaxSkew || d < -MaxSkew {
		return ErrStale
	}
	want := mac(secret, ts)
	// hmac.Equal compares in constant time, so the answer's timing says nothing about how much
	// of a guessed signature was right. Both comparisons always run for the same reason.
	okB64, okHex := false, false
	if got, err := base64.StdEncoding.DecodeString(b64); err == nil && b64 != "" {
		okB64 = hmac.Equal(got, want)
	}
	if got, err := hex.DecodeString(hx); err == nil && hx != "" {
		okHex = hmac.Equal(got, want)
	}
	if !okB64 && !okHex {
		return ErrBadSignature
	}
	return nil
}
