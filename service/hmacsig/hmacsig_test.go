package hmacsig

import (
	"net/http"
	"testing"
	"time"
)

func TestASignedCallVerifiesWithTheSameSecretOnly(t *testing.T) {
	now := time.Date(2026, 11, 25, 23, 59, 0, 0, time.UTC)
	h := http.Header{}
	Sign(h, []byte("s3cret"), now)
	if h.Get(HeaderTimestamp) != "2026-11-25T23:59:00Z" {
		t.Fatalf("timestamp %q", h.Get(HeaderTimestamp))
	}
	if err := Verify(h, []byte("s3cret"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := Verify(h, []byte("other"), now); err != ErrMismatch {
		t.Fatalf("another secret: %v", err)
	}
	if err := Verify(h, []byte("s3cret"), now.Add(6*time.Minute)); err != ErrStale {
		t.Fatalf("a stale timestamp: %v", err)
	}
	compat := http.Header{}
	compat.Set(HeaderTimestamp, h.Get(HeaderTimestamp))
	compat.Set(HeaderCompatible, h.Get(HeaderCompatible))
	if err := Verify(compat, []byte("s3cret"), now); err != nil {
		t.Fatalf("X-Compatible-HMAC alone: %v", err)
	}
	if err := Verify(http.Header{}, []byte("s3cret"), now); err != ErrMissing {
		t.Fatalf("no headers: %v", err)
	}
}
